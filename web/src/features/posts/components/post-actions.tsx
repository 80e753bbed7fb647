import type { Post } from '@pipit/contract';
import { Bookmark, Heart, MessageCircle, Quote, Repeat2 } from 'lucide-react';
import { useNavigate } from 'react-router';
import { t } from '../../../i18n/i18n.ts';
import { cn } from '../../../lib/cn.ts';
import { formatCount } from '../../../lib/format-time.ts';
import { useMembersOnly } from '../../../lib/members-only.ts';
import { openModal } from '../../../lib/modals.ts';
import { paths } from '../../../lib/paths.ts';
import { quoteRefusal, repostRefusal } from '../../../lib/visibility.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { useBookmarkPost } from '../api/bookmark-post.ts';
import { useLikePost } from '../api/like-post.ts';
import { useRepostPost } from '../api/repost-post.ts';

interface PostActionsProps {
  post: Post;
  /** On the post's own page the counts are shown above, so the buttons carry none. */
  showCounts?: boolean;
  className?: string;
}

/** A count next to its button: the button's name stays the action ('Like'), the count is read on its own. */
function Count({ value, words }: { value: number; words: (count: number) => string }) {
  return (
    <>
      <span aria-hidden="true" className="min-w-4 tabular-nums">
        {value > 0 ? formatCount(value) : ''}
      </span>
      <span className="sr-only">{words(value)}</span>
    </>
  );
}

/** Reply, Repost, Quote, Like and Bookmark; visitors are asked to sign in first. */
export function PostActions({ post, showCounts = true, className }: PostActionsProps) {
  const membersOnly = useMembersOnly();
  const navigate = useNavigate();
  const like = useLikePost(post.id);
  const liked = post.likedByMe;
  const bookmark = useBookmarkPost(post.id);
  const repost = useRepostPost(post.id);
  const reposted = post.repostedByMe;
  const kept = post.bookmarkedByMe;
  const viewerId = useViewer().user?.id;
  // Undoing one's repost stays possible whatever the post is now.
  const noRepost = reposted ? null : repostRefusal(post.visibility);
  const noQuote = quoteRefusal(post, viewerId);

  return (
    <div className={cn('flex items-center gap-5 text-[13px] text-muted sm:gap-10', className)}>
      <div className="group flex items-center gap-0.5 hover:text-accent">
        <button
          type="button"
          aria-label={t('Reply')}
          onClick={() => membersOnly(() => navigate(paths.post(post.id), { state: { focusReply: true } }))}
          className="-ms-2 grid size-9 place-items-center rounded-full group-hover:bg-accent/10"
        >
          <MessageCircle aria-hidden="true" className="size-[18px]" />
        </button>
        {showCounts && (
          <Count
            value={post.replyCount}
            words={(count) => t('{count, plural, one {# reply} other {# replies}}', { count })}
          />
        )}
      </div>
      <div
        className={cn('group flex items-center gap-0.5', !noRepost && 'hover:text-repost', reposted && 'text-repost')}
      >
        <button
          type="button"
          aria-label={reposted ? t('Undo repost') : t('Repost')}
          // aria-disabled rather than disabled: it keeps its tooltip and stays reachable to read why.
          aria-disabled={noRepost ? true : undefined}
          title={noRepost ?? undefined}
          onClick={() => !noRepost && membersOnly(() => repost(!reposted))}
          className="grid size-9 place-items-center rounded-full not-aria-disabled:group-hover:bg-repost/10 aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
        >
          <Repeat2 aria-hidden="true" className="size-[18px]" />
        </button>
        {showCounts && (
          <Count
            value={post.repostCount}
            words={(count) => t('{count, plural, one {# repost} other {# reposts}}', { count })}
          />
        )}
      </div>
      <button
        type="button"
        aria-label={t('Quote')}
        aria-disabled={noQuote ? true : undefined}
        title={noQuote ?? undefined}
        onClick={() => !noQuote && membersOnly(() => openModal('compose', { quote: post }))}
        className="grid size-9 place-items-center rounded-full not-aria-disabled:hover:bg-accent/10 not-aria-disabled:hover:text-accent aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
      >
        <Quote aria-hidden="true" className="size-[18px]" />
      </button>
      <div className={cn('group flex items-center gap-0.5 hover:text-like', liked && 'text-like')}>
        <button
          type="button"
          aria-label={liked ? t('Unlike') : t('Like')}
          onClick={() => membersOnly(() => like(!liked))}
          className="grid size-9 place-items-center rounded-full group-hover:bg-like/10"
        >
          <Heart aria-hidden="true" className={cn('size-[18px]', liked && 'fill-current')} />
        </button>
        {showCounts && (
          <Count
            value={post.likeCount}
            words={(count) => t('{count, plural, one {# like} other {# likes}}', { count })}
          />
        )}
      </div>
      <div className={cn('group ms-auto flex items-center hover:text-accent', kept && 'text-accent')}>
        <button
          type="button"
          aria-label={kept ? t('Remove bookmark') : t('Bookmark')}
          onClick={() => membersOnly(() => bookmark(!kept))}
          className="-me-2 grid size-9 place-items-center rounded-full group-hover:bg-accent/10"
        >
          <Bookmark aria-hidden="true" className={cn('size-[18px]', kept && 'fill-current')} />
        </button>
      </div>
    </div>
  );
}
