import { and, desc, eq, inArray, type SQLWrapper, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
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
  const rows = await db
    .select({ id: follows.followerId })
    .from(follows)
    .where(and(eq(follows.followeeId, followeeId), inArray(follows.followerId, ids)));
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
 * People `viewerId` follows who follow each of `ids` (Mastodon's familiar followers), as the viewer
 * sees them: one statement, at most `perPerson` for each (follows' keys, both ways).
 */
export async function findFamiliarFollowers(
  db: Executor,
  viewerId: number,
  ids: readonly number[],
  perPerson: number,
): Promise<{ of: number; row: UserViewRow }[]> {
  if (ids.length === 0) return [];
  const mine = alias(follows, 'mine');
  const theirs = alias(follows, 'theirs');
  const rows = await db
    .select({
      of: theirs.followeeId,
      rank: sql<number>`row_number() over (partition by ${theirs.followeeId} order by ${theirs.createdAt} desc)`.mapWith(
        Number,
      ),
      ...userViewColumns(viewerId),
    })
    .from(mine)
    .innerJoin(theirs, eq(theirs.followerId, mine.followeeId))
    .innerJoin(users, eq(users.id, mine.followeeId))
    .where(
      and(
        eq(mine.followerId, viewerId),
        inArray(theirs.followeeId, [...ids]),
        visibleUsers(viewerId, sql`"users"."id"`),
      ),
    );
  return rows.filter((r) => r.rank <= perPerson).map(({ of, rank: _rank, ...row }) => ({ of, row }));
}
