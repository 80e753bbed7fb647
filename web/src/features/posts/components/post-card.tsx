import type { Post } from '@pipit/contract';
import { Repeat2 } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { Byline } from '../../../components/byline.tsx';
import { LinkCard } from '../../../components/link-card.tsx';
import { PostContent } from '../../../components/post-content.tsx';
import { PostQuote } from '../../../components/post-quote.tsx';
import { ReportPostButton } from '../../../components/report-post-button.tsx';
import { useRowLink } from '../../../components/use-row-link.ts';
import { VisibilityBadge } from '../../../components/visibility-badge.tsx';
import { t } from '../../../i18n/i18n.ts';
import { rich } from '../../../i18n/rich.tsx';
import { cn } from '../../../lib/cn.ts';
import { handleOf } from '../../../lib/handle.ts';
import { paths } from '../../../lib/paths.ts';
import { usePostView } from '../../../state/shadow.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { DeletePostButton } from './delete-post-button.tsx';
import { EditPostButton } from './edit-post-button.tsx';
import { EditedLink } from './edited-link.tsx';
import { PostActions } from './post-actions.tsx';
import { PostPoll } from './post-poll.tsx';

const REPLY_LINK = 'text-accent underline decoration-accent/40 underline-offset-2 hover:decoration-accent';

/**
 * "Replying to @name", the name linking to the person answered. Underlined: in muted text its
 * colour alone would not tell it is a link (axe link-in-text-block).
 */
export function ReplyingTo({ post, className }: { post: Post; className?: string }) {
  if (!post.parentId) return null;
  return (
    <p className={cn('text-[15px] leading-5 text-muted [overflow-wrap:anywhere]', className)}>
      {post.replyTo
        ? rich(t('Replying to <0>@{username}</0>', { username: handleOf(post.replyTo).slice(1) }), [
            (name) => (
              <Link to={paths.user(post.replyTo?.id ?? '')} className={REPLY_LINK}>
                <bdi>{name}</bdi>
              </Link>
            ),
          ])
        : rich(t('Replying to <0>a post</0>'), [
            (words) => (
              <Link to={paths.post(post.parentId ?? '')} className={REPLY_LINK}>
                {words}
              </Link>
            ),
          ])}
    </p>
  );
}

interface PostCardProps {
  post: Post;
  /** Draws a line down from the avatar to the post below (a parent above its reply). */
  threadLine?: boolean;
  /** A reply links to the post it answers, except where that post is already on screen. */
  replyContext?: boolean;
  onDeleted?: () => void;
}

/**
 * A post in a list. The whole row opens the post; its links and buttons do their own thing, and
 * the time is a real link for the keyboard and for opening in a new tab.
 */
export function PostCard({ post: cached, threadLine, replyContext = true, onDeleted }: PostCardProps) {
  const post = usePostView(cached);
  const { user } = useViewer();
  const href = paths.post(post.id);
  const onClick = useRowLink(href);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the time link is the keyboard path to the post
    <article
      onClick={onClick}
      className={cn(
        'flex cursor-pointer flex-wrap gap-x-3 px-4 pt-3 transition-colors hover:bg-fg/[0.03]',
        !threadLine && 'border-b border-line',
      )}
    >
      {post.repostedBy && (
        <p className="-mt-1 mb-1 flex w-full items-center gap-3 text-[13px] font-bold text-muted">
          <Repeat2 aria-hidden="true" className="ms-8 size-4 shrink-0" />
          <Link to={paths.user(post.repostedBy.id)} className="min-w-0 truncate hover:underline">
            {user?.id === post.repostedBy.id ? t('You reposted') : t('{name} reposted', { name: post.repostedBy.name })}
          </Link>
        </p>
      )}
      <div className="flex flex-col items-center">
        <Avatar user={post.author} />
        {threadLine && <div className="mt-1 w-0.5 flex-1 bg-line-strong" />}
      </div>
      <div className="min-w-0 flex-1 pb-1">
        <div className="flex items-center gap-1 text-[15px] leading-5">
          <Byline author={post.author} href={href} createdAt={post.createdAt} />
          {post.editedAt && (
            <>
              <span aria-hidden="true" className="text-muted">
                ·
              </span>
              <EditedLink post={post} />
            </>
          )}
          <VisibilityBadge visibility={post.visibility} className="ms-0.5" />
          {user?.id === post.author.id ? (
            <>
              <EditPostButton post={post} className="ms-auto" />
              <DeletePostButton post={post} onDeleted={onDeleted} />
            </>
          ) : (
            user && <ReportPostButton post={post} className="ms-auto" />
          )}
        </div>
        {replyContext && post.parentId && <ReplyingTo post={post} />}
        <PostContent post={post} textClassName="mt-0.5 text-[15px] leading-5" mediaClassName="mt-3">
          {post.poll && <PostPoll post={post} poll={post.poll} className="mt-3" />}
          <LinkCard card={post.card} className="mt-3" />
        </PostContent>
        {post.quote && <PostQuote quote={post.quote} className="mt-3" />}
        <PostActions post={post} className="mt-1" />
      </div>
    </article>
  );
}
