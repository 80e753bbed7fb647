import { lazy, Suspense, useState } from 'react';
import { Button } from '../../components/button.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { EmptyState, PostSkeletons } from '../../components/states.tsx';
import { WelcomeBox } from '../../features/auth/components/welcome-box.tsx';
import { PostList } from '../../features/posts/components/post-list.tsx';
import { NewPostsButton } from '../../features/timeline/components/new-posts-button.tsx';
import { panelId, TimelineTabs, tabId } from '../../features/timeline/components/timeline-tabs.tsx';
import { t } from '../../i18n/i18n.ts';
import { useMembersOnly } from '../../lib/members-only.ts';
import type { TimelineKind } from '../../state/keys.ts';
import { useTimeline } from '../../state/posts.ts';
import { useViewer } from '../../state/viewer.tsx';

const TAB_KEY = 'pipit.timeline';

// Members only: a visitor's first visit (what the web budget measures) does not carry it.
const Composer = lazy(() =>
  import('../../features/compose/components/composer.tsx').then((m) => ({ default: m.Composer })),
);

/** Members start on Following and keep their choice for the tab's session. */
function useTimelineTab(): [TimelineKind, (kind: TimelineKind) => void] {
  const [tab, setTab] = useState<TimelineKind>(() =>
    sessionStorage.getItem(TAB_KEY) === 'everyone' ? 'everyone' : 'following',
  );
  const choose = (kind: TimelineKind) => {
    setTab(kind);
    sessionStorage.setItem(TAB_KEY, kind);
  };
  return [tab, choose];
}

export function HomePage() {
  const { status } = useViewer();
  const member = status === 'authenticated';
  const [tab, setTab] = useTimelineTab();
  const kind: TimelineKind = member ? tab : 'everyone';
  const timeline = useTimeline(kind, { enabled: status !== 'loading' });

  const membersOnly = useMembersOnly();
  const onTab = (next: TimelineKind) => (next === 'following' ? membersOnly(() => setTab(next)) : setTab(next));

  return (
    <>
      <PageTitle>{t('Home')}</PageTitle>
      <PageHeader title={t('Home')}>
        <TimelineTabs value={kind} onChange={onTab} />
      </PageHeader>
      {status === 'unauthenticated' && <WelcomeBox />}
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(kind)}>
        {member && (
          // The composer's own height while its code arrives, so the timeline below does not jump.
          <Suspense fallback={<div aria-hidden="true" className="h-[137px] border-b border-line" />}>
            <Composer unsent className="border-b border-line" />
          </Suspense>
        )}
        {status !== 'loading' && <NewPostsButton kind={kind} />}
        {status === 'loading' ? (
          <PostSkeletons />
        ) : (
          <PostList
            key={kind}
            query={timeline}
            label={kind === 'following' ? t('Following timeline') : t('Everyone timeline')}
            empty={
              kind === 'following' ? (
                <EmptyState
                  title={t('Nothing to see here yet')}
                  action={<Button onClick={() => setTab('everyone')}>{t('See Everyone')}</Button>}
                >
                  {t('Follow people to fill your Following timeline.')}
                </EmptyState>
              ) : (
                <EmptyState title={t('No posts yet')}>{t('Be the first to say something.')}</EmptyState>
              )
            }
          />
        )}
      </div>
    </>
  );
}
