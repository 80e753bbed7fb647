import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SignInRequired } from '../../components/sign-in-required.tsx';
import { EmptyState, PostSkeletons } from '../../components/states.tsx';
import { PostList } from '../../features/posts/components/post-list.tsx';
import { t } from '../../i18n/i18n.ts';
import { useBookmarks } from '../../state/posts.ts';
import { useViewer } from '../../state/viewer.tsx';

function BookmarkList() {
  const bookmarks = useBookmarks();
  return (
    <PostList
      query={bookmarks}
      label={t('Bookmarks')}
      empty={
        <EmptyState title={t('Save posts for later')}>
          {t('Bookmark posts to easily find them again here. Only you can see your bookmarks.')}
        </EmptyState>
      }
    />
  );
}

/** The viewer's bookmarks, newest bookmark first; members only. */
export function BookmarksPage() {
  const { status, user } = useViewer();
  return (
    <>
      <PageTitle>{t('Bookmarks')}</PageTitle>
      <PageHeader title={t('Bookmarks')} subtitle={user ? `@${user.username}` : undefined} />
      {status === 'loading' ? (
        <PostSkeletons />
      ) : status === 'unauthenticated' ? (
        <SignInRequired title={t('Sign in to see your bookmarks')}>
          {t('Posts you bookmark are kept here, for you alone, once you’re signed in.')}
        </SignInRequired>
      ) : (
        <BookmarkList />
      )}
    </>
  );
}
