import { z } from 'zod';
import { idSchema, page } from './common.ts';
import { post } from './posts.ts';
import { userSummary } from './users.ts';

export const NOTIFICATION_TYPES = [
  'like',
  'reply',
  'follow',
  'mention',
  'quote',
  'repost',
  /** Someone asked to follow a locked account (the owner approves or rejects it on the Follow requests page). */
  'follow_request',
  /** A poll ended: its author and everyone who voted in it are told (the actor is its author). */
  'poll',
  /** A post the person reposted or quoted was edited by its author (Mastodon's `update`). */
  'update',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const notification = z.object({
  id: idSchema,
  type: z.enum(NOTIFICATION_TYPES),
  createdAt: z.string(),
  read: z.boolean(),
  actor: userSummary,
  /** The liked post, the reply, the post that mentions or quotes me, the edited post; null for follows, follow requests or a deleted post. */
  post: post.nullable(),
});
export type Notification = z.infer<typeof notification>;

/** Most unread notifications counted (the title shows "(99+)" past 99). */
export const UNREAD_COUNT_CAP = 100;

/** GET /api/notifications/unread: how many are unread, counted up to UNREAD_COUNT_CAP. */
export const unreadCount = z.object({ count: z.number().int().min(0).max(UNREAD_COUNT_CAP) });
export type UnreadCount = z.infer<typeof unreadCount>;

/** GET /api/notifications: newest first. */
export const notificationPage = page(notification);
