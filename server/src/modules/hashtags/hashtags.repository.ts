import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { postHashtags, posts, users } from '../../db/schema.ts';
import { afterCursor, type Cursor, cursorTime } from '../../lib/cursor.ts';
import { type PostRow, postHashtagRows, postViewColumns } from '../posts/posts.repository.ts';
import { visiblePosts } from '../safety/visibility.ts';

/** Records a new post's hashtags (stored form), with its author and its exact time, in its transaction. */
export async function insertPostHashtags(db: Executor, postId: number, tags: readonly string[]): Promise<void> {
  if (tags.length === 0) return;
  const list = sql.join(
    tags.map((tag) => sql`${tag}`),
    sql`, `,
  );
  const rows = postHashtagRows(sql`(select * from ${posts} where ${posts.id} = ${postId})`, sql`array[${list}]`);
  await db.execute(
    sql`insert into ${postHashtags} (tag, post_id, author_id, created_at) ${rows} on conflict do nothing`,
  );
}

/** One page of a tag's posts, newest first, keyed on the posts' own (created_at, id). */
export async function findHashtagPage(
  db: Executor,
  viewerId: number | null,
  tag: string,
  cursor: Cursor | null,
  limit: number,
): Promise<PostRow[]> {
  return db
    .select({ ...postViewColumns(viewerId), cursorTime: cursorTime(postHashtags.createdAt) })
    .from(postHashtags)
    .innerJoin(posts, eq(posts.id, postHashtags.postId))
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(
      and(
        eq(postHashtags.tag, tag),
        visiblePosts(viewerId),
        afterCursor(postHashtags.createdAt, postHashtags.postId, cursor, 'newest'),
      ),
    )
    .orderBy(desc(postHashtags.createdAt), desc(postHashtags.postId))
    .limit(limit + 1);
}

/** The tags the most distinct people used since `since`, most first (ties: alphabetical). */
export async function findTrending(db: Executor, since: Date, limit: number) {
  const people = sql<number>`count(distinct ${postHashtags.authorId})::int`;
  return db
    .select({ tag: postHashtags.tag, people })
    .from(postHashtags)
    .where(sql`${postHashtags.createdAt} > ${since}`)
    .groupBy(postHashtags.tag)
    .orderBy(desc(people), postHashtags.tag)
    .limit(limit);
}
