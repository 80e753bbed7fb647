import { and, desc, eq, inArray, or, type SQLWrapper, sql } from 'drizzle-orm';
import { bigintArray, type Executor, executeRows } from '../../db/client.ts';
import { followRequests, follows, users } from '../../db/schema.ts';
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

export async function followExists(db: Executor, followerId: number, followeeId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: follows.followeeId })
    .from(follows)
    .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)));
  return row !== undefined;
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

/**
 * Orders follows of `userId` with turning their "Approve followers" off (an advisory lock held to the
 * end of the transaction): each follow takes it shared before reading the setting, the unlock takes it
 * exclusive before anything else, so a request cannot be written after the unlock swept what waits
 * (it would wait on an unlocked account for ever). Follows never wait for each other on it, and both
 * sides take it before any row lock, so it adds no deadlock.
 */
export async function lockFollowsOf(db: Executor, userId: number, mode: 'shared' | 'exclusive'): Promise<void> {
  const key = `follows-of:${userId}`;
  await db.execute(
    mode === 'shared'
      ? sql`select pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`
      : sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`,
  );
}

/** Whether `userId` has "Approve followers" on and lives elsewhere; null when nobody has that id. */
export async function followeeOf(db: Executor, userId: number): Promise<{ locked: boolean; remote: boolean } | null> {
  const [row] = await db
    .select({ locked: users.locked, remote: sql<boolean>`${users.domain} is not null` })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/** Whether the person lives on another server (`domain` set). */
export async function isRemote(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ remote: sql<boolean>`${users.domain} is not null` })
    .from(users)
    .where(eq(users.id, userId));
  return row?.remote ?? false;
}

/** Adds the request unless it is there already: true when a row was added. */
export async function insertFollowRequest(db: Executor, requesterId: number, targetId: number): Promise<boolean> {
  const added = await db
    .insert(followRequests)
    .values({ requesterId, targetId })
    .onConflictDoNothing()
    .returning({ targetId: followRequests.targetId });
  return added.length > 0;
}

/** True when a request was removed. */
export async function deleteFollowRequest(db: Executor, requesterId: number, targetId: number): Promise<boolean> {
  const removed = await db
    .delete(followRequests)
    .where(and(eq(followRequests.requesterId, requesterId), eq(followRequests.targetId, targetId)))
    .returning({ targetId: followRequests.targetId });
  return removed.length > 0;
}

/** Every request waiting on `targetId`, removed: the requesters, oldest request first. */
export async function deleteFollowRequestsTo(db: Executor, targetId: number): Promise<number[]> {
  const removed = await db
    .delete(followRequests)
    .where(eq(followRequests.targetId, targetId))
    .returning({ requesterId: followRequests.requesterId, createdAt: followRequests.createdAt });
  return removed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((row) => row.requesterId);
}

/** The requests between two people, either way, removed (a block). */
export async function deleteFollowRequestsBetween(db: Executor, a: number, b: number): Promise<void> {
  await db
    .delete(followRequests)
    .where(
      or(
        and(eq(followRequests.requesterId, a), eq(followRequests.targetId, b)),
        and(eq(followRequests.requesterId, b), eq(followRequests.targetId, a)),
      ),
    );
}

/**
 * Follows of `followeeId` by each of `followerIds` (approving every waiting request at once), with
 * both kinds of counter in one UPDATE: the followee's followers by the number added, each new
 * follower's following by one. Answers the followers really added.
 */
export async function insertFollowsOf(db: Executor, followerIds: number[], followeeId: number): Promise<number[]> {
  if (followerIds.length === 0) return [];
  const added = await db
    .insert(follows)
    .values(followerIds.map((followerId) => ({ followerId, followeeId })))
    .onConflictDoNothing()
    .returning({ followerId: follows.followerId });
  const ids = added.map((row) => row.followerId);
  if (ids.length > 0) {
    await db
      .update(users)
      .set({
        followersCount: sql`${users.followersCount} + case when ${users.id} = ${followeeId} then ${ids.length}::int else 0 end`,
        followingCount: sql`${users.followingCount} + case when ${users.id} = ${followeeId} then 0 else 1 end`,
      })
      .where(inArray(users.id, [followeeId, ...ids]));
  }
  return ids;
}

/**
 * One page of the requests waiting on `targetId`, newest first, keyed on (created_at, requester id)
 * (follow_requests_target_created_idx); requesters hidden from the owner by a block or a suspension
 * left out (a mute hides nothing here: the owner still decides).
 */
export async function findFollowRequestsPage(
  db: Executor,
  targetId: number,
  cursor: Cursor | null,
  limit: number,
): Promise<FollowRow[]> {
  return db
    .select({ ...userViewColumns(targetId), cursorTime: cursorTime(followRequests.createdAt) })
    .from(followRequests)
    .innerJoin(users, eq(users.id, followRequests.requesterId))
    .where(
      and(
        eq(followRequests.targetId, targetId),
        visibleUsers(targetId, sql`${followRequests.requesterId}`, 'blocks'),
        afterCursor(followRequests.createdAt, followRequests.requesterId, cursor, 'newest'),
      ),
    )
    .orderBy(desc(followRequests.createdAt), desc(followRequests.requesterId))
    .limit(limit + 1);
}

/** How many requests wait on `targetId` (those the page would list). */
export async function countFollowRequests(db: Executor, targetId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(followRequests)
    .where(
      and(eq(followRequests.targetId, targetId), visibleUsers(targetId, sql`${followRequests.requesterId}`, 'blocks')),
    );
  return row?.count ?? 0;
}

/** Of `ids`, those who asked to follow `targetId` and wait (Mastodon's requested_by). */
export async function findRequestersAmong(
  db: Executor,
  targetId: number,
  ids: readonly number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: followRequests.requesterId })
    .from(followRequests)
    .where(and(eq(followRequests.targetId, targetId), inArray(followRequests.requesterId, [...ids])));
  return new Set(rows.map((row) => row.id));
}
