import type { ListRepliesPolicy } from '@pipit/contract';
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import { bigintArray, type Database, type Executor, executeRows, preparedOnce } from '../../db/client.ts';
import { follows, listMembers, lists, posts, users } from '../../db/schema.ts';
import { afterCursor, type Cursor, cursorTime } from '../../lib/cursor.ts';
import type { PostRow } from '../posts/posts.repository.ts';
import { postViewColumns } from '../posts/posts.repository.ts';
import { postHiddenFrom, visibleUsers } from '../safety/visibility.ts';
import { firstEntryWhere, newestOfAuthorsIds } from '../timelines/timelines.repository.ts';
import { type UserViewRow, userViewColumns } from '../users/users.repository.ts';

export interface ListRow {
  id: number;
  ownerId: number;
  title: string;
  repliesPolicy: ListRepliesPolicy;
  exclusive: boolean;
  createdAt: Date;
  memberCount: number;
}

const listColumns = {
  id: lists.id,
  ownerId: lists.ownerId,
  title: lists.title,
  repliesPolicy: sql<ListRepliesPolicy>`${lists.repliesPolicy}`,
  exclusive: lists.exclusive,
  createdAt: lists.createdAt,
  // A range of list_members' primary key (at most LIST_LIMITS.members rows).
  memberCount: sql<number>`(select count(*)::int from ${listMembers} mc where mc.list_id = ${lists.id})`,
};

/** The owner's lists, oldest first (lists_owner_id_key). */
export async function findLists(db: Executor, ownerId: number): Promise<ListRow[]> {
  return db.select(listColumns).from(lists).where(eq(lists.ownerId, ownerId)).orderBy(asc(lists.id));
}

/** One list of the owner's; null when there is none or it is someone else's. */
export async function findList(db: Executor, ownerId: number, id: number): Promise<ListRow | null> {
  const [row] = await db
    .select(listColumns)
    .from(lists)
    .where(and(eq(lists.id, id), eq(lists.ownerId, ownerId)));
  return row ?? null;
}

export async function countLists(db: Executor, ownerId: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(lists).where(eq(lists.ownerId, ownerId));
  return row?.n ?? 0;
}

export async function insertList(
  db: Executor,
  ownerId: number,
  values: { title: string; repliesPolicy: ListRepliesPolicy; exclusive: boolean },
): Promise<number> {
  const [row] = await db
    .insert(lists)
    .values({ ownerId, ...values })
    .returning({ id: lists.id });
  return (row as { id: number }).id;
}

/** The list as it was before the change (null: no such list of the owner's). */
export async function updateList(
  db: Executor,
  ownerId: number,
  id: number,
  values: { title?: string; repliesPolicy?: ListRepliesPolicy; exclusive?: boolean },
): Promise<{ exclusive: boolean } | null> {
  const before = await db
    .select({ exclusive: lists.exclusive })
    .from(lists)
    .where(and(eq(lists.id, id), eq(lists.ownerId, ownerId)))
    .for('update');
  if (before.length === 0) return null;
  await db
    .update(lists)
    .set(values)
    .where(and(eq(lists.id, id), eq(lists.ownerId, ownerId)));
  return before[0] ?? null;
}

/** The deleted list (its members go with it), or null. */
export async function deleteList(db: Executor, ownerId: number, id: number): Promise<{ exclusive: boolean } | null> {
  const [row] = await db
    .delete(lists)
    .where(and(eq(lists.id, id), eq(lists.ownerId, ownerId)))
    .returning({ exclusive: lists.exclusive });
  return row ?? null;
}

/**
 * Puts `userId` on the list when the owner follows them (INSERT … SELECT on follows' key: nothing is
 * added otherwise, and the foreign key to follows holds it from then on). 'added', 'already' or
 * 'not-following'.
 */
export async function insertMember(
  db: Executor,
  ownerId: number,
  listId: number,
  userId: number,
): Promise<'added' | 'already' | 'not-following'> {
  const added = await db
    .insert(listMembers)
    .select(
      sql`select ${listId}::bigint, ${ownerId}::bigint, ${follows.followeeId}, now() from ${follows}
        where ${follows.followerId} = ${ownerId} and ${follows.followeeId} = ${userId}`,
    )
    .onConflictDoNothing()
    .returning({ userId: listMembers.userId });
  if (added.length > 0) return 'added';
  return (await isMember(db, listId, userId)) ? 'already' : 'not-following';
}

