import type { Notification } from '@pipit/contract';
import { AtSign, ChartBar, Heart, MessageCircle, Pencil, Quote, Repeat2, UserPlus, UserRoundPlus } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { PostText } from '../../../components/post-text.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { useRowLink } from '../../../components/use-row-link.ts';
import { cn } from '../../../lib/cn.ts';
import { paths } from '../../../lib/paths.ts';
import { useViewer } from '../../../state/viewer.tsx';

const kinds = {
  like: { icon: Heart, colour: 'text-like fill-current', text: 'liked your post' },
  reply: { icon: MessageCircle, colour: 'text-accent', text: 'replied to your post' },
  follow: { icon: UserPlus, colour: 'text-accent', text: 'followed you' },
  mention: { icon: AtSign, colour: 'text-accent', text: 'mentioned you' },
  quote: { icon: Quote, colour: 'text-accent', text: 'quoted your post' },
  repost: { icon: Repeat2, colour: 'text-repost', text: 'reposted your post' },
  follow_request: { icon: UserRoundPlus, colour: 'text-accent', text: 'asked to follow you' },
  // Said without the actor's name (its author): "Your poll has ended" or "A poll you voted in has ended".
  poll: { icon: ChartBar, colour: 'text-accent', text: 'A poll you voted in has ended' },
  // Said by what the member did with it (postRepostedByMe): reposted, else quoted (or, on a poll whose
  // options changed, voted in: "interacted with", as Mastodon says).
  update: { icon: Pencil, colour: 'text-accent', text: 'edited a post you quoted' },
} as const;

/**
 * "Alice liked your post", with the post's text; the row opens the post (or the follower). A request
 * to follow opens the Follow requests page, where it is approved or rejected.
 */
export function NotificationItem({ notification, unread }: { notification: Notification; unread: boolean }) {
  const { actor, post } = notification;
  const kind = kinds[notification.type];
  const Icon = kind.icon;
  const said =
    notification.type !== 'update'
      ? kind.text
      : post?.repostedByMe
        ? 'edited a post you reposted'
        : post?.poll
          ? 'edited a post you interacted with'
          : kind.text;
  const target =
    notification.type === 'follow_request' ? paths.followRequests : post ? paths.post(post.id) : paths.user(actor.id);

  const onClick = useRowLink(target);
  const { user } = useViewer();
  const ownPoll = notification.type === 'poll' && user?.id === actor.id;

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the text link is the keyboard path
    <article
      onClick={onClick}
      className={cn(
        'flex cursor-pointer gap-3 border-b border-line px-4 py-3 transition-colors hover:bg-fg/[0.03]',
        unread && 'bg-accent/[0.06]',
      )}
    >
      <Icon aria-hidden="true" className={cn('mt-1 size-7 shrink-0', kind.colour)} />
      <div className="min-w-0 flex-1">
        <Avatar user={actor} />
        <p className="mt-2 text-[15px] leading-5">
          {notification.type === 'poll' ? (
            <Link to={target} className="hover:underline">
              {ownPoll ? 'Your poll has ended' : kind.text}
            </Link>
          ) : (
            <>
              <Link to={paths.user(actor.id)} className="font-bold hover:underline">
                {actor.name}
              </Link>{' '}
              <Link to={target} className="hover:underline">
                {said}
              </Link>
            </>
          )}
          <span className="text-muted">
            {' · '}
            <RelativeTime iso={notification.createdAt} />
          </span>
          {unread && <span className="sr-only"> (new)</span>}
        </p>
        {post &&
          (post.spoilerText ? (
            // Behind a warning: the warning, never the text it hides.
            <p className="mt-1 line-clamp-3 text-[15px] leading-5 text-muted [overflow-wrap:anywhere]">
              <span className="font-bold">Content warning:</span> {post.spoilerText}
            </p>
          ) : (
            <PostText text={post.text} className="mt-1 line-clamp-3 text-[15px] leading-5 text-muted" />
          ))}
      </div>
    </article>
  );
}
