import type { AppSubscription } from '../push/push.service.ts';

/** Every alert Mastodon's push API names (4.5), in its order. */
export const MASTODON_ALERTS = [
  'mention',
  'quote',
  'status',
  'reblog',
  'follow',
  'follow_request',
  'favourite',
  'poll',
  'update',
  'quoted_update',
  'admin.sign_up',
  'admin.report',
] as const;

/** Mastodon's WebPushSubscription (with `policy`, as Mastodon's serializer has it). */
export function toWebPushSubscription(row: AppSubscription, serverKey: string) {
  return {
    id: String(row.id),
    endpoint: row.endpoint,
    standard: row.standard,
    alerts: Object.fromEntries(MASTODON_ALERTS.map((name) => [name, row.alerts?.[name] === true])),
    policy: row.policy,
    server_key: serverKey,
  };
}