async function isMember(db: Executor, listId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: listMembers.userId })
    .from(listMembers)
    .where(and(eq(listMembers.listId, listId), eq(listMembers.userId, userId)));
  return row !== undefined;
}

/** True when someone was taken off the list. */
export async function deleteMember(db: Executor, listId: number, userId: number): Promise<boolean> {
  const removed = await db
    .delete(listMembers)
    .where(and(eq(listMembers.listId, listId), eq(listMembers.userId, userId)))
    .returning({ userId: listMembers.userId });
  return removed.length > 0;
}

export async function countMembers(db: Executor, listId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(listMembers)
    .where(eq(listMembers.listId, listId));
  return row?.n ?? 0;
}

export interface MemberRow extends UserViewRow {
  /** When they were added (the page key, with their id). */
  cursorTime: string;
}

/**
 * A page of a list's members, last added first, keyed on (added, user id): a range of the list's
 * primary key (at most LIST_LIMITS.members rows, sorted), each person by theirs.
 */
export async function findMembersPage(
  db: Executor,
  viewerId: number,
  listId: number,
  cursor: Cursor | null,
  limit: number,
): Promise<MemberRow[]> {
  return db
    .select({ ...userViewColumns(viewerId), cursorTime: cursorTime(listMembers.createdAt) })
    .from(listMembers)
    .innerJoin(users, eq(users.id, listMembers.userId))
    .where(
      and(
        eq(listMembers.listId, listId),
        visibleUsers(viewerId, sql`${listMembers.userId}`, 'blocks'),
        afterCursor(listMembers.createdAt, listMembers.userId, cursor, 'newest'),
      ),
    )
    .orderBy(desc(listMembers.createdAt), desc(listMembers.userId))
    .limit(limit + 1);
}

/** The page key of a member (Mastodon's max_id names people): null when they are not on the list. */
export async function findMemberCursor(db: Executor, listId: number, userId: number): Promise<Cursor | null> {
  const [row] = await db
    .select({ t: cursorTime(listMembers.createdAt) })
    .from(listMembers)
    .where(and(eq(listMembers.listId, listId), eq(listMembers.userId, userId)));
  return row ? { t: row.t, id: userId } : null;
}

export interface CandidateRow extends UserViewRow {
  inList: boolean;
}

/**
 * People the owner follows whose username or name starts with `prefix` (any case), or, without one,
 * the latest followed: `limit` of them, each saying whether they are on the list. Walks the owner's
 * follows newest first (follows_follower_created_idx), each person by their primary key.
 */
