import type { Post } from '@pipit/contract';
import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { type ReactNode, useDeferredValue, useMemo } from 'react';
import { ListFooter } from '../../../components/list-footer.tsx';
import { ErrorState, PostSkeletons } from '../../../components/states.tsx';
import { t } from '../../../i18n/i18n.ts';
import { pageItems } from '../../../state/paged.ts';
import type { PostPages } from '../../../state/posts.ts';
import { PostCard } from './post-card.tsx';

interface PostListProps {
  query: UseInfiniteQueryResult<PostPages>;
  /** Shown when the list has no posts. */
  empty: ReactNode;
  /** The list's accessible name, e.g. "Everyone timeline". */
  label: string;
  /** False for a post's replies: they all answer the post above. */
  replyContext?: boolean;
}

/** A cursor-paged list of posts: skeletons, empty state, inline errors, infinite scroll. */
export function PostList({ query, empty, label, replyContext = true }: PostListProps) {
  const posts = useMemo(() => pageItems<Post>(query.data), [query.data]);
  // When the first page arrives while the skeletons show, its rows render in the background: React renders
  // a deferred value in slices and commits them together, so a slow phone's main thread is not blocked for
  // the whole page at once (on a first visit to Home that was the longest task after the code's own start).
  // The skeletons stay until then. A list already in the cache shows at once, and later pages as before.
  const rowsReady = useDeferredValue(posts.length > 0);

  if (query.isPending || (posts.length > 0 && !rowsReady)) return <PostSkeletons />;
  if (query.isError && !query.data) {
    return <ErrorState message={t('Couldn’t load these posts.')} onRetry={() => query.refetch()} />;
  }
  if (posts.length === 0) return <>{empty}</>;

  return (
    <section aria-label={label}>
      {posts.map((post) => (
        <PostCard key={post.id} post={post} replyContext={replyContext} />
      ))}
      <ListFooter query={query} noun={t('posts')} />
    </section>
  );
}
