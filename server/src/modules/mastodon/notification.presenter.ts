import type { Notification, NotificationType } from '@pipit/contract';
import { groupKey } from '../notifications/notifications.groups.ts';
import type { Account } from './account.presenter.ts';
import type { Status } from './status.presenter.ts';

/** Pipit's notification kinds as Mastodon's. */
export const MASTODON_TYPES: Record<NotificationType, string> = {
  like: 'favourite',
  reply: 'mention',
  mention: 'mention',
  follow: 'follow',
  quote: 'quote',
  repost: 'reblog',
  follow_request: 'follow_request',
  poll: 'poll',
  update: 'update',
};

/** Mastodon's Notification: who did it (an Account) and, for a post's notification, the Status. */
export function toNotification(n: Notification, account: Account, status: Status | undefined) {
  return {
    id: n.id,
    type: MASTODON_TYPES[n.type],
    // The key of its group in the grouped notifications (apps merge live ones into their groups by it).
    group_key: groupKey({ id: n.id, type: n.type, postId: n.post?.id ?? null, createdAt: n.createdAt }),
    created_at: n.createdAt,
    account,
    ...(status ? { status } : {}),
  };
}
export type MastodonNotification = ReturnType<typeof toNotification>;
