import type { NotificationType } from '@pipit/contract';
import { and, desc, eq, inArray, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { bigintArray, type Executor, executeRows } from '../../db/client.ts';
import { notifications, posts, users } from '../../db/schema.ts';
import { afterCursor, type Cursor, cursorTime } from '../../lib/cursor.ts';
import { type PostRow, postViewColumns } from '../posts/posts.repository.ts';
import { postHiddenFrom, postWords, userHiddenFrom, wordMutedBy } from '../safety/visibility.ts';

export interface NewNotification {
  userId: number;
  actorId: number;
  type: NotificationType;
  postId: number | null;
}

/**
 * Inserts in one statement; the unique key (user, actor, type, post) makes a repeat a no-op.
 * Answers the rows really written.
 */
export async function insertNotifications(
  db: Executor,
  rows: NewNotification[],
): Promise<(NewNotification & { id: number })[]> {
  if (rows.length === 0) return [];
  const written = await db.insert(notifications).values(rows).onConflictDoNothing().returning({
    id: notifications.id,
    userId: notifications.userId,
    actorId: notifications.actorId,
    type: notifications.type,
    postId: notifications.postId,
  });
  return written as (NewNotification & { id: number })[];
}

/** Removes the one notification a like or a follow created (answered by the unique key's index). */
export async function deleteNotification(db: Executor, key: NewNotification): Promise<void> {
  await db
    .delete(notifications)
    .where(
      and(
        eq(notifications.userId, key.userId),
        eq(notifications.actorId, key.actorId),
        eq(notifications.type, key.type),
        key.postId === null ? isNull(notifications.postId) : eq(notifications.postId, key.postId),
      ),
    );
}

/** Removes every notification of one kind from `actorIds` to `userId` (requests approved all at once). */
export async function deleteNotificationsFrom(
  db: Executor,
  userId: number,
  type: NotificationType,
  actorIds: number[],
): Promise<void> {
  if (actorIds.length === 0) return;
  await db
    .delete(notifications)
    .where(
      and(eq(notifications.userId, userId), eq(notifications.type, type), inArray(notifications.actorId, actorIds)),
    );
}

const actors = alias(users, 'actor');

/**
 * True when the notification row `n` (its post joined as `post`, null for a follow) is one `userId`
 * sees: not from someone hidden from them, not about a post hidden from them. Written before a mute
 * or a block, a notification is hidden from then on (the notifier writes no new ones). Every list of
 * notifications (this page, the grouped pages, the counts) applies it.
 */
export const shownTo = (userId: number, n: SQL, post: SQL): SQL =>
  sql`(not ${userHiddenFrom(userId, sql`${n}.actor_id`)} and (${n}.post_id is null or not ${postHiddenFrom(userId, post)}))`;

export interface NotificationRow {
  id: number;
  type: string;
  createdAt: Date;
  cursorTime: string;
  readAt: Date | null;
  actorId: number;
  actorName: string;
  actorUsername: string;
  actorProfileImage: string | null;
  actorDomain: string | null;
  /** Null for a follow (and, in principle, a post deleted since; deleting a post cascades). */
  post: PostRow | null;
}

/** A page of someone's notifications, newest first, with the actor and the post (and its author) joined. */
export async function findNotificationPage(
  db: Executor,
  userId: number,
  cursor: Cursor | null,
  limit: number,
): Promise<NotificationRow[]> {
  const rows = await db
    .select({
      id: notifications.id,
      type: notifications.type,
      createdAt: notifications.createdAt,
      cursorTime: cursorTime(notifications.createdAt),
      readAt: notifications.readAt,
      actorId: actors.id,
      actorName: actors.name,
      actorUsername: actors.username,
      actorProfileImage: actors.profileImage,
      actorDomain: actors.domain,
      post: postViewColumns(userId),
    })
    .from(notifications)
    .innerJoin(actors, eq(actors.id, notifications.actorId))
    .leftJoin(posts, eq(posts.id, notifications.postId))
    .leftJoin(users, eq(users.id, posts.authorId))
    .where(
      and(
        eq(notifications.userId, userId),
        shownTo(userId, sql`"notifications"`, sql`"posts"`),
        afterCursor(notifications.createdAt, notifications.id, cursor, 'newest'),
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1);
  return rows.map((row) => ({ ...row, post: row.post.id === null ? null : (row.post as PostRow) }));
}

/** Marks every unread notification read (the partial index on unread rows finds them). */
/** Unread notifications of a person, counted up to `cap` (the partial index on unread ones). */
export async function countUnread(db: Executor, userId: number, cap: number): Promise<number> {
  const unread = db
    .select({ one: sql`1`.as('one') })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .limit(cap)
    .as('unread');
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(unread);
  return row?.count ?? 0;
}

export async function markAllRead(db: Executor, userId: number): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}

/**
 * Of the people who might be told of `actorId`'s action on `postId`, those who would not see it:
 * a block either way, a mute of the actor, or one of their muted words in the actor's post.
 */
export async function findRecipientsHiding(
  db: Executor,
  actorId: number,
  postId: number | null,
  userIds: number[],
): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const list = bigintArray(userIds);
  const byText =
    postId === null
      ? sql`false`
      : sql`exists (select 1 from ${posts} np where np.id = ${postId} and np.author_id <> x.id and ${wordMutedBy(sql`x.id`, postWords(sql`np`))})`;
  const rows = await executeRows<{ id: string }>(
    db,
    sql`select x.id::text as id from unnest(${list}::bigint[]) as x(id)
    where ${userHiddenFrom(sql`x.id`, sql`${actorId}::bigint`)} or ${byText}`,
  );
  return new Set(rows.map((row) => Number(row.id)));
}

