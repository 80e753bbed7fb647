import type { Notification } from '@pipit/contract';
import { AtSign, ChartBar, Heart, MessageCircle, Pencil, Quote, Repeat2, UserPlus, UserRoundPlus } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { PostText } from '../../../components/post-text.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { useRowLink } from '../../../components/use-row-link.ts';
import { m, t } from '../../../i18n/i18n.ts';
import { rich } from '../../../i18n/rich.tsx';
import { cn } from '../../../lib/cn.ts';
import { paths } from '../../../lib/paths.ts';
import { useViewer } from '../../../state/viewer.tsx';

const kinds = {
  like: { icon: Heart, colour: 'text-like fill-current', text: m('<0>{name}</0> <1>liked your post</1>') },
  reply: { icon: MessageCircle, colour: 'text-accent', text: m('<0>{name}</0> <1>replied to your post</1>') },
  follow: { icon: UserPlus, colour: 'text-accent', text: m('<0>{name}</0> <1>followed you</1>') },
  mention: { icon: AtSign, colour: 'text-accent', text: m('<0>{name}</0> <1>mentioned you</1>') },
  quote: { icon: Quote, colour: 'text-accent', text: m('<0>{name}</0> <1>quoted your post</1>') },
  repost: { icon: Repeat2, colour: 'text-repost', text: m('<0>{name}</0> <1>reposted your post</1>') },
  follow_request: { icon: UserRoundPlus, colour: 'text-accent', text: m('<0>{name}</0> <1>asked to follow you</1>') },
  // Said without the actor's name (its author): "Your poll has ended" or "A poll you voted in has ended".
  poll: { icon: ChartBar, colour: 'text-accent', text: m('A poll you voted in has ended') },
  // Said by what the member did with it (postRepostedByMe): reposted, else quoted (or, on a poll whose
  // options changed, voted in: "interacted with", as Mastodon says).
  update: { icon: Pencil, colour: 'text-accent', text: m('<0>{name}</0> <1>edited a post you quoted</1>') },
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
        ? m('<0>{name}</0> <1>edited a post you reposted</1>')
        : post?.poll
          ? m('<0>{name}</0> <1>edited a post you interacted with</1>')
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
              {ownPoll ? t('Your poll has ended') : t(kind.text)}
            </Link>
          ) : (
            rich(t(said, { name: actor.name }), [
              (name) => (
                <Link to={paths.user(actor.id)} className="font-bold hover:underline">
                  {name}
                </Link>
              ),
              (what) => (
                <Link to={target} className="hover:underline">
                  {what}
                </Link>
              ),
            ])
          )}
          <span className="text-muted">
            {' · '}
            <RelativeTime iso={notification.createdAt} />
          </span>
          {unread && <span className="sr-only"> {t('(new)')}</span>}
        </p>
        {post &&
          (post.spoilerText ? (
            // Behind a warning: the warning, never the text it hides.
            <p className="mt-1 line-clamp-3 text-[15px] leading-5 text-muted [overflow-wrap:anywhere]">
              <span className="font-bold">{t('Content warning:')}</span> {post.spoilerText}
            </p>
          ) : (
            <PostText text={post.text} className="mt-1 line-clamp-3 text-[15px] leading-5 text-muted" />
          ))}
      </div>
    </article>
  );
}
