import { z } from 'zod';

/**
 * Web Push in the web app (Settings, "Notifications on this device"): the browser's subscription is
 * kept for the session that made it, with the kinds of notification it wants pushed.
 */

/** The kinds a member can have pushed to a browser, each a choice in Settings. */
export const PUSH_KINDS = ['reply', 'mention', 'follow', 'like', 'repost'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** The longest push service URL taken (browsers' are some 200 characters). */
export const PUSH_ENDPOINT_MAX = 2048;

/** The browser's PushSubscription as `toJSON()` gives it, and the kinds wanted. */
export const pushSubscriptionBody = z.strictObject({
  endpoint: z.string().min(1, 'The subscription has no endpoint').max(PUSH_ENDPOINT_MAX, 'The endpoint is too long'),
  keys: z.strictObject({
    p256dh: z.string().min(1, 'The subscription has no p256dh key').max(200, 'The p256dh key is too long'),
    auth: z.string().min(1, 'The subscription has no auth secret').max(100, 'The auth secret is too long'),
  }),
  kinds: z.array(z.enum(PUSH_KINDS)).max(PUSH_KINDS.length),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

/** GET /api/push/subscription: the server's VAPID key, and this session's subscription (null without one). */
export const pushState = z.object({
  /** The VAPID public key (base64url): the browser's `applicationServerKey`. */
  vapidPublicKey: z.string(),
  subscription: z
    .object({
      endpoint: z.string(),
      kinds: z.array(z.enum(PUSH_KINDS)),
    })
    .nullable(),
});
export type PushState = z.infer<typeof pushState>;

/**
 * What the server pushes (encrypted for the subscription, RFC 8291), as Mastodon sends it to its web
 * app and apps; `url` is where a click leads (the web app's own). A post's text behind a content
 * warning is never in `body`: the warning is.
 */
export interface PushPayload {
  notification_id: string;
  notification_type: string;
  title: string;
  body: string;
  icon: string;
  preferred_locale: string;
  /** Mastodon apps: the access token the subscription belongs to (which account it is). */
  access_token?: string;
  url?: string;
}
