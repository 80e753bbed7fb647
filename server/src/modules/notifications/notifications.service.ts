import {
  type Notification,
  type NotificationType,
  type Post,
  UNREAD_COUNT_CAP,
  type UnreadCount,
} from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { type Cursor, encodeCursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import type { EventBus } from '../../lib/events.ts';
import { toPost } from '../posts/posts.pack.ts';
import { findPostViews } from '../posts/posts.repository.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import type { Bound, GroupStats, NotificationFilter } from './notifications.groups.repository.ts';
import * as groups from './notifications.groups.repository.ts';
import { ABOUT_A_POST, type GroupRef, type NotificationGroup, parseGroupKey } from './notifications.groups.ts';
import { toNotification } from './notifications.pack.ts';
import * as repo from './notifications.repository.ts';

/**
 * A group as shown: the notification that stands for it (its kind, its post) and what it holds; a
 * notification alone (no data) is a group of one.
 */
function asGroup(
  key: string,
  row: { id: string; type: NotificationType; postId: string | null; actorId: string; t: string },
  data: GroupStats | undefined,
): NotificationGroup {
  return {
    key,
    type: row.type,
    count: data?.count ?? 1,
    newestId: data?.newestId ?? row.id,
    oldestId: data?.oldestId ?? row.id,
    latestAt: new Date(data?.newestT ?? row.t).toISOString(),
    sampleActorIds: data?.sampleIds ?? [row.actorId],
    postId: ABOUT_A_POST.includes(row.type) ? row.postId : null,
  };
}

/** A page of groups asked for: Mastodon's page keys are notification ids (null: not given). */
export interface GroupPageRequest {
  filter: NotificationFilter;
  /** The kinds that may group (the others each make their own group). */
  grouped: readonly NotificationType[];
  maxId: number | null;
  sinceId: number | null;
  minId: number | null;
  limit: number;
}

export interface GroupPage {
  groups: NotificationGroup[];
  /** The posts the groups are about, as the viewer sees them (each once). */
  posts: Post[];
  /** Whether more groups lie beyond the page in the direction it was read (older; newer for min_id). */
  more: boolean;
  /** The notifications that stand for the page's first and last groups (its Link keys). */
  first: string | null;
  last: string | null;
}

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

  /**
   * The viewer's notifications in groups, newest first (Mastodon's grouped notifications, in the
   * manner of its NotificationGroup.from_notifications): the page is `limit` groups, each stood for
   * by the first of its notifications met (newest first; oldest first above min_id), with what it
   * holds up to the page's top. The statements, whatever the page's size: the walk, the groups' data,
   * the posts, and one for each page key given (max_id; since_id or min_id).
   */
  async groups(viewer: SessionUser, ask: GroupPageRequest): Promise<GroupPage> {
    const empty: GroupPage = { groups: [], posts: [], more: false, first: null, last: null };
    if (ask.filter.types?.length === 0) return empty;
    const keyOf = async (id: number | null) =>
      id === null ? undefined : await groups.notificationKey(this.db, viewer.userId, id);
    const max = await keyOf(ask.maxId);
    if (max === null) return empty; // nothing of theirs at or below it
    const upward = ask.minId !== null;
    const low = await keyOf(upward ? ask.minId : ask.sinceId);
    const upper: Bound | null = max ? { at: max, inclusive: false } : null;
    const lower: Bound | null = low ? { at: low, inclusive: false } : null;
    const walked = await groups.walkGroups(this.db, viewer.userId, ask.filter, ask.grouped, {
      order: upward ? 'oldest' : 'newest',
      start: (upward ? low : max) ?? null,
      end: (upward ? max : low) ?? null,
      limit: ask.limit + 1,
    });
    const more = walked.length > ask.limit;
    const reps = walked.slice(0, ask.limit);
    if (upward) reps.reverse();
    const first = reps[0];
    const last = reps[reps.length - 1];
    if (!first || !last) return empty;
    // The page's range (Mastodon's pagination_range): between its first and last notifications; a last
    // page reaches down to since_id (or the very first), a last page upward up to max_id (or the newest).
    const at = (row: { t: string; id: string }) => ({ t: row.t, id: Number(row.id) });
    const range = more
      ? { upper: { at: at(first), inclusive: true }, lower: { at: at(last), inclusive: true } }
      : upward
        ? { upper, lower: { at: at(last), inclusive: true } }
        : { upper: { at: at(first), inclusive: true }, lower };
    const asked = reps.flatMap((row) => {
      const ref = parseGroupKey(row.groupKey);
      return ref && !('id' in ref) ? [{ key: row.groupKey, ...ref }] : [];
    });
    const stats = await groups.groupStats(this.db, viewer.userId, asked, ask.filter, range);
    const shown = reps.map((row) => asGroup(row.groupKey, row, stats.get(row.groupKey)));
    return { groups: shown, posts: await this.postsOf(viewer, shown), more, first: first.id, last: last.id };
  }

  /** One group by its key, with all it holds (null when the viewer has none of it). */
  async group(viewer: SessionUser, key: string): Promise<{ group: NotificationGroup; posts: Post[] } | null> {
    const ref = parseGroupKey(key);
    if (!ref) return null;
    const [newest] = await groups.findGroupMembers(this.db, viewer.userId, ref, { upper: null, lower: null, limit: 1 });
    if (!newest) return null;
    const filter = { types: null, actorId: null };
    const data =
      'id' in ref
        ? undefined
        : (
            await groups.groupStats(this.db, viewer.userId, [{ key, ...ref }], filter, { upper: null, lower: null })
          ).get(key);
    const group = asGroup(key, newest, data);
    return { group, posts: await this.postsOf(viewer, [group]) };
  }

  /**
   * Who is in a group, newest first: each notification's person, below `maxId` and above `sinceId`
   * (notification ids). Null when the key names no group of the viewer's.
   */
  async groupMembers(
    viewer: SessionUser,
    key: string,
    page: { maxId: number | null; sinceId: number | null; limit: number },
  ): Promise<{ items: { id: string; actorId: string }[]; more: boolean } | null> {
    const ref = parseGroupKey(key);
    if (!ref) return null;
    const keyOf = async (id: number | null) =>
      id === null ? undefined : await groups.notificationKey(this.db, viewer.userId, id);
    const max = await keyOf(page.maxId);
    if (max === null) return { items: [], more: false };
    const low = await keyOf(page.sinceId);
    const found = await groups.findGroupMembers(this.db, viewer.userId, ref, {
      upper: max ? { at: max, inclusive: false } : null,
      lower: low ? { at: low, inclusive: false } : null,
      limit: page.limit + 1,
    });
    if (found.length === 0 && page.maxId === null && page.sinceId === null) return null;
    return { items: found.slice(0, page.limit), more: found.length > page.limit };
  }

  /** Deletes every notification of one of the viewer's groups; false when the key names none. */
  async dismissGroup(viewer: SessionUser, key: string): Promise<boolean> {
    const ref: GroupRef | null = parseGroupKey(key);
    if (!ref || (await groups.deleteGroup(this.db, viewer.userId, ref)) === 0) return false;
    await this.events.publish([{ type: 'notifications.read', userId: viewer.userId }]);
    return true;
  }

  /**
   * How many unread notifications the viewer has that a filter takes, up to `cap` (the read state
   * the web and the marker share); with `grouped`, how many groups they make (Mastodon's v2 count).
   */
  async unreadOf(
    viewer: SessionUser,
    filter: NotificationFilter,
    cap: number,
    grouped: readonly NotificationType[] | null = null,
  ): Promise<number> {
    if (filter.types?.length === 0) return 0;
    if (grouped === null) return groups.countUnreadTaken(this.db, viewer.userId, filter, cap);
    const walked = await groups.walkGroups(this.db, viewer.userId, { ...filter, unreadOnly: true }, grouped, {
      order: 'newest',
      start: null,
      end: null,
      limit: cap,
    });
    return walked.length;
  }

  /** The posts of groups, as the viewer sees them, each once (one statement). */
  private async postsOf(viewer: SessionUser, shown: NotificationGroup[]): Promise<Post[]> {
    const ids = [...new Set(shown.flatMap((g) => (g.postId === null ? [] : [Number(g.postId)])))];
    return (await findPostViews(this.db, viewer.userId, ids, 'all')).map(toPost);
  }
}
