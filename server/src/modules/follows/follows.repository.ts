import { and, desc, eq, inArray, type SQLWrapper, sql } from 'drizzle-orm';
import { bigintArray, type Executor, executeRows } from '../../db/client.ts';
import { follows, users } from '../../db/schema.ts';
import { afterCursor, type Cursor, cursorTime } from '../../lib/cursor.ts';
import { visibleUsers } from '../safety/visibility.ts';
import { type UserViewRow, userViewColumns } from '../users/users.repository.ts';

export interface FollowRow extends UserViewRow {
  /** When the follow happened (the page key, with the other person's id). */
  cursorTime: string;
}

/** Adds the follow when the followee exists and the follow does not: true when a row was added. */
export async function insertFollow(db: Executor, followerId: number, followeeId: number): Promise<boolean> {
  const added = await db
    .insert(follows)
    .select(sql`select ${followerId}::bigint, ${users.id}, now() from ${users} where ${users.id} = ${followeeId}`)
    .onConflictDoNothing()
    .returning({ followeeId: follows.followeeId });
  return added.length > 0;
}

/** True when a follow was removed. */
export async function deleteFollow(db: Executor, followerId: number, followeeId: number): Promise<boolean> {
  const removed = await db
    .delete(follows)
    .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)))
    .returning({ followeeId: follows.followeeId });
  return removed.length > 0;
}

/**
 * Both counters in one statement. Two people following each other at the same moment would
 * deadlock if each transaction updated "them, then me"; one UPDATE locks both rows in index order.
 */
export async function addToFollowCounts(
  db: Executor,
  followerId: number,
  followeeId: number,
  delta: number,
): Promise<void> {
  await db
    .update(users)
    .set({
      followersCount: sql`${users.followersCount} + case when ${users.id} = ${followeeId} then ${delta}::int else 0 end`,
      followingCount: sql`${users.followingCount} + case when ${users.id} = ${followerId} then ${delta}::int else 0 end`,
    })
    .where(inArray(users.id, [followerId, followeeId]));
}

/**
 * One page of a follow list, newest follow first, keyed on (follows.created_at, the other person's
 * id): follows_followee_created_idx for followers, follows_follower_created_idx for following.
 */
async function findFollowPage(
  db: Executor,
  viewerId: number | null,
  side: { match: SQLWrapper; other: typeof follows.followerId | typeof follows.followeeId },
  cursor: Cursor | null,
  limit: number,
): Promise<FollowRow[]> {
  return db
    .select({ ...userViewColumns(viewerId), cursorTime: cursorTime(follows.createdAt) })
    .from(follows)
    .innerJoin(users, eq(users.id, side.other))
    .where(and(side.match, afterCursor(follows.createdAt, side.other, cursor, 'newest')))
    .orderBy(desc(follows.createdAt), desc(side.other))
    .limit(limit + 1);
}

export function findFollowersPage(
  db: Executor,
  viewerId: number | null,
  userId: number,
  cursor: Cursor | null,
  limit: number,
) {
  return findFollowPage(
    db,
    viewerId,
    { match: eq(follows.followeeId, userId), other: follows.followerId },
    cursor,
    limit,
  );
}

export function findFollowingPage(
  db: Executor,
  viewerId: number | null,
  userId: number,
  cursor: Cursor | null,
  limit: number,
) {
  return findFollowPage(
    db,
    viewerId,
    { match: eq(follows.followerId, userId), other: follows.followeeId },
    cursor,
    limit,
  );
}

/** Which of `ids` follow `followeeId` (who among the people online sees a new post in Following). */
export async function followerIdsAmong(db: Executor, followeeId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  // One array parameter: the live hub asks this for every member online, thousands at a time.
  const rows = await db
    .select({ id: follows.followerId })
    .from(follows)
    .where(and(eq(follows.followeeId, followeeId), sql`${follows.followerId} = any(${bigintArray(ids)}::bigint[])`));
  return rows.map((r) => r.id);
}

/** Which of `ids` `followerId` follows. */
export async function followeeIdsAmong(db: Executor, followerId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: follows.followeeId })
    .from(follows)
    .where(and(eq(follows.followerId, followerId), inArray(follows.followeeId, ids)));
  return rows.map((r) => r.id);
}

/** Of `ids`, those who follow `userId`, one probe each of follows' key. */
export async function findFollowersAmong(db: Executor, userId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: follows.followerId })
    .from(follows)
    .where(and(eq(follows.followeeId, userId), inArray(follows.followerId, [...ids])));
  return new Set(rows.map((row) => row.id));
}

/**
 * People `viewerId` follows who follow each of `ids` (Mastodon's familiar followers), newest follow
 * first, at most `perPerson` for each, leaving out whom the viewer may not see: one statement, a
 * lateral read per person asked (follows_followee_created_idx, stopping at `perPerson`) probing the
 * viewer's follows by their key. Answers pairs of ids; the people are read as the viewer sees them.
 */
export async function findFamiliarFollowerIds(
  db: Executor,
  viewerId: number,
  ids: readonly number[],
  perPerson: number,
): Promise<{ of: number; followerId: number }[]> {
  if (ids.length === 0) return [];
  const rows = await executeRows<{ of: string | number; follower_id: string | number }>(
    db,
    sql`select asked.id as of, f.follower_id
      from unnest(${`{${ids.join(',')}}`}::bigint[]) as asked(id)
      cross join lateral (
        select theirs.follower_id, theirs.created_at from ${follows} theirs
        where theirs.followee_id = asked.id
          and exists (select 1 from ${follows} mine where mine.follower_id = ${viewerId} and mine.followee_id = theirs.follower_id)
          and ${visibleUsers(viewerId, sql`theirs.follower_id`)}
        order by theirs.created_at desc
        limit ${perPerson}
      ) f
      order by asked.id, f.created_at desc`,
  );
  return rows.map((row) => ({ of: Number(row.of), followerId: Number(row.follower_id) }));
}

/** Whether `followerId` follows `followeeId` (one probe of follows' key). */
export async function isFollowing(db: Executor, followerId: number, followeeId: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(follows)
    .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)))
    .limit(1);
  return row !== undefined;
}
