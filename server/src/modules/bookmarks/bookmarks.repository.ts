import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { bookmarks, posts, users } from '../../db/schema.ts';
import { afterCursor, type Cursor, cursorTime } from '../../lib/cursor.ts';
import { type PostRow, postViewColumns } from '../posts/posts.repository.ts';
import { visiblePosts } from '../safety/visibility.ts';

/**
 * Keeps the post in the member's bookmarks when it exists, a block does not hide it from them and it
 * is not kept yet: true when a row was added (INSERT … SELECT, so an unknown post adds nothing instead
 * of failing on the foreign key).
 */
export async function insertBookmark(db: Executor, userId: number, postId: number): Promise<boolean> {
  const added = await db
    .insert(bookmarks)
    .select(
      sql`select ${userId}::bigint, ${posts.id}, now() from ${posts} where ${posts.id} = ${postId} and ${visiblePosts(userId, 'blocks')}`,
    )
    .onConflictDoNothing()
    .returning({ postId: bookmarks.postId });
  return added.length > 0;
}

/** True when a bookmark was removed. */
export async function deleteBookmark(db: Executor, userId: number, postId: number): Promise<boolean> {
  const removed = await db
    .delete(bookmarks)
    .where(and(eq(bookmarks.userId, userId), eq(bookmarks.postId, postId)))
    .returning({ postId: bookmarks.postId });
  return removed.length > 0;
}

/**
 * One page of a member's bookmarks, newest bookmark first, keyed on (bookmark time, post id): one
 * range of bookmarks_user_created_idx, then each post by its primary key.
 */
export async function findBookmarkPage(
  db: Executor,
  userId: number,
  cursor: Cursor | null,
  limit: number,
): Promise<PostRow[]> {
  return db
    .select({ ...postViewColumns(userId, 'blocks'), cursorTime: cursorTime(bookmarks.createdAt) })
    .from(bookmarks)
    .innerJoin(posts, eq(posts.id, bookmarks.postId))
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(
      and(
        eq(bookmarks.userId, userId),
        // Kept by choice: a mute leaves them; a block hides them as it hides everything.
        visiblePosts(userId, 'blocks'),
        afterCursor(bookmarks.createdAt, bookmarks.postId, cursor, 'newest'),
      ),
    )
    .orderBy(desc(bookmarks.createdAt), desc(bookmarks.postId))
    .limit(limit + 1);
}
