import type { User } from '@pipit/contract';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ListFooter } from '../../components/list-footer.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SignInRequired } from '../../components/sign-in-required.tsx';
import { EmptyState, ErrorState, PostSkeletons } from '../../components/states.tsx';
import { FollowRequestRow } from '../../features/profile/components/follow-request-row.tsx';
import { t } from '../../i18n/i18n.ts';
import { paths } from '../../lib/paths.ts';
import { pageItems } from '../../state/paged.ts';
import { useFollowRequests } from '../../state/users.ts';
import { useViewer } from '../../state/viewer.tsx';

function RequestList({ locked }: { locked: boolean }) {
  const query = useFollowRequests();
  const people = useMemo(() => pageItems<User>(query.data), [query.data]);
  if (query.isPending) return <PostSkeletons />;
  if (query.isError && !query.data) {
    return <ErrorState message={t('Couldn’t load your follow requests.')} onRetry={() => query.refetch()} />;
  }
  if (people.length === 0) {
    return (
      <EmptyState
        title={t('No follow requests')}
        action={
          <Link to={paths.settings} className="text-[15px] text-accent hover:underline">
            {locked ? t('Change this in Settings') : t('Approve followers in Settings')}
          </Link>
        }
      >
        {locked
          ? t('When someone asks to follow you, they’ll be listed here for you to approve or reject.')
          : t('Anyone can follow you now. Turn on “Approve followers” to decide who does.')}
      </EmptyState>
    );
  }
  return (
    <section aria-label={t('Follow requests')}>
      <ul>
        {people.map((person) => (
          <FollowRequestRow key={person.id} person={person} />
        ))}
      </ul>
      <ListFooter query={query} noun={t('requests')} />
    </section>
  );
}

/** `/follow-requests`: the people asking to follow the member, newest first, each approved or rejected; members only. */
export function FollowRequestsPage() {
  const { status, user } = useViewer();
  return (
    <>
      <PageTitle>{t('Follow requests')}</PageTitle>
      <PageHeader title={t('Follow requests')} subtitle={user ? `@${user.username}` : undefined} back />
      {status === 'loading' ? (
        <PostSkeletons />
      ) : status === 'unauthenticated' ? (
        <SignInRequired title={t('Sign in to see your follow requests')}>
          {t('When you approve followers, the people asking to follow you are listed here.')}
        </SignInRequired>
      ) : (
        <RequestList locked={user?.locked ?? false} />
      )}
    </>
  );
}