/** Takes out every notification between two people, either way (a block). */
export async function deleteNotificationsBetween(db: Executor, a: number, b: number): Promise<void> {
  await db
    .delete(notifications)
    .where(
      sql`(${notifications.userId} = ${a} and ${notifications.actorId} = ${b}) or (${notifications.userId} = ${b} and ${notifications.actorId} = ${a})`,
    );
}

/** Marks read what `actorId` caused `userId` to be told (a mute: the unread dot does not stay lit for them). */
export async function markReadFrom(db: Executor, userId: number, actorIds: number[]): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(eq(notifications.userId, userId), inArray(notifications.actorId, actorIds), isNull(notifications.readAt)),
    );
}

/** Deletes one notification of the person (dismiss); answers whether there was one. */
export async function deleteNotificationOf(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.id, id)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

/** Deletes every notification of the person (clear). */
export async function deleteNotificationsOf(db: Executor, userId: number): Promise<void> {
  await db.delete(notifications).where(eq(notifications.userId, userId));
}

/** Marks read the person's notifications up to `lastReadId` (Mastodon's marker). */
export async function markReadUpTo(db: Executor, userId: number, lastReadId: number): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), lte(notifications.id, lastReadId)));
}

/** The page key (created_at, id) of the notification `id` of `userId`, or null when they have none by that id. */
export async function findNotificationCursor(db: Executor, userId: number, id: number): Promise<Cursor | null> {
  const [row] = await db
    .select({ t: cursorTime(notifications.createdAt) })
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .limit(1);
  return row ? { t: row.t, id } : null;
}

/** The newest notification read (they are read together, in order), and when: a Mastodon app's marker. */
export async function findReadMarker(db: Executor, userId: number): Promise<{ id: number; readAt: Date } | null> {
  const [row] = await db
    .select({ id: notifications.id, readAt: notifications.readAt })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNotNull(notifications.readAt)))
    .orderBy(desc(notifications.id))
    .limit(1);
  return row?.readAt ? { id: row.id, readAt: row.readAt } : null;
}
