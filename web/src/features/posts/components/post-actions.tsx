import type { Post } from '@pipit/contract';
import { Heart, MessageCircle } from 'lucide-react';
import { useNavigate } from 'react-router';
import { cn } from '../../../lib/cn.ts';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { formatCount } from '../../../lib/format-time.ts';
import { openModal } from '../../../lib/modals.ts';
import { useLikePost } from '../api/like-post.ts';

interface PostActionsProps {
  post: Post;
  /** On the post's own page the counts are shown above, so the buttons carry none. */
  showCounts?: boolean;
  className?: string;
}

/** Reply and Like; visitors are asked to sign in first. */
export function PostActions({ post, showCounts = true, className }: PostActionsProps) {
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const like = useLikePost(post.id);
  const liked = post.likedByMe;

  return (
    <div className={cn('flex items-center gap-12 text-[13px] text-muted', className)}>
      <div className="flex items-center">
        <button
          type="button"
          aria-label="Reply"
          onClick={() => {
            if (!user) openModal('login');
            else navigate(`/posts/${post.id}`, { state: { focusReply: true } });
          }}
          className="group -ml-2 flex items-center gap-1 rounded-full p-2 hover:text-accent"
        >
          <MessageCircle aria-hidden="true" className="size-[18px] group-hover:drop-shadow" />
          {showCounts && <span aria-hidden="true">{post.replyCount > 0 ? formatCount(post.replyCount) : ''}</span>}
        </button>
        {showCounts && (
          <span className="sr-only">{`${post.replyCount} ${post.replyCount === 1 ? 'reply' : 'replies'}`}</span>
        )}
      </div>
      <div className="flex items-center">
        <button
          type="button"
          aria-label={liked ? 'Unlike' : 'Like'}
          onClick={() => {
            if (!user) openModal('login');
            else like.mutate(!liked);
          }}
          className={cn('group flex items-center gap-1 rounded-full p-2 hover:text-like', liked && 'text-like')}
        >
          <Heart aria-hidden="true" className={cn('size-[18px]', liked && 'fill-current')} />
          {showCounts && <span aria-hidden="true">{post.likeCount > 0 ? formatCount(post.likeCount) : ''}</span>}
        </button>
        {showCounts && (
          <span className="sr-only">{`${post.likeCount} ${post.likeCount === 1 ? 'like' : 'likes'}`}</span>
        )}
      </div>
    </div>
  );
}
