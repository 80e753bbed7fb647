import { and, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { postHashtags, posts, users } from '../../db/schema.ts';
import { afterCursor, type Cursor } from '../../lib/cursor.ts';
import { type PostRow, postViewColumns } from '../posts/posts.repository.ts';
import { visiblePosts, visibleUsers } from '../safety/visibility.ts';
import { type UserViewRow, userViewColumns } from '../users/users.repository.ts';

/** `text LIKE 'prefix%'`, with the prefix's own `%`, `_` and `\` taken literally. */
const startsWith = (column: SQL, prefix: string) =>
  sql`${column} like ${`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;

/**
 * Posts matching `q` (websearch syntax) newest first, keyed like every post list. A rare word's posts
 * come from the GIN index on the stored `search_vector`; a common word's first page from the newest
 * posts, each checked against its stored vector (no parsing of texts). A query of no words (only
 * punctuation) matches nothing.
 */
export async function findPostMatches(
  db: Executor,
  viewerId: number | null,
  q: string,
  cursor: Cursor | null,
  limit: number,
  offset = 0,
): Promise<PostRow[]> {
  return db
    .select(postViewColumns(viewerId))
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(
      and(
        sql`${posts.searchVector} @@ websearch_to_tsquery('simple', ${q})`,
        visiblePosts(viewerId),
        afterCursor(posts.createdAt, posts.id, cursor, 'newest'),
      ),
    )
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(limit + 1)
    .offset(offset);
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
