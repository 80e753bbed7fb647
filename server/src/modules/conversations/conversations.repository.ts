import { eq, sql } from 'drizzle-orm';
import { bigintArray, type Executor, executeRows } from '../../db/client.ts';
import { conversations, directThreads, postMentions, posts, users } from '../../db/schema.ts';
import { afterCursor, type Cursor, cursorTime } from '../../lib/cursor.ts';
import { visiblePosts, visibleUsers } from '../safety/visibility.ts';

/**
 * Files a direct post in its thread: its parent's thread when the parent is a direct post (it has a
 * row here), else a thread of its own. Answers the thread's root.
 */
export async function insertThread(db: Executor, postId: number, parentId: number | null): Promise<number> {
  const parentRoot =
    parentId === null
      ? sql`null::bigint`
      : sql`(select dt.root_id from ${directThreads} dt where dt.post_id = ${parentId}::bigint)`;
  const [row] = await executeRows<{ root_id: string }>(
    db,
    sql`insert into ${directThreads} (post_id, root_id) values (${postId}::bigint, coalesce(${parentRoot}, ${postId}::bigint))
      returning root_id::text as root_id`,
  );
  return Number(row!.root_id);
}

/** The conversation a direct post is filed in (its thread's root), or null when it is in none. */
export async function findThreadRoot(db: Executor, postId: number): Promise<number | null> {
  const [row] = await db
    .select({ rootId: directThreads.rootId })
    .from(directThreads)
    .where(eq(directThreads.postId, postId))
    .limit(1);
  return row?.rootId ?? null;
}

/**
 * Brings the conversation `rootId` to the top of these people's lists with the post `postId`
 * (written at `at`): a row for whoever had none (or had removed it), unread for all but its author.
 */
export async function upsertConversations(
  db: Executor,
  rootId: number,
  post: { id: number; authorId: number; createdAt: Date },
  userIds: readonly number[],
): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insert(conversations)
    .values(
      userIds.map((userId) => ({
        userId,
        rootId,
        lastPostId: post.id,
        // The post's own time, to the microsecond (a JS Date keeps milliseconds): the list's key must
        // equal the key a max_id names (findCursorAtPost reads the post's created_at).
        updatedAt: sql`(select ${posts.createdAt} from ${posts} where ${posts.id} = ${post.id})`,
        unread: userId !== post.authorId,
      })),
    )
    .onConflictDoUpdate({
      target: [conversations.userId, conversations.rootId],
      set: {
        lastPostId: sql`excluded.last_post_id`,
        updatedAt: sql`excluded.updated_at`,
        unread: sql`excluded.unread`,
      },
    });
}

/** A conversation row as a page reads it: `id` and `cursorTime` are the list's key (lib/cursor.ts). */
export interface ConversationRow {
  /** The newest post that reached the person (the key; Mastodon's paging id). */
  id: number;
  cursorTime: string;
  rootId: number;
  unread: boolean;
  updatedAt: Date;
  /** The newest post of it the person may see now (blocks, mutes and deletions since included). */
  shownPostId: number;
}

/**
 * One page of the person's conversations, the latest first, keyed on (updated_at, last_post_id)
 * (conversations_user_updated_idx), `limit + 1` rows. Each with its newest post the person may see
 * (modules/safety/visibility.ts), found backwards on direct_threads_root_post_idx; a conversation with
 * none (all of it deleted, or hidden by a block since) is left out. `rootId`: that one only. Measured
 * (EXPLAIN ANALYZE on PGlite, a member with 5,000 of 25,000 conversations): a backward scan of the
 * index stopping at 21 rows, one probe of the thread index and of posts' key per row, ~2 ms.
 */
