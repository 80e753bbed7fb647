import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { type Executor, executeRows } from '../../db/client.ts';
import { bookmarks, follows, likes, mediaAttachments, mutedWords, posts, users } from '../../db/schema.ts';

/**
 * Before an account's rows go (their foreign keys cascade), every counter of other people that counts
 * them is taken down, in the same transaction: the reply, like and repost counts of others' posts, and
 * the follow counts of the people they followed or were followed by.
 */
export async function uncountAccount(db: Executor, userId: number): Promise<void> {
  await db.execute(sql`
    update ${posts} p set reply_count = p.reply_count - c.n
    from (select parent_id, count(*)::int as n from ${posts} where author_id = ${userId} and parent_id is not null group by parent_id) c
    where p.id = c.parent_id and p.author_id <> ${userId}`);
  await db.execute(sql`
    update ${posts} p set repost_count = p.repost_count - c.n
    from (select repost_of_id, count(*)::int as n from ${posts} where author_id = ${userId} and repost_of_id is not null group by repost_of_id) c
    where p.id = c.repost_of_id and p.author_id <> ${userId}`);
  await db.execute(sql`
    update ${posts} p set like_count = p.like_count - 1
    from ${likes} l where l.user_id = ${userId} and l.post_id = p.id and p.author_id <> ${userId}`);
  await db.execute(sql`
    update ${users} u set following_count = u.following_count - 1
    from ${follows} f where f.followee_id = ${userId} and f.follower_id = u.id and u.id <> ${userId}`);
  await db.execute(sql`
    update ${users} u set followers_count = u.followers_count - 1
    from ${follows} f where f.follower_id = ${userId} and f.followee_id = u.id and u.id <> ${userId}`);
}

/** The account's image files (profile, cover, every upload's image and preview), as media URLs' keys. */
export async function findAccountFiles(db: Executor, userId: number): Promise<{ images: string[]; keys: string[] }> {
  const [user] = await db
    .select({ profileImage: users.profileImage, coverImage: users.coverImage })
    .from(users)
    .where(eq(users.id, userId));
  const uploads = await db
    .select({ key: mediaAttachments.key, previewKey: mediaAttachments.previewKey })
    .from(mediaAttachments)
    .where(eq(mediaAttachments.ownerId, userId));
  return {
    images: [user?.profileImage, user?.coverImage].filter((url): url is string => typeof url === 'string'),
    keys: uploads.flatMap((u) => [u.key, u.previewKey]),
  };
}

/** Whether the user is someone elsewhere (a `users` row with a domain). */
export async function isRemoteUser(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.domain)))
    .limit(1);
  return row !== undefined;
}

/** Deletes the account; every row of theirs goes with it (foreign keys cascade). True when it existed. */
export async function deleteAccount(db: Executor, userId: number): Promise<boolean> {
  const removed = await db.delete(users).where(eq(users.id, userId)).returning({ id: users.id });
  return removed.length > 0;
}

/** What an export holds besides the profile, each list oldest first. */
export async function findArchive(db: Executor, userId: number) {
  const ownPosts = await executeRows<{
    id: string;
    text: string;
    created_at: string;
    parent_id: string | null;
    quote_of_id: string | null;
    repost_of_id: string | null;
    visibility: string;
    media: { key: string; alt: string | null; width: number; height: number }[] | null;
  }>(
    db,
    sql`select p.id::text as id, p.text, p.created_at, p.parent_id::text as parent_id, p.quote_of_id::text as quote_of_id,
      p.repost_of_id::text as repost_of_id, p.visibility,
      (select json_agg(json_build_object('key', m.key, 'alt', m.alt, 'width', m.width, 'height', m.height) order by m.position)
         from ${mediaAttachments} m where m.post_id = p.id) as media
    from ${posts} p where p.author_id = ${userId} order by p.created_at, p.id`,
  );
  const person = { id: users.id, username: users.username, name: users.name };
  const following = await db
    .select({ ...person, since: follows.createdAt })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followeeId))
    .where(eq(follows.followerId, userId))
    .orderBy(asc(follows.createdAt));
  const followers = await db
    .select({ ...person, since: follows.createdAt })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followerId))
    .where(eq(follows.followeeId, userId))
    .orderBy(asc(follows.createdAt));
  const liked = await db
    .select({ postId: likes.postId, at: likes.createdAt })
    .from(likes)
    .where(eq(likes.userId, userId))
    .orderBy(asc(likes.createdAt));
  const kept = await db
    .select({ postId: bookmarks.postId, at: bookmarks.createdAt })
    .from(bookmarks)
    .where(eq(bookmarks.userId, userId))
    .orderBy(asc(bookmarks.createdAt));
  const words = await db
    .select({ phrase: mutedWords.phrase })
    .from(mutedWords)
    .where(eq(mutedWords.userId, userId))
    .orderBy(asc(mutedWords.createdAt));
  return { ownPosts, following, followers, liked, kept, words };
}
