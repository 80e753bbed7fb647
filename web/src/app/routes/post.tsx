import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { NotFound } from '../../components/not-found.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { ErrorState, PostSkeletons } from '../../components/states.tsx';
import { Composer } from '../../features/compose/components/composer.tsx';
import { PostCard } from '../../features/posts/components/post-card.tsx';
import { PostDetail } from '../../features/posts/components/post-detail.tsx';
import { PostList } from '../../features/posts/components/post-list.tsx';
import { t } from '../../i18n/i18n.ts';
import { isNotFound } from '../../lib/api-client.ts';
import { isId } from '../../lib/ids.ts';
import { paths } from '../../lib/paths.ts';
import { useAncestors, usePost, useReplies } from '../../state/posts.ts';
import { useViewer } from '../../state/viewer.tsx';

/**
 * The conversation above a reply, root first, each post joined to the next by a thread line.
 * Once it has loaded, the post itself is scrolled to the top, with the conversation above it.
 */
function Conversation({ id, onShown }: { id: string; onShown: () => void }) {
  const ancestors = useAncestors(id);
  const posts = ancestors.data?.pages.flatMap((page) => page.items) ?? [];
  const count = posts.length;
  const shown = useRef(false);
  useEffect(() => {
    if (count > 0 && !shown.current) {
      shown.current = true;
      onShown();
    }
  }, [count, onShown]);

  if (ancestors.isPending) return <PostSkeletons count={1} />;
  if (ancestors.isError) {
    return <ErrorState message={t('Couldn’t load the conversation.')} onRetry={() => ancestors.refetch()} />;
  }
  if (count === 0) {
    // The parent went while this page was open.
    return <p className="border-b border-line px-4 py-3 text-[15px] text-muted">{t('This post was deleted.')}</p>;
  }
  return (
    <section aria-label={t('Conversation')}>
      {posts.map((post) => (
        <PostCard key={post.id} post={post} threadLine replyContext={false} />
      ))}
    </section>
  );
}

function Replies({ id }: { id: string }) {
  const replies = useReplies(id);
  return (
    <PostList
      query={replies}
      label={t('Replies')}
      replyContext={false}
      empty={<p className="px-4 py-8 text-center text-[15px] text-muted">{t('No replies yet.')}</p>}
    />
  );
}

function PostView({ id }: { id: string }) {
  const post = usePost(id);
  const { user } = useViewer();
  const navigate = useNavigate();
  const location = useLocation();
  const focusReply = Boolean((location.state as { focusReply?: boolean } | null)?.focusReply);
  const detailRef = useRef<HTMLElement>(null);
  const showPost = useCallback(() => detailRef.current?.scrollIntoView?.({ block: 'start' }), []);

  if (post.isError && isNotFound(post.error)) return <NotFound message={t('This post doesn’t exist.')} />;
  return (
    <>
      <PageHeader title={t('Post')} back />
      {post.isPending ? (
        <PostSkeletons count={1} />
      ) : post.isError ? (
        <ErrorState message={t('Couldn’t load this post.')} onRetry={() => post.refetch()} />
      ) : (
        <>
          <PageTitle>
            {t('{name} on Pipit: “{text}”', {
              name: post.data.author.name,
              text: (post.data.spoilerText || post.data.text).slice(0, 60),
            })}
          </PageTitle>
          {post.data.parentId && <Conversation id={id} onShown={showPost} />}
          <PostDetail
            ref={detailRef}
            post={post.data}
            onDeleted={() =>
              navigate(post.data.parentId ? paths.post(post.data.parentId) : paths.home, { replace: true })
            }
          />
          {user ? (
            <Composer
              key={id}
              parentId={id}
              parentVisibility={post.data.visibility}
              label={t('Post your reply')}
              submitLabel={t('Reply')}
              autoFocus={focusReply}
              className="border-b border-line"
            />
          ) : null}
          <Replies id={id} />
        </>
      )}
    </>
  );
}

export function PostPage() {
  const { id } = useParams();
  if (!isId(id)) return <NotFound message={t('This post doesn’t exist.')} />;
  return <PostView key={id} id={id} />;
}