export async function findConversationPage(
  db: Executor,
  userId: number,
  cursor: Cursor | null,
  limit: number,
  rootId: number | null = null,
): Promise<ConversationRow[]> {
  const after = afterCursor(sql`c.updated_at`, sql`c.last_post_id`, cursor, 'newest');
  const rows = await executeRows<{
    id: string;
    cursor_time: string;
    root_id: string;
    unread: boolean;
    updated_at: string | Date;
    shown_post_id: string;
  }>(
    db,
    sql`select c.last_post_id::text as id, ${cursorTime(sql`c.updated_at`)} as cursor_time, c.root_id::text as root_id,
        c.unread, c.updated_at, shown.id::text as shown_post_id
      from ${conversations} c
      cross join lateral (
        select p.id from ${directThreads} dt join ${posts} p on p.id = dt.post_id
        where dt.root_id = c.root_id and ${visiblePosts(userId, 'all', sql`p`)}
        order by dt.post_id desc limit 1
      ) shown
      where c.user_id = ${userId}
        ${rootId === null ? sql`` : sql`and c.root_id = ${rootId}`}
        ${after ? sql`and ${after}` : sql``}
      order by c.updated_at desc, c.last_post_id desc
      limit ${limit + 1}`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    cursorTime: row.cursor_time,
    rootId: Number(row.root_id),
    unread: row.unread,
    updatedAt: new Date(row.updated_at),
    shownPostId: Number(row.shown_post_id),
  }));
}

export interface ParticipantRow {
  rootId: number;
  id: number;
  name: string;
  username: string;
  profileImage: string | null;
  domain: string | null;
}

/**
 * The people of these conversations as `userId` sees them: the authors and the mentioned people of
 * the posts of each that they may see, but themselves and whoever is hidden from them (a block, a
 * mute, a suspension). One statement for a page.
 */
export async function findParticipants(
  db: Executor,
  userId: number,
  rootIds: readonly number[],
): Promise<ParticipantRow[]> {
  if (rootIds.length === 0) return [];
  const rows = await executeRows<{
    root_id: string;
    id: string;
    name: string;
    username: string;
    profile_image: string | null;
    domain: string | null;
  }>(
    db,
    sql`with seen as (
        select dt.root_id, p.id, p.author_id from ${directThreads} dt join ${posts} p on p.id = dt.post_id
        where dt.root_id = any(${bigintArray(rootIds)}::bigint[]) and ${visiblePosts(userId, 'all', sql`p`)}
      ), people as (
        select root_id, author_id as user_id from seen
        union
        select seen.root_id, pm.user_id from seen join ${postMentions} pm on pm.post_id = seen.id
      )
      select people.root_id::text as root_id, u.id::text as id, u.name, u.username, u.profile_image, u.domain
      from people join ${users} u on u.id = people.user_id
      where u.id <> ${userId} and ${visibleUsers(userId, sql`u.id`)}
      order by people.root_id, u.username`,
  );
  return rows.map((row) => ({
    rootId: Number(row.root_id),
    id: Number(row.id),
    name: row.name,
    username: row.username,
    profileImage: row.profile_image,
    domain: row.domain,
  }));
}

/** Marks the person's conversation read; false when they have none by that id. */
export async function markRead(db: Executor, userId: number, rootId: number): Promise<boolean> {
  const rows = await executeRows<{ root_id: string }>(
    db,
    sql`update ${conversations} set unread = false where user_id = ${userId} and root_id = ${rootId}
      returning root_id::text as root_id`,
  );
  return rows.length > 0;
}

/** Removes the person's row of the conversation; false when they have none by that id. */
export async function removeConversation(db: Executor, userId: number, rootId: number): Promise<boolean> {
  const rows = await executeRows<{ root_id: string }>(
    db,
    sql`delete from ${conversations} where user_id = ${userId} and root_id = ${rootId} returning root_id::text as root_id`,
  );
  return rows.length > 0;
}

/**
 * The person's unread conversations that show them a post, counted up to `cap`
 * (conversations_user_unread_idx; one visibility probe per unread one).
 */
export async function countUnread(db: Executor, userId: number, cap: number): Promise<number> {
  const [row] = await executeRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from (
      select 1 from ${conversations} c
      where c.user_id = ${userId} and c.unread and exists (
        select 1 from ${directThreads} dt join ${posts} p on p.id = dt.post_id
        where dt.root_id = c.root_id and ${visiblePosts(userId, 'all', sql`p`)})
      limit ${cap}) unread`,
  );
  return row?.count ?? 0;
}

/** The list key just above the post `postId` (Mastodon's max_id: a conversation's last status); null when there is no such post. */
export async function findCursorAtPost(db: Executor, postId: number): Promise<Cursor | null> {
  const [row] = await executeRows<{ t: string }>(
    db,
    sql`select ${cursorTime(sql`p.created_at`)} as t from ${posts} p where p.id = ${postId}`,
  );
  return row ? { t: row.t, id: postId } : null;
}
