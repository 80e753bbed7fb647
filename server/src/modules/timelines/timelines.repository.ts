import { and, desc, eq, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { followedTags, follows, postHashtags, posts, users } from '../../db/schema.ts';
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
 * Whether the post row `post` (an SQL alias of posts) may join a home through a followed hashtag:
 * only public posts do, never unlisted, followers-only or direct ones (modules/safety/visibility.ts `listed`).
 */
export function joinsHomeByTag(post: SQL): SQL {
  return listed(post);
}

/**
 * True when the post row `post` carries a hashtag that `viewer` follows (post_hashtags_post_id_idx,
 * then followed_tags' primary key per tag of the post).
 */
function hasTagFollowedBy(post: SQL, viewer: SQL): SQL {
  return sql`exists (select 1 from ${postHashtags} th join ${followedTags} tf on tf.tag = th.tag and tf.user_id = ${viewer} where th.post_id = ${post}.id)`;
}

/** True when the post row `post` is by someone neither the viewer nor followed by them (not in their home through its author). */
function notThroughAuthor(post: SQL, viewer: SQL): SQL {
  return sql`(${post}.author_id <> ${viewer}
    and not exists (select 1 from ${follows} tfo where tfo.follower_id = ${viewer} and tfo.followee_id = ${post}.author_id))`;
}

/**
 * A home shows each post once, at its first entry: the post itself when its author is the viewer or
 * someone they follow, or when it joins through a hashtag they follow; else the earliest repost by
 * one of the people they follow. True for the row `entry` (an SQL alias of posts) unless it is a
 * repost that an earlier entry of the viewer's home (`viewer`, an SQL expression) already shows.
 * Probes: posts' primary key, posts_repost_of_created_idx, follows' key; for a reposted post not by
 * someone followed, its hashtags (post_hashtags_post_id_idx) against followed_tags' key.
 */
export function firstEntryOnly(entry: SQL, viewer: SQL): SQL {
  // The members of the viewer's exclusive lists are not in their home (modules/lists).
  const home = sql`(e.author_id = ${viewer} or (exists (select 1 from ${follows} hf where hf.follower_id = ${viewer} and hf.followee_id = e.author_id) and not ${excludedFromHome(viewer, sql`e.author_id`)}))`;
  // Reposts carry no text, so no hashtags: only the reposted post itself can join by a tag.
  const original = sql`(${home} or (${joinsHomeByTag(sql`e`)} and ${hasTagFollowedBy(sql`e`, viewer)}))`;
  return sql`(${entry}.repost_of_id is null or (
    not exists (select 1 from ${posts} e where e.id = ${entry}.repost_of_id and ${original})
    and not exists (
      select 1 from ${posts} e
      where e.repost_of_id = ${entry}.repost_of_id and (e.created_at, e.id) < (${entry}.created_at, ${entry}.id) and ${home}
    )))`;
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
 * Where a home page's posts come from: `home` is the whole of it (the people followed and the viewer,
 * and the public posts of followed hashtags); `people` is what a home feed holds (modules/feeds: the
 * tags' posts are merged when a page is read, never fanned out); `tags` is that merge.
 */
export type HomeSourceKind = 'home' | 'people' | 'tags';

/**
 * The viewer's own posts, those of the people they follow and the public posts of the hashtags they
 * follow (`sources`: all of it, or a part, HomeSourceKind), newest first, in one statement.
 *
 * `author_id IN (followees) ORDER BY created_at DESC LIMIT n` has no good plan at scale: walking
 * posts_created_at_id_idx backwards filters out nearly every row when the followed people post
 * little, and fetching every post of every followee sorts them all. Instead it reads
 * posts_author_created_at_id_idx per followed author (and the viewer), and
 * post_hashtags_tag_created_idx per followed tag, in two steps:
 *
 * 1. `newest`: each source's newest post past the cursor (one index entry each). The n-th newest of
 *    those posts, T, bounds the page from below: n distinct posts are at T or later, so the n newest
 *    posts overall are all at T or later.
 * 2. Only the sources whose newest post is at T or later (about n of them) are read again, for
 *    their posts not older than T, at most n each; the newest n of those are the page.
 *
 * So the cost is one index probe per followed person and tag plus about n more, instead of n entries
 * per source (measured on 1M posts: 2.3 → 1.9 ms following 200 people, 12.8 → 8.4 ms following 1,500;
 * docs/performance.md). A post tagged with two followed tags is one post (the union below).
 */
export async function findFollowingPage(
  db: Database,
  viewerId: number,
  cursor: Cursor | null,
  limit: number,
  sources: HomeSourceKind = 'home',
): Promise<PostRow[]> {
  let prepared = followingPages.get(db);
  if (!prepared) {
    prepared = new Map();
    followingPages.set(db, prepared);
  }
  const name = `following_page_${sources}_${cursor ? 'after' : 'first'}`;
  let statement = prepared.get(name);
  if (!statement) {
    statement = prepareFollowingPage(db, sources, cursor !== null, name);
    prepared.set(name, statement);
  }
  const n = limit + 1;
  const args = { viewer: viewerId, n, skip: n - 1 };
  return cursor ? statement.execute({ ...args, t: cursor.t, id: cursor.id }) : statement.execute(args);
}

/**
 * The page's statement, built once per database and sent prepared (per source kind, with and without
 * a cursor): its many subqueries (the view's images, quote, repost, the home's first-entry rule) cost
 * more to plan than to run, and a prepared statement is planned once.
 */
function prepareFollowingPage(db: Database, sources: HomeSourceKind, withCursor: boolean, name: string) {
  const viewer = sql.placeholder('viewer');
  const cursor = withCursor ? { t: sql.placeholder('t'), id: sql.placeholder('id') } : null;
  const ids = followingPageIds(viewer, cursor, sql.placeholder('n'), sql.placeholder('skip'), sources);
  return db
    .select(postViewColumns(viewer))
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(sql`${posts.id} in (${ids})`)
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(sql.placeholder('n'))
    .prepare(name);
}

const followingPages = new WeakMap<Database, Map<string, ReturnType<typeof prepareFollowingPage>>>();

/** What a home feed holds (the people's part of the page, `people`) as keys only (id and time), for building it (modules/feeds). */
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
    .where(sql`${posts.id} in (${followingPageIds(viewerId, cursor, n, n - 1, 'people')})`)
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(n);
}

export type Value = number | string | Placeholder;

/** The ids of the `n` newest posts of the viewer's home (or part of it) after the cursor (the method above); `skip` is n - 1. */
function followingPageIds(
  viewerId: Value,
  cursor: { t: Value; id: Value } | null,
  n: Value,
  skip: Value,
  sources: HomeSourceKind,
) {
  const viewer = sql`${viewerId}::bigint`;
  const past = cursor ? sql`and (p.created_at, p.id) < (${cursor.t}::timestamptz, ${cursor.id}::bigint)` : sql``;
  const pastTag = cursor
    ? sql`and (ph.created_at, ph.post_id) < (${cursor.t}::timestamptz, ${cursor.id}::bigint)`
    : sql``;
  // Each post once, and none hidden from the viewer (a mute of a followed person, a muted word, a
  // repost of someone blocked): filtered where the posts are read, so the page bound stays exact.
  const once = sql`${firstEntryOnly(sql`p`, viewer)} and not ${postHiddenFrom(viewer, sql`p`)}`;
  // A tag's posts (read from a followed tag's range): public, not by the viewer or someone followed
  // (those come through their author), not hidden. Tagged posts are never reposts, so the first-entry
  // rule has nothing to say of them.
  const byTag = sql`${notThroughAuthor(sql`p`, viewer)} and ${joinsHomeByTag(sql`p`)} and not ${postHiddenFrom(viewer, sql`p`)}`;

  // The people they follow, but for the members of their exclusive lists (modules/lists), and themselves.
  const people = newestOfAuthors(
    sql`select ${follows.followeeId} as author_id from ${follows} where ${follows.followerId} = ${viewerId}
        and not ${excludedFromHome(viewer, follows.followeeId)}
      union all select ${viewer}`,
    once,
    past,
    n,
  );
  const tags = sql`
    tags as (select ${followedTags.tag} as tag from ${followedTags} where ${followedTags.userId} = ${viewerId}),
    newest_tagged as materialized (
      select t.tag, latest.created_at, latest.id from tags t
      cross join lateral (
        select ph.created_at, ph.post_id as id from ${postHashtags} ph join ${posts} p on p.id = ph.post_id
        where ph.tag = t.tag ${pastTag} and ${byTag}
        order by ph.created_at desc, ph.post_id desc
        limit 1
      ) latest
    )`;
  const readTags = sql`
    select f.id, f.created_at from newest_tagged w
    cross join bound
    cross join lateral (
      select ph.post_id as id, ph.created_at from ${postHashtags} ph join ${posts} p on p.id = ph.post_id
      where ph.tag = w.tag ${pastTag} and ph.created_at >= bound.t and ${byTag}
      order by ph.created_at desc, ph.post_id desc
      limit ${n}
    ) f
    where w.created_at >= bound.t`;
  const boundOf = (newest: SQL) => pageBound(newest, skip);
  const newestFirst = (rows: SQL) => newestIdsFirst(rows, n);
  if (sources === 'people') {
    // Distinct authors' posts are distinct posts: no union needed.
    return sql`with ${people.ctes}, ${boundOf(sql`newest`)} ${newestFirst(people.read)}`;
  }
  if (sources === 'tags') {
    // One post may be the newest of two of its tags: counted once (the bound is over distinct posts).
    return sql`with ${tags}, ${boundOf(sql`(select distinct created_at, id from newest_tagged) d`)}
      ${newestFirst(sql`select distinct id, created_at from (${readTags}) t`)}`;
  }
  return sql`with ${people.ctes}, ${tags},
    ${boundOf(sql`(select created_at, id from newest union select created_at, id from newest_tagged) d`)}
    ${newestFirst(sql`${people.read} union ${readTags}`)}`;
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
  const read = newestOfAuthors(authors, shown, past, n);
  return sql`with ${read.ctes}, ${pageBound(sql`newest`, skip)} ${newestIdsFirst(read.read, n)}`;
}

/**
 * The two steps of a page of several authors' posts: the CTEs `authors` (what `authors` selects, a
 * column `author_id`) and `newest` (each author's newest post that passes `shown`, after `past`), and
 * `read`: the posts of the authors whose newest reaches the page, down to `bound.t` (pageBound), `n`
 * at most each — a few index ranges on posts_author_created_at_id_idx instead of every author's posts.
 */
function newestOfAuthors(authors: SQL, shown: SQL, past: SQL, n: Value) {
  const ctes = sql`
    authors as (${authors}),
    newest as materialized (
      select a.author_id, latest.created_at, latest.id from authors a
      cross join lateral (
        select p.created_at, p.id from ${posts} p
        where p.author_id = a.author_id ${past} and ${shown}
        order by p.created_at desc, p.id desc
        limit 1
      ) latest
    )`;
  const read = sql`
    select f.id, f.created_at from newest w
    cross join bound
    cross join lateral (
      select p.id, p.created_at from ${posts} p
      where p.author_id = w.author_id ${past} and p.created_at >= bound.t and ${shown}
      order by p.created_at desc, p.id desc
      limit ${n}
    ) f
    where w.created_at >= bound.t`;
  return { ctes, read };
}

/** The CTE `bound`: the time of the page's last post among `newest` (the n-th newest; `skip` is n - 1). */
function pageBound(newest: SQL, skip: Value): SQL {
  return sql`
    bound as (
      select coalesce(
        (select created_at from ${newest} order by created_at desc, id desc offset ${skip} limit 1),
        '-infinity'::timestamptz
      ) as t
    )`;
}

/** The ids of `rows` (id, created_at), newest first, `n` at most: the one column an `in (…)` takes. */
function newestIdsFirst(rows: SQL, n: Value): SQL {
  return sql`select id from (${rows}) r order by created_at desc, id desc limit ${n}`;
}
