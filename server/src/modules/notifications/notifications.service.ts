import type { Notification } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { type Cursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { toNotification } from './notifications.pack.ts';
import * as repo from './notifications.repository.ts';

/**
 * Notifications are written by the actions that cause them (posts.service: like, reply, mention;
 * follows.service: follow) in the same transaction; this service reads them and marks them read.
 */
export class NotificationsService {
  constructor(private readonly db: Database) {}

  /** The viewer's notifications, newest first, with the actor and the post. Listing does not mark them read. */
  async list(viewer: SessionUser, page: PageRequest): Promise<Page<Notification>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findNotificationPage(this.db, viewer.userId, cursor, limit),
      toNotification,
    );
  }

  /** Marks every notification read: hasNotification on GET /api/current turns false. */
  async markAllRead(viewer: SessionUser): Promise<void> {
    await repo.markAllRead(this.db, viewer.userId);
  }
}
