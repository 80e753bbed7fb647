import { and, asc, desc, eq, lte, or, sql } from 'drizzle-orm';
import { bigintArray, type Executor, executeRows } from '../../db/client.ts';
import { blocks, follows, mutedWords, mutes, posts, users } from '../../db/schema.ts';
import { afterCursor, type Cursor, cursorTime } from '../../lib/cursor.ts';
import { type UserViewRow, userViewColumns } from '../users/users.repository.ts';
import { blockedEitherWay, postHiddenFrom, userSuspended, visiblePosts } from './visibility.ts';

/** Of `readers`, those the post `postId` is hidden from (the live stream's recipients), in one statement. */
export async function readersHiding(db: Executor, postId: number, readers: number[]): Promise<number[]> {
  if (readers.length === 0) return [];
  const rows = await executeRows<{ id: string }>(
    db,
    sql`select x.id::text as id from unnest(${bigintArray(readers)}::bigint[]) as x(id), ${posts} p
    where p.id = ${postId} and ${postHiddenFrom(sql`x.id`, sql`p`)}`,
  );
  return rows.map((row) => Number(row.id));
}

/**
 * Whether the post is hidden from `viewerId` as a post page shows it (`blocks`: a mute hides nothing
 * one opens oneself), or does not exist: what an action on it (reply, quote, like, repost) checks.
 */
export async function isPostHiddenFrom(db: Executor, viewerId: number, postId: number): Promise<boolean> {
  const rows = await executeRows<{ id: string }>(
    db,
    sql`select p.id::text as id from ${posts} p where p.id = ${postId} and not ${postHiddenFrom(viewerId, sql`p`, 'blocks')}`,
  );
  return rows.length === 0;
}

/**
 * Of `postIds`, those hidden from `viewerId` — or, null, from visitors (outside a visitor's audience,
 * or a suspended person's) — in one statement: a reconnect's replay, quotes and polls on the live stream.
 */
export async function postsHiddenFrom(db: Executor, viewerId: number | null, postIds: number[]): Promise<number[]> {
  if (postIds.length === 0) return [];
  const hidden =
    viewerId === null
      ? sql`not ${visiblePosts(null, 'all', sql`p`)}`
      : postHiddenFrom(sql`${viewerId}::bigint`, sql`p`);
  const rows = await executeRows<{ id: string }>(
    db,
    sql`select p.id::text as id from ${posts} p where p.id = any(${bigintArray(postIds)}::bigint[]) and ${hidden}`,
  );
  return rows.map((row) => Number(row.id));
}

/** Adds the block when the person exists and it does not: true when a row was added. */
export async function insertBlock(db: Executor, blockerId: number, blockedId: number): Promise<boolean> {
  const added = await db
    .insert(blocks)
    .select(sql`select ${blockerId}::bigint, ${users.id}, now() from ${users} where ${users.id} = ${blockedId}`)
    .onConflictDoNothing()
    .returning({ blockedId: blocks.blockedId });
  return added.length > 0;
}

export async function deleteBlock(db: Executor, blockerId: number, blockedId: number): Promise<boolean> {
  const removed = await db
    .delete(blocks)
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)))
    .returning({ blockedId: blocks.blockedId });
  return removed.length > 0;
}

/**
 * Serializes a block and a follow between the same two people (an advisory lock on the pair, held to
 * the end of the transaction): a follow that checked "no block" cannot commit after the block removed
 * the follows.
 */
