import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { follows, posts, users } from '../../db/schema.ts';
import { type Cursor, cursorTime } from '../../lib/cursor.ts';
import { findPostPage, type PostRow, postViewColumns } from '../posts/posts.repository.ts';

/** What a fan-out needs of a post: its author, their follower count and its time; null once deleted. */
export async function findFanOutPost(db: Executor, postId: number) {
  const [row] = await db
    .select({
      id: posts.id,
      authorId: posts.authorId,
      cursorTime: cursorTime(posts.createdAt),
      followersCount: users.followersCount,
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(eq(posts.id, postId))
    .limit(1);
  return row ?? null;
}

export async function findFollowerIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db.select({ id: follows.followerId }).from(follows).where(eq(follows.followeeId, userId));
  return rows.map((r) => r.id);
}

/** Whose home a post is in: the author's (own posts) or a follower's. */
const inHomeOf = (viewerId: number) =>
  sql<boolean>`(${posts.authorId} = ${viewerId} or exists (select 1 from ${follows} f where f.follower_id = ${viewerId} and f.followee_id = ${posts.authorId}))`;

/**
 * The posts of a feed's ids as the viewer sees them, each with whether it still belongs in their
 * home (its author is followed, or is them): one statement. Deleted posts are simply absent.
 */
export async function findFeedPosts(db: Executor, viewerId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ ...postViewColumns(viewerId), inHome: inHomeOf(viewerId) })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(inArray(posts.id, ids));
}

/**
 * A page of the posts of `pulled` accounts (never fanned out: too many followers) in the viewer's
 * home, newest first after the cursor: one statement.
 */
export async function findPulledPage(
  db: Executor,
  viewerId: number,
  pulled: number[],
  cursor: Cursor | null,
  limit: number,
): Promise<PostRow[]> {
  // One array parameter (Drizzle would spread a JS array into a list of parameters).
  const list = `{${pulled.map((id) => Math.trunc(id)).join(',')}}`;
  const authors: SQL = sql`${posts.authorId} in (
    select f.followee_id from ${follows} f where f.follower_id = ${viewerId} and f.followee_id = any(${list}::bigint[])
    union all select ${viewerId}::bigint where ${viewerId}::bigint = any(${list}::bigint[]))`;
  return findPostPage(db, viewerId, authors, cursor, 'newest', limit);
}
