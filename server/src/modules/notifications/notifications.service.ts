import { type Notification, UNREAD_COUNT_CAP, type UnreadCount } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { type Cursor, encodeCursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import type { EventBus } from '../../lib/events.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { toNotification } from './notifications.pack.ts';
import * as repo from './notifications.repository.ts';

/**
 * Notifications are written by the actions that cause them (posts.service: like, reply, mention;
 * follows.service: follow) in the same transaction; this service reads them and marks them read.
 */
export class NotificationsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  /** The viewer's notifications, newest first, with the actor and the post. Listing does not mark them read. */
  async list(viewer: SessionUser, page: PageRequest): Promise<Page<Notification>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findNotificationPage(this.db, viewer.userId, cursor, limit),
      toNotification,
    );
  }

  /** The list cursor that continues below the viewer's notification `id` (Mastodon's max_id); null when they have none by that id. */
  async cursorBelow(viewer: SessionUser, id: number): Promise<string | null> {
    const at = await repo.findNotificationCursor(this.db, viewer.userId, id);
    return at ? encodeCursor(at) : null;
  }

  /** One notification of the viewer as the list shows it (null when they have none by that id, or it is hidden). */
  async get(viewer: SessionUser, id: number): Promise<Notification | null> {
    const at = await repo.findNotificationCursor(this.db, viewer.userId, id);
    if (!at) return null;
    // The page that starts with it: a cursor just above it.
    const page = await this.list(viewer, { cursor: encodeCursor({ t: at.t, id: id + 1 }), limit: 1 });
    const found = page.items[0];
    return found?.id === String(id) ? found : null;
  }

  /** The newest notification the viewer has read, and when (a Mastodon app's notifications marker). */
  async readMarker(viewer: SessionUser): Promise<{ id: number; readAt: Date } | null> {
    return repo.findReadMarker(this.db, viewer.userId);
  }

  /** How many of the viewer's notifications are unread, counted up to UNREAD_COUNT_CAP. */
  async unreadCount(viewer: SessionUser): Promise<UnreadCount> {
    return { count: await repo.countUnread(this.db, viewer.userId, UNREAD_COUNT_CAP) };
  }

  /**
   * Marks every notification read: hasNotification on GET /api/current turns false, and the
   * member's other tabs and devices hear of it (`notifications.read`) so their dots clear too.
   */
  async markAllRead(viewer: SessionUser): Promise<void> {
    await repo.markAllRead(this.db, viewer.userId);
    await this.events.publish([{ type: 'notifications.read', userId: viewer.userId }]);
  }

  /** Marks read the viewer's notifications up to `lastReadId` (a Mastodon app's marker); their dots follow. */
  async markReadUpTo(viewer: SessionUser, lastReadId: number): Promise<void> {
    await repo.markReadUpTo(this.db, viewer.userId, lastReadId);
    await this.events.publish([{ type: 'notifications.read', userId: viewer.userId }]);
  }

  /** Deletes every notification of the viewer (a Mastodon app's clear); their dots clear everywhere. */
  async clear(viewer: SessionUser): Promise<void> {
    await repo.deleteNotificationsOf(this.db, viewer.userId);
    await this.events.publish([{ type: 'notifications.read', userId: viewer.userId }]);
  }

  /** Deletes one notification of the viewer (a Mastodon app's dismiss); false when they have none by that id. */
  async dismiss(viewer: SessionUser, id: number): Promise<boolean> {
    if (!(await repo.deleteNotificationOf(this.db, viewer.userId, id))) return false;
    await this.events.publish([{ type: 'notifications.read', userId: viewer.userId }]);
    return true;
  }
}
