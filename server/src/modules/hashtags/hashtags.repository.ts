import { and, desc, eq, sql } from 'drizzle-orm';
import { type Database, type Executor, preparedOnce } from '../../db/client.ts';
import { postHashtags, posts, users } from '../../db/schema.ts';
import { type Cursor, cursorTime } from '../../lib/cursor.ts';
import { type PostRow, postHashtagRows, postViewColumns } from '../posts/posts.repository.ts';
import { listed, postHiddenFrom, visiblePosts } from '../safety/visibility.ts';

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

/**
 * One page of a tag's posts, newest first, keyed on the posts' own (created_at, id). Sent prepared (per
 * viewer kind and cursor, built once per database): planning the page's view and visibility rules cost
 * more than running its index range (the same as search's statements).
 */
export async function findHashtagPage(
  db: Database,
  viewerId: number | null,
  tag: string,
  cursor: Cursor | null,
  limit: number,
): Promise<PostRow[]> {
  const name = `hashtag_page_${viewerId === null ? 'visitor' : 'member'}_${cursor ? 'after' : 'first'}`;
  const statement = preparedOnce(db, name, () => prepareHashtagPage(db, viewerId !== null, cursor !== null, name));
  return statement.execute({ viewer: viewerId ?? 0, tag, t: cursor?.t ?? null, id: cursor?.id ?? null, n: limit + 1 });
}

function prepareHashtagPage(db: Database, member: boolean, withCursor: boolean, name: string) {
  const viewer = sql.placeholder('viewer');
  const visible = member ? sql`not ${postHiddenFrom(sql`${viewer}::bigint`, sql`"posts"`)}` : visiblePosts(null);
  const after = withCursor
    ? sql`(${postHashtags.createdAt}, ${postHashtags.postId}) < (${sql.placeholder('t')}::timestamptz, ${sql.placeholder('id')}::bigint)`
    : undefined;
  return db
    .select({ ...postViewColumns(member ? viewer : null), cursorTime: cursorTime(postHashtags.createdAt) })
    .from(postHashtags)
    .innerJoin(posts, eq(posts.id, postHashtags.postId))
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(and(eq(postHashtags.tag, sql.placeholder('tag')), listed(sql`"posts"`), visible, after))
    .orderBy(desc(postHashtags.createdAt), desc(postHashtags.postId))
    .limit(sql.placeholder('n'))
    .prepare(name);
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
