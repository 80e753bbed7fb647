import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { follows, posts, users } from '../../db/schema.ts';
import type { Cursor } from '../../lib/cursor.ts';
import { findPostPage, type PostRow, postViewColumns } from '../posts/posts.repository.ts';

/** Every post, newest first: a backward range scan of posts_created_at_id_idx. */
export function findEveryonePage(db: Executor, viewerId: number | null, cursor: Cursor | null, limit: number) {
  return findPostPage(db, viewerId, undefined, cursor, 'newest', limit);
}

/**
 * The viewer's own posts and those of the people they follow, newest first, in one statement.
 *
 * `author_id IN (followees) ORDER BY created_at DESC LIMIT n` has no good plan at scale: walking
 * posts_created_at_id_idx backwards filters out nearly every row when the followed people post
 * little, and fetching every post of every followee sorts them all. Instead, for each followed
 * author (and the viewer), a LATERAL subquery takes at most `limit + 1` posts past the cursor from
 * posts_author_created_at_id_idx; the newest `limit + 1` of those are the page. The work is bounded
 * by (people followed + 1) × (limit + 1) index entries, whatever the size of the posts table.
 */
export async function findFollowingPage(
  db: Executor,
  viewerId: number,
  cursor: Cursor | null,
  limit: number,
): Promise<PostRow[]> {
  const n = limit + 1;
  const past = cursor ? sql`and (p.created_at, p.id) < (${cursor.t}::timestamptz, ${cursor.id}::bigint)` : sql``;
  const pageIds = sql`
    select f.id from (
      select ${follows.followeeId} as author_id from ${follows} where ${follows.followerId} = ${viewerId}
      union all select ${viewerId}::bigint
    ) a
    cross join lateral (
      select p.id, p.created_at from ${posts} p
      where p.author_id = a.author_id ${past}
      order by p.created_at desc, p.id desc
      limit ${n}
    ) f
    order by f.created_at desc, f.id desc
    limit ${n}`;
  return db
    .select(postViewColumns(viewerId))
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(sql`${posts.id} in (${pageIds})`)
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(n);
}
