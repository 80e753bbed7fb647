import { and, desc, eq, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { follows, posts, users } from '../../db/schema.ts';
import { type Cursor, cursorTime } from '../../lib/cursor.ts';
import { excludedFromHome } from '../lists/lists.home.ts';
import { findPostPage, type PostRow, postViewColumns } from '../posts/posts.repository.ts';
import { listed, postHiddenFrom } from '../safety/visibility.ts';

/**
 * Every public post (reposts are not posts of their own here), newest first: a backward range scan of
 * posts_created_at_id_idx.
 */
export function findEveryonePage(db: Executor, viewerId: number | null, cursor: Cursor | null, limit: number) {
  return findPostPage(db, viewerId, and(isNull(posts.repostOfId), listed(sql`"posts"`)), cursor, 'newest', limit);
}

/**
 * A home shows each post once, at its first entry: the post itself when its author is the viewer or
 * someone they follow, else the earliest repost by one of them. True for the row `entry` (an SQL
 * alias of posts) unless it is a repost that an earlier entry of the viewer's home (`viewer`, an SQL
 * expression) already shows. Probes: posts' primary key, posts_repost_of_created_idx, follows' key.
 * The members of the viewer's exclusive lists are not in their home (modules/lists).
 */
export function firstEntryOnly(entry: SQL, viewer: SQL): SQL {
  return firstEntryWhere(
    entry,
    (e) =>
      sql`(${e}.author_id = ${viewer} or (exists (select 1 from ${follows} hf where hf.follower_id = ${viewer} and hf.followee_id = ${e}.author_id) and not ${excludedFromHome(viewer, sql`${e}.author_id`)}))`,
  );
}

/**
 * The same rule for any timeline whose entries are the posts (and reposts) of the authors `inFeed`
 * holds for (`e`: an alias of posts): a repost shows unless the reposted post, or an earlier repost
 * of it, is already an entry of that timeline (a list's: modules/lists).
 */
export function firstEntryWhere(entry: SQL, inFeed: (e: SQL) => SQL): SQL {
  const e = sql`e`;
  return sql`(${entry}.repost_of_id is null or (
    not exists (select 1 from ${posts} e where e.id = ${entry}.repost_of_id and ${inFeed(e)})
    and not exists (
      select 1 from ${posts} e
      where e.repost_of_id = ${entry}.repost_of_id and (e.created_at, e.id) < (${entry}.created_at, ${entry}.id) and ${inFeed(e)}
    )))`;
}

/**
 * The viewer's own posts and those of the people they follow, newest first, in one statement.
 *
 * `author_id IN (followees) ORDER BY created_at DESC LIMIT n` has no good plan at scale: walking
 * posts_created_at_id_idx backwards filters out nearly every row when the followed people post
 * little, and fetching every post of every followee sorts them all. Instead it reads
 * posts_author_created_at_id_idx per followed author (and the viewer), in two steps:
 *
 * 1. `newest`: each author's newest post past the cursor (one index entry each). The n-th newest of
 *    those times, T, bounds the page from below: n authors have a post at T or later, so the n
 *    newest posts overall are all at T or later.
 * 2. Only the authors whose newest post is at T or later (about n of them) are read again, for
 *    their posts not older than T, at most n each; the newest n of those are the page.
 *
 * So the cost is one index probe per followed person plus about n more, instead of n entries per
 * followed person (measured on 1M posts: 2.3 → 1.9 ms following 200 people, 12.8 → 8.4 ms
 * following 1,500; docs/performance.md).
 */
export async function findFollowingPage(
  db: Database,
  viewerId: number,
  cursor: Cursor | null,
  limit: number,
): Promise<PostRow[]> {
  let prepared = followingPages.get(db);
  if (!prepared) {
    prepared = { first: prepareFollowingPage(db, false), after: prepareFollowingPage(db, true) };
    followingPages.set(db, prepared);
  }
  const n = limit + 1;
  const args = { viewer: viewerId, n, skip: n - 1 };
  return cursor ? prepared.after.execute({ ...args, t: cursor.t, id: cursor.id }) : prepared.first.execute(args);
}

/**
 * The page's statement, built once per database and sent prepared (two: with and without a cursor):
 * its many subqueries (the view's images, quote, repost, the home's first-entry rule) cost more to
 * plan than to run, and a prepared statement is planned once.
 */
function prepareFollowingPage(db: Database, withCursor: boolean) {
  const viewer = sql.placeholder('viewer');
  const cursor = withCursor ? { t: sql.placeholder('t'), id: sql.placeholder('id') } : null;
  return db
    .select(postViewColumns(viewer))
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(sql`${posts.id} in (${followingPageIds(viewer, cursor, sql.placeholder('n'), sql.placeholder('skip'))})`)
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(sql.placeholder('n'))
    .prepare(withCursor ? 'following_page_after' : 'following_page_first');
}

const followingPages = new WeakMap<Database, Record<'first' | 'after', ReturnType<typeof prepareFollowingPage>>>();

/** The same page as keys only (id and time), for building a home feed (modules/feeds). */
export async function findFollowingKeys(
  db: Executor,
  viewerId: number,
  cursor: Cursor | null,
  limit: number,
): Promise<{ id: number; cursorTime: string }[]> {
  const n = limit + 1;
  return db
    .select({ id: posts.id, cursorTime: cursorTime(posts.createdAt) })
    .from(posts)
    .where(sql`${posts.id} in (${followingPageIds(viewerId, cursor, n, n - 1)})`)
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(n);
}

export type Value = number | string | Placeholder;

/** The ids of the `n` newest posts of the viewer's home after the cursor (the method above); `skip` is n - 1. */
function followingPageIds(viewerId: Value, cursor: { t: Value; id: Value } | null, n: Value, skip: Value) {
  // Each post once, and none hidden from the viewer (a mute of a followed person, a muted word, a
  // repost of someone blocked): filtered where the posts are read, so the page bound stays exact.
  const once = sql`${firstEntryOnly(sql`p`, sql`${viewerId}::bigint`)} and not ${postHiddenFrom(sql`${viewerId}::bigint`, sql`p`)}`;
  // The people they follow, but for the members of their exclusive lists (modules/lists), and themselves.
  const authors = sql`select ${follows.followeeId} as author_id from ${follows} where ${follows.followerId} = ${viewerId}
      and not ${excludedFromHome(sql`${viewerId}::bigint`, follows.followeeId)}
      union all select ${viewerId}::bigint`;
  return newestOfAuthorsIds(authors, once, cursor, n, skip);
}

/**
 * The ids of the `n` newest posts (newest first, after the cursor) by the authors `authors` selects
 * (a column `author_id`) that pass `shown` (an SQL condition on the alias `p` of posts), read as
 * findFollowingPage explains: each author's newest post first, then only the authors that reach the
 * page, on posts_author_created_at_id_idx. `skip` is n - 1. Home and a list's timeline (modules/lists).
 */
export function newestOfAuthorsIds(
  authors: SQL,
  shown: SQL,
  cursor: { t: Value; id: Value } | null,
  n: Value,
  skip: Value,
): SQL {
  const past = cursor ? sql`and (p.created_at, p.id) < (${cursor.t}::timestamptz, ${cursor.id}::bigint)` : sql``;
  return sql`
    with authors as (${authors}),
    newest as materialized (
      select a.author_id, latest.created_at from authors a
      cross join lateral (
        select p.created_at from ${posts} p
        where p.author_id = a.author_id ${past} and ${shown}
        order by p.created_at desc, p.id desc
        limit 1
      ) latest
    ),
    bound as (
      select coalesce(
        (select created_at from newest order by created_at desc offset ${skip} limit 1),
        '-infinity'::timestamptz
      ) as t
    )
    select f.id from newest w
    cross join bound
    cross join lateral (
      select p.id, p.created_at from ${posts} p
      where p.author_id = w.author_id ${past} and p.created_at >= bound.t and ${shown}
      order by p.created_at desc, p.id desc
      limit ${n}
    ) f
    where w.created_at >= bound.t
    order by f.created_at desc, f.id desc
    limit ${n}`;
}
