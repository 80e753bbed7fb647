import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { bigintArray, type Database, type Executor, executeRows, preparedOnce } from '../../db/client.ts';
import { followedTags, postHashtags, posts, users } from '../../db/schema.ts';
import { afterCursor, type Cursor, cursorTime } from '../../lib/cursor.ts';
import { type PostRow, postHashtagRows, postViewColumns } from '../posts/posts.repository.ts';
import { listed, postHiddenFrom, visiblePosts } from '../safety/visibility.ts';
import { joinsHomeByTag } from '../timelines/timelines.repository.ts';

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

/** Whether `userId` follows `tag` (followed_tags' primary key). */
export async function isFollowingTag(db: Executor, userId: number, tag: string): Promise<boolean> {
  const rows = await db
    .select({ tag: followedTags.tag })
    .from(followedTags)
    .where(and(eq(followedTags.userId, userId), eq(followedTags.tag, tag)));
  return rows.length > 0;
}

/** Of `tags`, those `userId` follows. */
export async function followedAmong(db: Executor, userId: number, tags: readonly string[]): Promise<Set<string>> {
  if (tags.length === 0) return new Set();
  const rows = await db
    .select({ tag: followedTags.tag })
    .from(followedTags)
    .where(and(eq(followedTags.userId, userId), inArray(followedTags.tag, [...tags])));
  return new Set(rows.map((row) => row.tag));
}

export async function countFollowedTags(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(followedTags).where(eq(followedTags.userId, userId));
  return row?.n ?? 0;
}

/** Follows `tag`; following it already changes nothing. */
export async function insertFollowedTag(db: Executor, userId: number, tag: string): Promise<void> {
  await db.insert(followedTags).values({ userId, tag }).onConflictDoNothing();
}

/** Unfollows `tag`: whether it was followed. */
export async function deleteFollowedTag(db: Executor, userId: number, tag: string): Promise<boolean> {
  const rows = await db
    .delete(followedTags)
    .where(and(eq(followedTags.userId, userId), eq(followedTags.tag, tag)))
    .returning({ tag: followedTags.tag });
  return rows.length > 0;
}

/** A page of the tags `userId` follows, newest follow first (followed_tags_user_created_idx). */
export async function findFollowedTagsPage(db: Executor, userId: number, cursor: Cursor | null, limit: number) {
  return db
    .select({ id: followedTags.id, tag: followedTags.tag, cursorTime: cursorTime(followedTags.createdAt) })
    .from(followedTags)
    .where(and(eq(followedTags.userId, userId), afterCursor(followedTags.createdAt, followedTags.id, cursor, 'newest')))
    .orderBy(desc(followedTags.createdAt), desc(followedTags.id))
    .limit(limit + 1);
}

/** The key of one of `userId`'s follows by its id (Mastodon's max_id), or null. */
export async function findFollowedTagKey(db: Executor, userId: number, id: number): Promise<Cursor | null> {
  const [row] = await db
    .select({ id: followedTags.id, t: cursorTime(followedTags.createdAt) })
    .from(followedTags)
    .where(and(eq(followedTags.userId, userId), eq(followedTags.id, id)));
  return row ? { t: row.t, id: row.id } : null;
}

/**
 * Of `readerIds`, those whose home the post `postId` joins through a hashtag they follow (the live
 * stream: post_hashtags' key, then followed_tags_tag_idx per tag of the post).
 */
export async function tagFollowersAmong(db: Executor, postId: number, readerIds: readonly number[]): Promise<number[]> {
  if (readerIds.length === 0) return [];
  const rows = await executeRows<{ id: string }>(
    db,
    sql`select distinct ft.user_id::text as id
      from ${postHashtags} ph
      join ${followedTags} ft on ft.tag = ph.tag and ft.user_id = any(${bigintArray([...readerIds])}::bigint[])
      join ${posts} p on p.id = ph.post_id
      where ph.post_id = ${postId} and ${joinsHomeByTag(sql`p`)}`,
  );
  return rows.map((row) => Number(row.id));
}

/** Of `postIds`, those that join `userId`'s home through a hashtag they follow (a stream's resume). */
export async function postsJoiningByTag(db: Executor, userId: number, postIds: readonly number[]): Promise<number[]> {
  if (postIds.length === 0) return [];
  const rows = await executeRows<{ id: string }>(
    db,
    sql`select distinct ph.post_id::text as id
      from ${postHashtags} ph
      join ${followedTags} ft on ft.tag = ph.tag and ft.user_id = ${userId}
      join ${posts} p on p.id = ph.post_id
      where ph.post_id = any(${bigintArray([...postIds])}::bigint[]) and ${joinsHomeByTag(sql`p`)}`,
  );
  return rows.map((row) => Number(row.id));
}
