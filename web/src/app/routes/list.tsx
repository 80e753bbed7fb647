import type { List } from '@pipit/contract';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SignInRequired } from '../../components/sign-in-required.tsx';
import { EmptyState, ErrorState, PostSkeletons } from '../../components/states.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useDeleteList } from '../../features/lists/api/lists.ts';
import { EditListModal, REPLIES_CHOICES } from '../../features/lists/components/edit-list-modal.tsx';
import { ListMembersEditor } from '../../features/lists/components/list-members-editor.tsx';
import { memberCount } from '../../features/lists/components/list-row.tsx';
import { PostList } from '../../features/posts/components/post-list.tsx';
import { NewPostsButton } from '../../features/timeline/components/new-posts-button.tsx';
import { m, t } from '../../i18n/i18n.ts';
import { ApiRequestError } from '../../lib/api-client.ts';
import { paths } from '../../lib/paths.ts';
import { notify, notifyError } from '../../lib/toast.tsx';
import { useList, useListTimeline } from '../../state/lists.ts';
import { useViewer } from '../../state/viewer.tsx';

type Tab = 'posts' | 'members';
const TABS = [
  { value: 'posts', label: m('Posts') },
  { value: 'members', label: m('Members') },
] as const;
const tabId = (tab: Tab) => `list-tab-${tab}`;
const PANEL = 'list-panel';

function ListView({ list }: { list: List }) {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'members' ? 'members' : 'posts';
  const timeline = useListTimeline(list.id, { enabled: tab === 'posts' });
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteList(list.id);
  const navigate = useNavigate();
  const replies = REPLIES_CHOICES.find((c) => c.value === list.repliesPolicy)?.label ?? '';

  return (
    <>
      <PageTitle>{list.title}</PageTitle>
      <PageHeader
        back
        title={<span className="[overflow-wrap:anywhere]">{list.title}</span>}
        subtitle={
          list.exclusive
            ? t('{members} · Exclusive', { members: memberCount(list.memberCount) })
            : memberCount(list.memberCount)
        }
      >
        <div className="flex flex-wrap items-center gap-2 px-4 pb-3">
          <p className="min-w-0 flex-1 text-[13px] text-muted">{t('Replies to: {replies}', { replies: t(replies) })}</p>
          <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
            {t('Edit list')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            className="border-danger/60 text-danger! hover:bg-danger/10"
            onClick={() => setDeleting(true)}
          >
            {t('Delete list')}
          </Button>
        </div>
        <Tabs
          tabs={TABS}
          value={tab}
          onChange={(next) => setParams(next === 'members' ? { tab: 'members' } : {}, { replace: true })}
          label={t('List')}
          tabId={tabId}
          panelId={PANEL}
        />
      </PageHeader>
      <div role="tabpanel" id={PANEL} aria-labelledby={tabId(tab)}>
        {tab === 'posts' ? (
          <>
            <NewPostsButton kind={`list:${list.id}`} />
            <PostList
              query={timeline}
              label={t('{title} timeline', { title: list.title })}
              empty={
                list.memberCount === 0 ? (
                  <EmptyState
                    title={t('This list is empty')}
                    action={<Button onClick={() => setParams({ tab: 'members' })}>{t('Add people')}</Button>}
                  >
                    {t('Add people you follow, and their posts will show here.')}
                  </EmptyState>
                ) : (
                  <EmptyState title={t('No posts yet')}>
                    {t('When people on this list post, it shows here.')}
                  </EmptyState>
                )
              }
            />
          </>
        ) : (
          <ListMembersEditor listId={list.id} />
        )}
      </div>
      {editing && <EditListModal list={list} onClose={() => setEditing(false)} />}
      {deleting && (
        <ConfirmDialog
          title={t('Delete list?')}
          confirm={t('Delete')}
          variant="danger"
          busy={remove.isPending}
          onCancel={() => setDeleting(false)}
          onConfirm={() =>
            remove.mutate(undefined, {
              onSuccess: () => {
                notify(t('Deleted “{title}”', { title: list.title }));
                navigate(paths.lists, { replace: true });
              },
              onError: () => {
                setDeleting(false);
                notifyError(t('Couldn’t delete the list. Try again.'));
              },
            })
          }
        >
          {list.exclusive
            ? t(
                '“{title}” and who is on it go for good. The people stay followed, and their posts come back to Home.',
                {
                  title: list.title,
                },
              )
            : t('“{title}” and who is on it go for good. The people stay followed.', { title: list.title })}
        </ConfirmDialog>
      )}
    </>
  );
}

function OwnList({ id }: { id: string }) {
  const list = useList(id);
  if (list.isPending) return <PostSkeletons />;
  if (list.isError) {
    // Someone else's list answers as one that does not exist.
    if (list.error instanceof ApiRequestError && list.error.status === 404)
      return <NotFound message={t('This list doesn’t exist.')} />;
    return <ErrorState message={t('Couldn’t load this list.')} onRetry={() => list.refetch()} />;
  }
  return <ListView list={list.data} />;
}

/** One of the viewer's lists: its timeline, and its members to edit; members only. */
export function ListPage() {
  const { id = '' } = useParams();
  const { status } = useViewer();
  if (status === 'loading') return <PostSkeletons />;
  if (status === 'unauthenticated') {
    return (
      <>
        <PageTitle>{t('List')}</PageTitle>
        <PageHeader back title={t('List')} />
        <SignInRequired title={t('Sign in to see your lists')}>
          {t('Lists are yours alone: sign in to read this one.')}
        </SignInRequired>
      </>
    );
  }
  return <OwnList id={id} />;
}
