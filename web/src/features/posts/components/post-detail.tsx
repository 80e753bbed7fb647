import type { Post } from '@pipit/contract';
import type { Ref } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { LinkCard } from '../../../components/link-card.tsx';
import { PostContent } from '../../../components/post-content.tsx';
import { PostQuote } from '../../../components/post-quote.tsx';
import { ReportPostButton } from '../../../components/report-post-button.tsx';
import { VisibilityBadge } from '../../../components/visibility-badge.tsx';
import { t } from '../../../i18n/i18n.ts';
import { countWords } from '../../../i18n/rich.tsx';
import { formatCount, fullDate } from '../../../lib/format-time.ts';
import { paths } from '../../../lib/paths.ts';
import { usePostView } from '../../../state/shadow.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { DeletePostButton } from './delete-post-button.tsx';
import { EditPostButton } from './edit-post-button.tsx';
import { EditedLink } from './edited-link.tsx';
import { PostActions } from './post-actions.tsx';
import { ReplyingTo } from './post-card.tsx';
import { PostPoll } from './post-poll.tsx';

/** The post on its own page: larger text, the full date, the counts. */
export function PostDetail({
  post: cached,
  onDeleted,
  ref,
}: {
  post: Post;
  onDeleted?: () => void;
  ref?: Ref<HTMLElement>;
}) {
  const post = usePostView(cached);
  const { user } = useViewer();
  return (
    <article
      ref={ref}
      aria-label={t('Post by {name}', { name: post.author.name })}
      // The page header is sticky: scrolled into view, the post starts below it.
      className="scroll-mt-[53px] border-b border-line px-4 pt-3"
    >
      <div className="flex items-center gap-3">
        <Avatar user={post.author} />
        <div className="min-w-0 flex-1 leading-5">
          <Link to={paths.user(post.author.id)} className="block truncate font-bold hover:underline">
            {post.author.name}
          </Link>
          <span className="block truncate text-muted">
            <bdi>@{post.author.username}</bdi>
          </span>
        </div>
        {user?.id === post.author.id ? (
          <>
            <EditPostButton post={post} />
            <DeletePostButton post={post} onDeleted={onDeleted} />
          </>
        ) : (
          user && <ReportPostButton post={post} />
        )}
      </div>
      <ReplyingTo post={post} className="mt-3" />
      <PostContent post={post} textClassName="mt-3 text-[17px] leading-6" mediaClassName="mt-3">
        {post.poll && <PostPoll post={post} poll={post.poll} className="mt-3" />}
        <LinkCard card={post.card} className="mt-3" />
      </PostContent>
      {post.quote && <PostQuote quote={post.quote} className="mt-3" />}
      <p className="mt-3 flex flex-wrap items-center gap-x-1 text-[15px] text-muted">
        <time dateTime={post.createdAt}>{fullDate(post.createdAt)}</time>
        {post.editedAt && (
          <>
            <span aria-hidden="true">·</span>
            <EditedLink post={post} />
          </>
        )}
        {post.visibility !== 'public' && (
          <>
            <span aria-hidden="true">·</span>
            <VisibilityBadge visibility={post.visibility} withLabel />
          </>
        )}
      </p>
      <div className="mt-3 flex gap-5 border-t border-line py-3 text-[15px]">
        <span>
          {countWords(
            t('{count, plural, one {<0>{shown}</0> Reply} other {<0>{shown}</0> Replies}}', {
              count: post.replyCount,
              shown: formatCount(post.replyCount),
            }),
          )}
        </span>
        <span>
          {countWords(
            t('{count, plural, one {<0>{shown}</0> Like} other {<0>{shown}</0> Likes}}', {
              count: post.likeCount,
              shown: formatCount(post.likeCount),
            }),
          )}
        </span>
      </div>
      <PostActions post={post} showCounts={false} className="justify-around border-t border-line py-1" />
    </article>
  );
}
