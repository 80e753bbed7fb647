import { type Conversation, UNREAD_COUNT_CAP, type UnreadCount, type UserSummary } from '@pipit/contract';
import type { Database, Executor } from '../../db/client.ts';
import { type Cursor, encodeCursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import { notFound } from '../../lib/errors.ts';
import type { EventBus, Outbox } from '../../lib/events.ts';
import { toPost } from '../posts/posts.pack.ts';
import { findPostViews } from '../posts/posts.repository.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { toUserSummary } from '../users/users.pack.ts';
import * as repo from './conversations.repository.ts';

export const conversationNotFound = () => notFound('No such conversation.');

/**
 * Files a new direct post in its conversation, inside the post's transaction (PostsService.create):
 * its thread (its parent's when that is a direct post), and a row for each person it reaches — its
 * author (read: they wrote it) and `reached` (unread), those it is hidden from already left out by the
 * caller. A row removed earlier comes back. Each of them hears of it once the post has committed.
 */
export async function recordDirectPost(
  tx: Executor,
  outbox: Outbox,
  post: { id: number; authorId: number; parentId: number | null; createdAt: Date },
  reached: readonly number[],
): Promise<void> {
  const rootId = await repo.insertThread(tx, post.id, post.parentId);
  const people = [...new Set([post.authorId, ...reached])];
  await repo.upsertConversations(tx, rootId, post, people);
  outbox.add(
    ...people.map((userId) => ({ type: 'conversation.updated' as const, userId, rootId, change: 'post' as const })),
  );
}

/**
 * An edit of a direct post reached more people (it mentions someone new): the conversation it is in
 * is filed for them too, unread, as if the post had reached them when written (Mastodon widens a
 * post's audience to whom an edit mentions). Inside the edit's transaction.
 */
export async function joinDirectPost(
  tx: Executor,
  outbox: Outbox,
  post: { id: number; authorId: number; createdAt: Date },
  reached: readonly number[],
): Promise<void> {
  if (reached.length === 0) return;
  const rootId = await repo.findThreadRoot(tx, post.id);
  if (rootId === null) return;
  await repo.upsertConversations(tx, rootId, post, reached);
  outbox.add(
    ...reached.map((userId) => ({ type: 'conversation.updated' as const, userId, rootId, change: 'post' as const })),
  );
}

/**
 * A member's conversations: direct posts (mentioned people only) and the direct replies under them.
 * Written by PostsService.create (recordDirectPost); read here through the visibility rules
 * (modules/safety/visibility.ts): each shows the newest post of it the member may see, and the people
 * in it they may see.
 */
export class ConversationsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  /** The member's conversations, the latest first; listing does not mark them read. */
  async list(viewer: SessionUser, page: PageRequest): Promise<Page<Conversation>> {
    const fetched = await listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findConversationPage(this.db, viewer.userId, cursor, limit),
      (row) => row,
    );
    return { items: await this.pack(viewer, fetched.items), nextCursor: fetched.nextCursor };
  }

  /** One conversation of the member as the list shows it; null when they have none by that id (or it shows nothing). */
  async get(viewer: SessionUser, rootId: number): Promise<Conversation | null> {
    const rows = await repo.findConversationPage(this.db, viewer.userId, null, 1, rootId);
    const [shown] = await this.pack(viewer, rows.slice(0, 1));
    return shown ?? null;
  }

  /** Marks the conversation read (404 when the member has none by that id); their other tabs hear of it. */
  async read(viewer: SessionUser, rootId: number): Promise<void> {
    if (!(await repo.markRead(this.db, viewer.userId, rootId))) throw conversationNotFound();
    await this.events.publish([{ type: 'conversation.updated', userId: viewer.userId, rootId, change: 'read' }]);
  }

  /** Takes the conversation off the member's list (404 when they have none by that id); a new post in it brings it back. */
  async remove(viewer: SessionUser, rootId: number): Promise<void> {
    if (!(await repo.removeConversation(this.db, viewer.userId, rootId))) throw conversationNotFound();
    await this.events.publish([{ type: 'conversation.updated', userId: viewer.userId, rootId, change: 'removed' }]);
  }

  /** How many of the member's conversations are unread, counted up to UNREAD_COUNT_CAP (the nav's badge). */
  async unreadCount(viewer: SessionUser): Promise<UnreadCount> {
    return { count: await repo.countUnread(this.db, viewer.userId, UNREAD_COUNT_CAP) };
  }

  /** The list cursor just below the post `postId` (Mastodon's max_id, a conversation's last status); null for no such post. */
  async cursorAtPost(postId: number): Promise<string | null> {
    const at = await repo.findCursorAtPost(this.db, postId);
    return at ? encodeCursor(at) : null;
  }

  /** Rows as the member sees them: their posts in one statement, their people in another. */
  private async pack(viewer: SessionUser, rows: repo.ConversationRow[]): Promise<Conversation[]> {
    if (rows.length === 0) return [];
    const posts = new Map(
      (
        await findPostViews(
          this.db,
          viewer.userId,
          rows.map((r) => r.shownPostId),
          'all',
        )
      ).map((row) => [row.id, toPost(row)]),
    );
    const people = new Map<number, UserSummary[]>();
    for (const p of await repo.findParticipants(
      this.db,
      viewer.userId,
      rows.map((r) => r.rootId),
    )) {
      const list = people.get(p.rootId) ?? [];
      list.push(toUserSummary(p));
      people.set(p.rootId, list);
    }
    return rows.flatMap((row) => {
      const lastPost = posts.get(row.shownPostId);
      // Hidden between the two statements (a block just made): left out, as the next page would.
      if (!lastPost) return [];
      return [
        {
          id: String(row.rootId),
          participants: people.get(row.rootId) ?? [],
          lastPost,
          unread: row.unread,
          updatedAt: row.updatedAt.toISOString(),
        },
      ];
    });
  }
}