export async function lockPair(db: Executor, a: number, b: number): Promise<void> {
  const pair = `pair:${Math.min(a, b)}:${Math.max(a, b)}`;
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${pair}, 0))`);
}

/**
 * True when `b` is out of `a`'s reach: a block between them (either way), or `b` is suspended. What
 * a follow (403), a reply, quote, like, repost or bookmark (404) checks first.
 */
export async function isOutOfReach(db: Executor, a: number, b: number): Promise<boolean> {
  const [row] = await executeRows<{ out: boolean }>(
    db,
    sql`select (${blockedEitherWay(a, b)} or ${userSuspended(b)}) as out`,
  );
  return row?.out === true;
}

/** The follows between two people, either way, removed: [follower, followee] of each one that was there. */
export async function deleteFollowsBetween(db: Executor, a: number, b: number): Promise<Array<[number, number]>> {
  const removed = await db
    .delete(follows)
    .where(
      or(
        and(eq(follows.followerId, a), eq(follows.followeeId, b)),
        and(eq(follows.followerId, b), eq(follows.followeeId, a)),
      ),
    )
    .returning({ followerId: follows.followerId, followeeId: follows.followeeId });
  return removed.map((row) => [row.followerId, row.followeeId]);
}

/** Mutes (or re-mutes, with the new end) when the person exists. True when the person exists. */
export async function upsertMute(
  db: Executor,
  muterId: number,
  mutedId: number,
  expiresAt: Date | null,
): Promise<boolean> {
  const written = await db
    .insert(mutes)
    .select(
      sql`select ${muterId}::bigint, ${users.id}, ${expiresAt?.toISOString() ?? null}::timestamptz, now() from ${users} where ${users.id} = ${mutedId}`,
    )
    .onConflictDoUpdate({ target: [mutes.muterId, mutes.mutedId], set: { expiresAt: sql`excluded.expires_at` } })
    .returning({ mutedId: mutes.mutedId });
  return written.length > 0;
}

export async function deleteMute(db: Executor, muterId: number, mutedId: number): Promise<boolean> {
  const removed = await db
    .delete(mutes)
    .where(and(eq(mutes.muterId, muterId), eq(mutes.mutedId, mutedId)))
    .returning({ mutedId: mutes.mutedId });
  return removed.length > 0;
}

/** Mutes that ran out: removed, answering whose they were (their home feeds show those people again). */
export async function deleteExpiredMutes(db: Executor, limit: number): Promise<{ removed: number; muters: number[] }> {
  const removed = await db
    .delete(mutes)
    .where(
      sql`(${mutes.muterId}, ${mutes.mutedId}) in (select muter_id, muted_id from ${mutes} where ${lte(mutes.expiresAt, sql`now()`)} limit ${limit})`,
    )
    .returning({ muterId: mutes.muterId });
  return { removed: removed.length, muters: [...new Set(removed.map((row) => row.muterId))] };
}

export interface BlockedRow extends UserViewRow {
  cursorTime: string;
}

/** The people a member blocked, newest block first (blocks_blocker_created_idx). */
export async function findBlockedPage(
  db: Executor,
  userId: number,
  cursor: Cursor | null,
  limit: number,
): Promise<BlockedRow[]> {
  return db
    .select({ ...userViewColumns(userId), cursorTime: cursorTime(blocks.createdAt) })
    .from(blocks)
    .innerJoin(users, eq(users.id, blocks.blockedId))
    .where(and(eq(blocks.blockerId, userId), afterCursor(blocks.createdAt, blocks.blockedId, cursor, 'newest')))
    .orderBy(desc(blocks.createdAt), desc(blocks.blockedId))
    .limit(limit + 1);
}

export interface MutedRow extends BlockedRow {
  mutedUntil: Date | null;
}

/** The people a member muted (mutes that ran out left out), newest mute first (mutes_muter_created_idx). */
export async function findMutedPage(
  db: Executor,
  userId: number,
  cursor: Cursor | null,
  limit: number,
): Promise<MutedRow[]> {
  return db
    .select({ ...userViewColumns(userId), cursorTime: cursorTime(mutes.createdAt), mutedUntil: mutes.expiresAt })
    .from(mutes)
    .innerJoin(users, eq(users.id, mutes.mutedId))
    .where(
      and(
        eq(mutes.muterId, userId),
        sql`(${mutes.expiresAt} is null or ${mutes.expiresAt} > now())`,
        afterCursor(mutes.createdAt, mutes.mutedId, cursor, 'newest'),
      ),
    )
    .orderBy(desc(mutes.createdAt), desc(mutes.mutedId))
    .limit(limit + 1);
}

const mutedWordColumns = { id: mutedWords.id, phrase: mutedWords.phrase, createdAt: mutedWords.createdAt };

export async function findMutedWords(db: Executor, userId: number) {
  return db
    .select(mutedWordColumns)
    .from(mutedWords)
    .where(eq(mutedWords.userId, userId))
    .orderBy(desc(mutedWords.createdAt), desc(mutedWords.id));
}

export async function countMutedWords(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mutedWords)
    .where(eq(mutedWords.userId, userId));
  return row?.n ?? 0;
}

/** Adds the phrase unless its pattern is there already; answers the row either way. */
export async function insertMutedWord(db: Executor, userId: number, phrase: string, pattern: string) {
  const [added] = await db
    .insert(mutedWords)
    .values({ userId, phrase, pattern })
    .onConflictDoNothing()
    .returning(mutedWordColumns);
  if (added) return added;
  const [existing] = await db
    .select(mutedWordColumns)
    .from(mutedWords)
    .where(and(eq(mutedWords.userId, userId), eq(mutedWords.pattern, pattern)))
    .orderBy(asc(mutedWords.id))
    .limit(1);
  return existing!;
}

export async function deleteMutedWord(db: Executor, userId: number, id: number): Promise<boolean> {
  const removed = await db
    .delete(mutedWords)
    .where(and(eq(mutedWords.id, id), eq(mutedWords.userId, userId)))
    .returning({ id: mutedWords.id });
  return removed.length > 0;
}