export async function findCandidates(
  db: Executor,
  ownerId: number,
  listId: number,
  prefix: string,
  limit: number,
): Promise<CandidateRow[]> {
  const pattern = `${prefix.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
  const matches: SQL | undefined =
    prefix === '' ? undefined : sql`(lower(${users.username}) like ${pattern} or lower(${users.name}) like ${pattern})`;
  return db
    .select({
      ...userViewColumns(ownerId),
      inList: sql<boolean>`exists (select 1 from ${listMembers} cm where cm.list_id = ${listId} and cm.user_id = ${users.id})`,
    })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followeeId))
    .where(and(eq(follows.followerId, ownerId), matches, visibleUsers(ownerId, sql`${users.id}`, 'blocks')))
    .orderBy(desc(follows.createdAt), desc(follows.followeeId))
    .limit(limit);
}

/** Of the owner's lists, those `userId` is on, oldest first (list_members_owner_user_idx). */
export async function findListsWith(db: Executor, ownerId: number, userId: number): Promise<ListRow[]> {
  return db
    .select(listColumns)
    .from(lists)
    .where(
      and(
        eq(lists.ownerId, ownerId),
        sql`exists (select 1 from ${listMembers} wm where wm.owner_id = ${ownerId} and wm.user_id = ${userId} and wm.list_id = ${lists.id})`,
      ),
    )
    .orderBy(asc(lists.id));
}

/** A list as the timeline rule needs it: SQL for its id, owner and replies policy (values or columns). */
interface ListTerms {
  id: SQL;
  ownerId: SQL;
  repliesPolicy: SQL;
}

/**
 * True when the list `list` shows the post row `p` (an SQL alias of posts; its author being a member):
 * - replies by its policy: `none` none, `list` to members (a member's thread of their own included),
 *   `followed` to people the owner follows or to the owner; a reply whose parent was deleted is a post;
 * - a repost once, at its first entry (timelines.repository `firstEntryWhere`);
 * - nothing hidden from the owner (modules/safety/visibility.ts).
 * Probes: posts' primary key for the parent, list_members' for its author, follows' key.
 */
export function listShows(list: ListTerms, p: SQL): SQL {
  const member = (author: SQL) =>
    sql`exists (select 1 from ${listMembers} lm where lm.list_id = ${list.id} and lm.user_id = ${author})`;
  const reply = sql`(${p}.parent_id is null
    or (${list.repliesPolicy} = 'list' and exists (
      select 1 from ${posts} rp where rp.id = ${p}.parent_id and ${member(sql`rp.author_id`)}))
    or (${list.repliesPolicy} = 'followed' and exists (
      select 1 from ${posts} rp where rp.id = ${p}.parent_id and (rp.author_id = ${list.ownerId}
        or exists (select 1 from ${follows} rf where rf.follower_id = ${list.ownerId} and rf.followee_id = rp.author_id)))))`;
  return sql`${reply} and ${firstEntryWhere(p, (e) => member(sql`${e}.author_id`))} and not ${postHiddenFrom(list.ownerId, p)}`;
}

/**
 * A page of a list's timeline (`limit + 1` rows after the cursor): the posts and reposts of its
 * members that it shows (listShows), newest first. Read as Home's Following page is (timelines.repository
 * `newestOfAuthorsIds`): each member's newest post on posts_author_created_at_id_idx, then only the
 * members who reach the page. Sent prepared (two statements: with and without a cursor): planning its
 * subqueries cost 11–30 ms where running it costs 2 ms (1M posts, a list of 200; docs/performance.md).
 */
export async function findListPage(
  db: Database,
  list: { id: number; ownerId: number; repliesPolicy: ListRepliesPolicy },
  cursor: Cursor | null,
  limit: number,
): Promise<PostRow[]> {
  const name = cursor ? 'list_page_after' : 'list_page_first';
  const statement = preparedOnce(db, name, () => prepareListPage(db, cursor !== null, name));
  const n = limit + 1;
  const args = { list: list.id, owner: list.ownerId, policy: list.repliesPolicy, n, skip: n - 1 };
  return statement.execute(cursor ? { ...args, t: cursor.t, id: cursor.id } : args);
}

function prepareListPage(db: Database, withCursor: boolean, name: string) {
  const owner = sql.placeholder('owner');
  const terms = {
    id: sql`${sql.placeholder('list')}::bigint`,
    ownerId: sql`${owner}::bigint`,
    repliesPolicy: sql`${sql.placeholder('policy')}::text`,
  };
  const cursor = withCursor ? { t: sql.placeholder('t'), id: sql.placeholder('id') } : null;
  const authors = sql`select lm.user_id as author_id from ${listMembers} lm where lm.list_id = ${terms.id}`;
  const ids = newestOfAuthorsIds(
    authors,
    listShows(terms, sql`p`),
    cursor,
    sql.placeholder('n'),
    sql.placeholder('skip'),
  );
  return db
    .select(postViewColumns(owner))
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(sql`${posts.id} in (${ids})`)
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(sql.placeholder('n'))
    .prepare(name);
}

/**
 * Which lists of which owners show which posts, for the live stream: of the lists of `ownerIds` that
 * the posts' authors are on (list_members_user_idx), those listShows lets the post into. One statement.
 */
export async function findListsShowing(
  db: Executor,
  postIds: readonly number[],
  ownerIds: readonly number[],
): Promise<{ postId: number; ownerId: number; listId: number }[]> {
  if (postIds.length === 0 || ownerIds.length === 0) return [];
  const rows = await executeRows<{ post_id: string; owner_id: string; list_id: string }>(
    db,
    sql`
    select p.id::text as post_id, l.owner_id::text as owner_id, l.id::text as list_id
    from ${posts} p
    join ${listMembers} m on m.user_id = p.author_id
    join ${lists} l on l.id = m.list_id
    where p.id = any(${bigintArray(postIds)}::bigint[]) and m.owner_id = any(${bigintArray(ownerIds)}::bigint[])
      and ${listShows({ id: sql`l.id`, ownerId: sql`l.owner_id`, repliesPolicy: sql`l.replies_policy` }, sql`p`)}`,
  );
  return rows.map((r) => ({ postId: Number(r.post_id), ownerId: Number(r.owner_id), listId: Number(r.list_id) }));
}
