import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import { bigintArray, type Executor, executeRows } from '../../db/client.ts';
import { feedOutbox, followedTags, follows, posts, users } from '../../db/schema.ts';
import { type Cursor, cursorTime } from '../../lib/cursor.ts';
import { excludedFromHome } from '../lists/lists.home.ts';
import { findPostPage, type PostRow } from '../posts/posts.repository.ts';
import { postHiddenFrom } from '../safety/visibility.ts';
import { firstEntryOnly } from '../timelines/timelines.repository.ts';

/** Records a post for fan-out, in its transaction (the outbox); already waiting there, it stays once. */
export async function addToOutbox(db: Executor, postId: number): Promise<void> {
  await db.insert(feedOutbox).values({ postId }).onConflictDoNothing();
}

/** Takes up to `limit` posts off the outbox (rows other transactions hold are skipped), oldest first. */
export async function takeFromOutbox(db: Executor, limit: number): Promise<number[]> {
  const rows = await executeRows<{ post_id: string | number }>(
    db,
    sql`
    delete from ${feedOutbox} where post_id in (
      select post_id from ${feedOutbox} order by post_id limit ${limit} for update skip locked
    ) returning post_id`,
  );
  return rows.map((r) => Number(r.post_id));
}

export async function outboxSize(db: Executor): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(feedOutbox);
  return row?.n ?? 0;
}

/** What a fan-out needs of posts: author, their follower count, time. Deleted posts are absent. */
export async function findFanOutPosts(db: Executor, postIds: number[]) {
  if (postIds.length === 0) return [];
  return db
    .select({
      id: posts.id,
      authorId: posts.authorId,
      repostOfId: posts.repostOfId,
      cursorTime: cursorTime(posts.createdAt),
      followersCount: users.followersCount,
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(inArray(posts.id, postIds));
}

/** Every follower of each of `userIds` (follows_followee_created_idx). */
export async function findFollowersOf(db: Executor, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db
    .select({ followerId: follows.followerId, followeeId: follows.followeeId })
    .from(follows)
    .where(inArray(follows.followeeId, userIds));
}

/**
 * Whose home may show something of `authorId`'s: their followers, and the followers of everyone
 * who reposted or quoted one of their posts (posts_author_created_at_id_idx, then the repost and
 * quote indexes, then follows_followee_created_idx).
 */
export async function findReadersOfAuthor(db: Executor, authorId: number): Promise<number[]> {
  const rows = await executeRows<{ id: string }>(
    db,
    sql`with theirs as (select id from ${posts} where author_id = ${authorId}),
      sharers as (
        select ${authorId}::bigint as id
        union select p.author_id from ${posts} p where p.repost_of_id in (select id from theirs)
        union select p.author_id from ${posts} p where p.quote_of_id in (select id from theirs))
      select distinct f.follower_id::text as id from ${follows} f where f.followee_id in (select id from sharers)`,
  );
  return rows.map((row) => Number(row.id));
}

/** Whom a member follows (the follows primary key: an index-only scan). */
export async function findFolloweeIds(db: Executor, followerId: number): Promise<number[]> {
  const rows = await db.select({ id: follows.followeeId }).from(follows).where(eq(follows.followerId, followerId));
  return rows.map((row) => row.id);
}

/** What a member's home is made of: whom they follow, and the hashtags they follow (two primary-key ranges). */
export async function findHomeSources(db: Executor, userId: number): Promise<{ followees: number[]; tags: string[] }> {
  const [followees, tags] = await Promise.all([
    findFolloweeIds(db, userId),
    db.select({ tag: followedTags.tag }).from(followedTags).where(eq(followedTags.userId, userId)),
  ]);
  return { followees, tags: tags.map((row) => row.tag) };
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
  const list = bigintArray(pulled);
  const authors: SQL = sql`${posts.authorId} in (
    select f.followee_id from ${follows} f where f.follower_id = ${viewerId} and f.followee_id = any(${list}::bigint[])
      and not ${excludedFromHome(sql`${viewerId}::bigint`, sql`f.followee_id`)}
    union all select ${viewerId}::bigint where ${viewerId}::bigint = any(${list}::bigint[]))`;
  const once = firstEntryOnly(sql`"posts"`, sql`${viewerId}::bigint`);
  return findPostPage(db, viewerId, sql`${authors} and ${once}`, cursor, 'newest', limit);
}

/**
 * Of the (post, reader) pairs a fan-out would write, those whose home shows the post, in one
 * statement: not hidden from the reader (a block or a mute: modules/safety/visibility.ts), not by a
 * member of one of the reader's exclusive lists (modules/lists), and for a repost only where no
 * earlier entry of theirs shows the reposted post (timelines.repository `firstEntryOnly`).
 */
export async function readersShowing(
  db: Executor,
  pairs: readonly { postId: number; readerId: number }[],
): Promise<{ postId: number; readerId: number }[]> {
  if (pairs.length === 0) return [];
  // Two array parameters (Drizzle would spread a JS array into a list of parameters).
  const postIds = bigintArray(pairs.map((p) => p.postId));
  const readerIds = bigintArray(pairs.map((p) => p.readerId));
  const rows = await executeRows<{ post_id: string; reader_id: string }>(
    db,
    sql`
    select r.id::text as post_id, x.reader_id::text as reader_id
    from unnest(${postIds}::bigint[], ${readerIds}::bigint[]) as x(post_id, reader_id)
    join ${posts} r on r.id = x.post_id
    where ${firstEntryOnly(sql`r`, sql`x.reader_id`)} and not ${postHiddenFrom(sql`x.reader_id`, sql`r`)}
      and not ${excludedFromHome(sql`x.reader_id`, sql`r.author_id`)}`,
  );
  return rows.map((row) => ({ postId: Number(row.post_id), readerId: Number(row.reader_id) }));
}
