import { z } from 'zod';
import { idSchema, page } from './common.ts';
import { post } from './posts.ts';
import { userSummary } from './users.ts';

export const NOTIFICATION_TYPES = ['like', 'reply', 'follow', 'mention'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const notification = z.object({
  id: idSchema,
  type: z.enum(NOTIFICATION_TYPES),
  createdAt: z.string(),
  read: z.boolean(),
  actor: userSummary,
  /** The liked post, the reply, or the post that mentions me; null for follows or a deleted post. */
  post: post.nullable(),
});
export type Notification = z.infer<typeof notification>;

/** GET /api/notifications: newest first. */
export const notificationPage = page(notification);
