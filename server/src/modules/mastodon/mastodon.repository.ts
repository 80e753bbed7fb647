import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { follows, likes, notifications, posts, users } from '../../db/schema.ts';
import { type Cursor, cursorTime } from '../../lib/cursor.ts';
import { userColumns } from '../users/users.pack.ts';

/** People by id, as Mastodon's Account needs them (counts included), in one statement. */
export async function findAccountRows(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return db.select(userColumns).from(users).where(inArray(users.id, ids));
}

/**
 * The page cursor that continues after the timeline entry `id` (Mastodon's max_id): its own key
 * (created_at, id). Null when there is no such entry.
 */
export async function cursorAfterEntry(db: Executor, id: number): Promise<Cursor | null> {
  const [row] = await db
    .select({ t: cursorTime(posts.createdAt) })
    .from(posts)
    .where(eq(posts.id, id))
    .limit(1);
  return row ? { t: row.t, id } : null;
}

/** Of `ids`, those who follow `userId` (Mastodon's followed_by), one probe each of follows' key. */
export async function followersAmong(db: Executor, userId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: follows.followerId })
    .from(follows)
    .where(and(eq(follows.followeeId, userId), inArray(follows.followerId, ids)));
  return new Set(rows.map((row) => row.id));
}

/** The page cursor that continues after the notification `id` of `userId` (Mastodon's max_id). */
export async function cursorAfterNotification(db: Executor, userId: number, id: number): Promise<Cursor | null> {
  const [row] = await db
    .select({ t: cursorTime(notifications.createdAt) })
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .limit(1);
  return row ? { t: row.t, id } : null;
}

/** The notifications marker: the newest notification read (Pipit marks them read together), and when. */
export async function findNotificationsMarker(db: Executor, userId: number) {
  const [row] = await db
    .select({ id: notifications.id, readAt: notifications.readAt })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNotNull(notifications.readAt)))
    .orderBy(desc(notifications.id))
    .limit(1);
  return row ?? null;
}

/**
 * Likes, newest first, at most `limit`: who liked a post (`{ post }`, likes_post_id_idx), or which posts a
 * person liked (`{ user }`, the likes key). Answers the other side's ids.
 */
export async function findLikes(
  db: Executor,
  of: { post: number } | { user: number },
  limit: number,
): Promise<number[]> {
  const byPost = 'post' in of;
  const rows = await db
    .select({ id: byPost ? likes.userId : likes.postId })
    .from(likes)
    .where(byPost ? eq(likes.postId, of.post) : eq(likes.userId, of.user))
    .orderBy(desc(likes.createdAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Who reposted a post, newest first (posts_author_repost_key's twin, posts_repost_of_created_idx), at most `limit`. */
export async function findReposterIds(db: Executor, postId: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: posts.authorId })
    .from(posts)
    .where(eq(posts.repostOfId, postId))
    .orderBy(desc(posts.createdAt))
    .limit(limit);
  return rows.map((row) => row.id);
}
