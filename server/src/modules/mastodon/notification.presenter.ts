import type { Notification, NotificationType } from '@pipit/contract';
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
};

/** Mastodon's Notification: who did it (an Account) and, for a post's notification, the Status. */
export function toNotification(n: Notification, account: Account, status: Status | undefined) {
  return {
    id: n.id,
    type: MASTODON_TYPES[n.type],
    group_key: `ungrouped-${n.id}`,
    created_at: n.createdAt,
    account,
    ...(status ? { status } : {}),
  };
}
export type MastodonNotification = ReturnType<typeof toNotification>;
