import type { Notification, NotificationType } from '@pipit/contract';
import { toPost } from '../posts/posts.pack.ts';
import { toUserSummary } from '../users/users.pack.ts';
import type { NotificationRow } from './notifications.repository.ts';

export function toNotification(row: NotificationRow): Notification {
  return {
    id: String(row.id),
    type: row.type as NotificationType,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
    actor: toUserSummary({
      id: row.actorId,
      name: row.actorName,
      username: row.actorUsername,
      profileImage: row.actorProfileImage,
      domain: row.actorDomain,
    }),
    post: row.post === null ? null : toPost(row.post),
  };
}
