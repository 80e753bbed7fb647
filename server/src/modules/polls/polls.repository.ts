import type { PollInput } from '@pipit/contract';
import { and, asc, eq, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { type Executor, executeRows } from '../../db/client.ts';
import { pollOptions, polls, pollVotes, posts } from '../../db/schema.ts';

/** A post's poll as the post view's subquery selects it: the same for every viewer (posts.cache.ts shares it). */
export interface PollJson {
  expiresAt: string;
  multiple: boolean;
  hideTotals: boolean;
  votersCount: number;
  votesCount: number;
  options: { title: string; votesCount: number }[];
}

/** The viewer's own of a poll: the options they chose, and whether it is theirs (its author sees hidden counts). */
export interface PollMineJson {
  ownVotes: number[];
  isAuthor: boolean;
}

/** The poll of the post `postId` (an SQL expression) as JSON, or null: one probe of polls' key (most posts have none). */
export function pollJson(postId: SQL) {
  return sql<
    PollJson | string | null
  >`(select json_build_object('expiresAt', pl.expires_at, 'multiple', pl.multiple, 'hideTotals', pl.hide_totals, 'votersCount', pl.voters_count, 'votesCount', pl.votes_count, 'options', (select json_agg(json_build_object('title', o.title, 'votesCount', o.votes_count) order by o.position) from ${pollOptions} o where o.post_id = pl.post_id)) from ${polls} pl where pl.post_id = ${postId})`;
}

/**
 * The viewer's own of the poll of `postId` (an SQL expression), or null (no poll, or a visitor): one
 * probe of polls' key, and for a poll one of poll_votes' key.
 */
export function pollMineJson(viewerId: number | Placeholder | null, postId: SQL) {
  if (viewerId === null) return sql<PollMineJson | string | null>`null::json`;
  return sql<
    PollMineJson | string | null
  >`(select json_build_object('ownVotes', coalesce((select json_agg(v.position order by v.position) from ${pollVotes} v where v.post_id = pl.post_id and v.user_id = ${viewerId}), '[]'::json), 'isAuthor', pp.author_id = ${viewerId}) from ${polls} pl join ${posts} pp on pp.id = pl.post_id where pl.post_id = ${postId})`;
}

/** Writes a post's poll (its options in order), open `input.expiresIn` seconds from now on the database's clock. */
export async function insertPoll(db: Executor, postId: number, input: PollInput): Promise<Date> {
  const [row] = await db
    .insert(polls)
    .values({
      postId,
      expiresAt: sql`now() + make_interval(secs => ${input.expiresIn})`,
      multiple: input.multiple,
      hideTotals: input.hideTotals,
    })
    .returning({ expiresAt: polls.expiresAt });
  await db.insert(pollOptions).values(input.options.map((title, position) => ({ postId, position, title })));
  return row!.expiresAt;
}

/** A post's poll as it stands (its options' titles in order), or null. */
export async function findPoll(
  db: Executor,
  postId: number,
  { lock = false } = {},
): Promise<{
  expiresAt: Date;
  expired: boolean;
  multiple: boolean;
  hideTotals: boolean;
  options: string[];
  authorId: number;
} | null> {
  const [row] = await executeRows<{
    expires_at: string | Date;
    expired: boolean;
    multiple: boolean;
    hide_totals: boolean;
    author_id: string;
  }>(
    db,
    sql`select pl.expires_at, pl.expires_at <= now() as expired, pl.multiple, pl.hide_totals, p.author_id::text as author_id
        from ${polls} pl join ${posts} p on p.id = pl.post_id where pl.post_id = ${postId}
        ${lock ? sql`for update of pl` : sql``}`,
  );
  if (!row) return null;
  const options = await db
    .select({ title: pollOptions.title })
    .from(pollOptions)
    .where(eq(pollOptions.postId, postId))
    .orderBy(asc(pollOptions.position));
  return {
    expiresAt: new Date(row.expires_at),
    expired: row.expired,
    multiple: row.multiple,
    hideTotals: row.hide_totals,
    options: options.map((o) => o.title),
    authorId: Number(row.author_id),
  };
}

export async function hasVoted(db: Executor, postId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(pollVotes)
    .where(and(eq(pollVotes.postId, postId), eq(pollVotes.userId, userId)))
    .limit(1);
  return row !== undefined;
}

/** Records one person's vote and counts it (the caller holds the poll's lock: `findPoll(…, {lock: true})`). */
export async function insertVote(db: Executor, postId: number, userId: number, choices: number[]): Promise<void> {
  await db.insert(pollVotes).values(choices.map((position) => ({ postId, userId, position })));
  await db
    .update(pollOptions)
    .set({ votesCount: sql`${pollOptions.votesCount} + 1` })
    .where(and(eq(pollOptions.postId, postId), inArray(pollOptions.position, choices)));
  await db
    .update(polls)
    .set({ votersCount: sql`${polls.votersCount} + 1`, votesCount: sql`${polls.votesCount} + ${choices.length}` })
    .where(eq(polls.postId, postId));
}

/** The options someone chose in a poll (positions), none when they have not voted. */
export async function chosenBy(db: Executor, postId: number, userId: number): Promise<number[]> {
  const rows = await db
    .select({ position: pollVotes.position })
    .from(pollVotes)
    .where(and(eq(pollVotes.postId, postId), eq(pollVotes.userId, userId)));
  return rows.map((row) => row.position);
}

/** One more option for someone who voted already (a poll of several choices): counted, the voters unchanged. */
export async function addChoice(db: Executor, postId: number, userId: number, position: number): Promise<void> {
  await db.insert(pollVotes).values({ postId, userId, position });
  await db
    .update(pollOptions)
    .set({ votesCount: sql`${pollOptions.votesCount} + 1` })
    .where(and(eq(pollOptions.postId, postId), eq(pollOptions.position, position)));
  await db
    .update(polls)
    .set({ votesCount: sql`${polls.votesCount} + 1` })
    .where(eq(polls.postId, postId));
}

/** Sets a poll's counts (a poll from elsewhere: its server's counts): each option's, in order, and the voters. */
export async function setCounts(db: Executor, postId: number, options: readonly number[], voters: number) {
  for (const [position, votes] of options.entries()) {
    await db
      .update(pollOptions)
      .set({ votesCount: votes })
      .where(and(eq(pollOptions.postId, postId), eq(pollOptions.position, position)));
  }
  await db
    .update(polls)
    .set({ votersCount: voters, votesCount: options.reduce((a, b) => a + b, 0) })
    .where(eq(polls.postId, postId));
}

/** A poll's counts as they stand: voters, votes, and each option's in order. */
export async function findCounts(
  db: Executor,
  postId: number,
): Promise<{ votersCount: number; votesCount: number; options: number[] } | null> {
  const [poll] = await db
    .select({ votersCount: polls.votersCount, votesCount: polls.votesCount })
    .from(polls)
    .where(eq(polls.postId, postId));
  if (!poll) return null;
  const options = await db
    .select({ votesCount: pollOptions.votesCount })
    .from(pollOptions)
    .where(eq(pollOptions.postId, postId))
    .orderBy(asc(pollOptions.position));
  return { ...poll, options: options.map((o) => o.votesCount) };
}

/** Everyone who voted in a poll. */
export async function findVoterIds(db: Executor, postId: number): Promise<number[]> {
  const rows = await db
    .selectDistinct({ userId: pollVotes.userId })
    .from(pollVotes)
    .where(eq(pollVotes.postId, postId));
  return rows.map((row) => row.userId);
}

/** Sets a poll's options, choice and duration again; `reset`: its votes and counts go (its options changed). */
export async function updatePoll(db: Executor, postId: number, input: PollInput, reset: boolean): Promise<Date> {
  if (reset) {
    await db.delete(pollVotes).where(eq(pollVotes.postId, postId));
    await db.delete(pollOptions).where(eq(pollOptions.postId, postId));
    await db.insert(pollOptions).values(input.options.map((title, position) => ({ postId, position, title })));
  }
  const [row] = await db
    .update(polls)
    .set({
      expiresAt: sql`now() + make_interval(secs => ${input.expiresIn})`,
      multiple: input.multiple,
      hideTotals: input.hideTotals,
      ...(reset ? { votersCount: 0, votesCount: 0 } : {}),
    })
    .where(eq(polls.postId, postId))
    .returning({ expiresAt: polls.expiresAt });
  return row!.expiresAt;
}

/** Removes a post's poll with its options and votes; true when there was one. */
export async function deletePoll(db: Executor, postId: number): Promise<boolean> {
  const removed = await db.delete(polls).where(eq(polls.postId, postId)).returning({ postId: polls.postId });
  return removed.length > 0;
}
