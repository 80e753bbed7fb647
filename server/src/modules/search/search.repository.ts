import { and, desc, or, type SQL, sql } from 'drizzle-orm';
import { type Database, type Executor, executeRows, preparedOnce } from '../../db/client.ts';
import { postHashtags, posts, users } from '../../db/schema.ts';
import type { Cursor } from '../../lib/cursor.ts';
import { findPostViewsInOrder, type PostRow } from '../posts/posts.repository.ts';
import { listed, postHiddenFrom, visiblePosts, visibleUsers } from '../safety/visibility.ts';
import { type UserViewRow, userViewColumns } from '../users/users.repository.ts';

/** `text LIKE 'prefix%'`, with the prefix's own `%`, `_` and `\` taken literally. */
const startsWith = (column: SQL, prefix: string) =>
  sql`${column} like ${`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;

/**
 * How a search finds its posts: `common` walks the newest posts and checks each against its stored
 * words (`search_vector`) until the page is full — fast when the words are frequent, whatever came
 * last; `rare` takes every match from the GIN index first, then the newest of them — fast when they
 * are few. PostgreSQL's own choice rests on an estimate that, for a word missing from its statistics,
 * is a fixed 0.5 % of the posts: on 10M posts it walked all of them for a word in 5 (14 s).
 */
export type MatchPath = 'common' | 'rare';

/**
 * Posts matching `q` (websearch syntax) newest first, keyed like every post list, by `path`. A query
 * of no words (only punctuation) matches nothing.
 *
 * Two prepared statements: the page's ids (the words, the audience and visibility rules, the order),
 * then their views (posts.repository findPostViewsInOrder). One statement of both took ~5 ms to plan
 * and 0.5 ms to run, planned again at each search: PostgreSQL keeps a custom plan for it, rightly —
 * its generic plan read every match (4 s for a common word on 1M posts). The ids' statement is a third
 * of that planning; the views' is planned once per connection (docs/performance.md).
 */
export async function findPostMatches(
  db: Database,
  viewerId: number | null,
  q: string,
  cursor: Cursor | null,
  limit: number,
  offset = 0,
  path: MatchPath = 'common',
): Promise<PostRow[]> {
  const name = `search_posts_${path}_${viewerId === null ? 'visitor' : 'member'}_${cursor ? 'after' : 'first'}`;
  const statement = preparedOnce(db, name, () => prepareSearch(db, path, viewerId !== null, cursor !== null, name));
  const found = await statement.execute({
    viewer: viewerId ?? 0,
    q,
    t: cursor?.t ?? null,
    id: cursor?.id ?? null,
    n: limit + 1,
    offset,
  });
  return findPostViewsInOrder(
    db,
    viewerId,
    found.map((row) => row.id),
  );
}

function prepareSearch(db: Database, path: MatchPath, member: boolean, withCursor: boolean, name: string) {
  const viewer = sql.placeholder('viewer');
  const q = sql.placeholder('q');
  const matches =
    path === 'rare'
      ? // An array of the matches' ids is read once (an InitPlan: the GIN index), then looked up by key.
        sql`${posts.id} = any(array(select m.id from ${posts} m where m.search_vector @@ websearch_to_tsquery('simple', ${q})))`
      : sql`${posts.searchVector} @@ websearch_to_tsquery('simple', ${q})`;
  const visible = member ? sql`not ${postHiddenFrom(sql`${viewer}::bigint`, sql`"posts"`)}` : visiblePosts(null);
  // Search lists everyone's public posts, and a member's own posts of any visibility.
  const searchable = member
    ? sql`(${listed(sql`"posts"`)} or ${posts.authorId} = ${viewer}::bigint)`
    : listed(sql`"posts"`);
  const after = withCursor
    ? sql`(${posts.createdAt}, ${posts.id}) < (${sql.placeholder('t')}::timestamptz, ${sql.placeholder('id')}::bigint)`
    : undefined;
  return db
    .select({ id: posts.id })
    .from(posts)
    .where(and(matches, searchable, visible, after))
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(sql.placeholder('n'))
    .offset(sql.placeholder('offset'))
    .prepare(name);
}

/**
 * People whose username or name starts with `prefix` (lower-cased): an exact username first, then
 * the most followed. Two ranges of the text_pattern_ops indexes.
 */
export async function findPeopleByPrefix(
  db: Executor,
  viewerId: number | null,
  prefix: string,
  limit: number,
  offset = 0,
): Promise<UserViewRow[]> {
  const username = sql`lower(${users.username})`;
  return db
    .select(userViewColumns(viewerId))
    .from(users)
    .where(
      and(
        or(startsWith(username, prefix), startsWith(sql`lower(${users.name})`, prefix)),
        visibleUsers(viewerId, sql`"users"."id"`),
      ),
    )
    .orderBy(sql`(${username} = ${prefix}) desc`, desc(users.followersCount), users.id)
    .limit(limit)
    .offset(offset);
}

/** Hashtags (stored form) starting with `prefix`, most posts first. */
export async function findHashtagsByPrefix(db: Executor, prefix: string, limit: number, offset = 0) {
  const count = sql<number>`count(*)::int`;
  return db
    .select({ tag: postHashtags.tag, posts: count })
    .from(postHashtags)
    .where(startsWith(sql`${postHashtags.tag}`, prefix))
    .groupBy(postHashtags.tag)
    .orderBy(desc(count), postHashtags.tag)
    .limit(limit)
    .offset(offset);
}

/**
 * The words PostgreSQL's statistics hold as frequent in posts (`most_common_elems` of
 * `search_vector`, gathered by ANALYZE), with their share of the posts. Empty before the first ANALYZE.
 */
export async function findFrequentWords(db: Executor): Promise<Map<string, number>> {
  const rows = await executeRows<{ words: string[] | null; freqs: number[] | null }>(
    db,
    sql`select most_common_elems::text::text[] as words, most_common_elem_freqs as freqs
        from pg_stats where tablename = 'posts' and attname = 'search_vector' limit 1`,
  );
  const [row] = rows;
  const frequent = new Map<string, number>();
  row?.words?.forEach((word, i) => {
    frequent.set(word, Number(row.freqs?.[i] ?? 0));
  });
  return frequent;
}
