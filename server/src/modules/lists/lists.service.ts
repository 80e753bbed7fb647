import {
  LIST_LIMITS,
  type List,
  type ListCandidate,
  type ListRepliesPolicy,
  type Post,
  type User,
} from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { type Cursor, encodeCursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import { AppError, notFound, userNotFound } from '../../lib/errors.ts';
import { commitThenPublish, type EventBus, type Outbox } from '../../lib/events.ts';
import { parseId, type UserId } from '../../lib/ids.ts';
import { toUserView } from '../follows/follows.pack.ts';
import { toPost } from '../posts/posts.pack.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { findUser } from '../users/users.repository.ts';
import * as repo from './lists.repository.ts';

/** Someone else's list answers as one that does not exist: a list's existence is its owner's business. */
export const listNotFound = () => notFound('This list does not exist.');
const notFollowing = () =>
  new AppError('NOT_FOLLOWING', 'You can only add people you follow to a list. Follow them first.');

/** A list id, parsed from the wire once (an id that is no id names no list). */
export type ListId = number & { readonly __list: true };
export const parseListId = (wire: string): ListId => parseId(wire, listNotFound) as ListId;

/** Candidates offered per search in the members editor. */
const CANDIDATES = 20;

/**
 * Lists: a member's own groups of people they follow, each with its timeline (newest first, replies by
 * its policy, through the visibility rules), and "exclusive" ones whose members leave the owner's Home
 * (lists.home.ts, applied by the timelines and the feeds). Every call is the owner's: someone else's
 * list is NOT_FOUND. Members rest on follows (a foreign key): an unfollow or a block takes them off.
 */
export class ListsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  async all(viewer: SessionUser): Promise<List[]> {
    return (await repo.findLists(this.db, viewer.userId)).map(toList);
  }

  async get(viewer: SessionUser, id: ListId): Promise<List> {
    return toList(await this.own(viewer, id));
  }

  /** Creates a list (at most LIST_LIMITS.lists per member); replies policy `list` unless given. */
  async create(
    viewer: SessionUser,
    values: { title: string; repliesPolicy?: ListRepliesPolicy | undefined; exclusive?: boolean | undefined },
  ): Promise<List> {
    const me = viewer.userId;
    const id = await this.db.transaction(async (tx) => {
      // Counted in the transaction that adds: two creates at once may both pass, leaving 51, never a leak.
      if ((await repo.countLists(tx, me)) >= LIST_LIMITS.lists) {
        throw new AppError(
          'LIMIT_REACHED',
          `You can have at most ${LIST_LIMITS.lists} lists; delete one to make another.`,
        );
      }
      return repo.insertList(tx, me, {
        title: values.title,
        repliesPolicy: values.repliesPolicy ?? 'list',
        exclusive: values.exclusive ?? false,
      });
    });
    return this.get(viewer, id as ListId);
  }

  /** Changes the title, replies policy or exclusive; Home is built again when exclusive changes. */
  async update(
    viewer: SessionUser,
    id: ListId,
    values: {
      title?: string | undefined;
      repliesPolicy?: ListRepliesPolicy | undefined;
      exclusive?: boolean | undefined;
    },
  ): Promise<List> {
    const me = viewer.userId;
    const changes = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const before = await repo.updateList(tx, me, id, changes);
      if (!before) throw listNotFound();
      if (values.exclusive !== undefined && values.exclusive !== before.exclusive) this.homeChanged(outbox, me);
    });
    return this.get(viewer, id);
  }

  /** Deletes the list (its members with it); its members come back to Home if it was exclusive. */
  async remove(viewer: SessionUser, id: ListId): Promise<void> {
    const me = viewer.userId;
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const deleted = await repo.deleteList(tx, me, id);
      if (!deleted) throw listNotFound();
      if (deleted.exclusive) this.homeChanged(outbox, me);
    });
  }

  /**
   * Puts people on the list (a no-op for those on it already), all or none: each must be someone the
   * owner follows (NOT_FOLLOWING), and the list holds at most LIST_LIMITS.members (LIMIT_REACHED).
   * Unknown people and people one cannot see are NOT_FOUND. Answers the people added, as now seen.
   */
  async addMembers(viewer: SessionUser, id: ListId, userIds: readonly UserId[]): Promise<User[]> {
    const me = viewer.userId;
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const list = await repo.findList(tx, me, id);
      if (!list) throw listNotFound();
      let added = 0;
      for (const userId of new Set(userIds)) {
        const result = await repo.insertMember(tx, me, id, userId);
        if (result === 'not-following') {
          if (!(await findUser(tx, { id: userId }, me))) throw userNotFound();
          throw notFollowing();
        }
        if (result === 'added') added++;
      }
      if (added > 0 && (await repo.countMembers(tx, id)) > LIST_LIMITS.members) {
        throw new AppError(
          'LIMIT_REACHED',
          `A list holds at most ${LIST_LIMITS.members} people; remove someone to add another.`,
        );
      }
      if (added > 0 && list.exclusive) this.homeChanged(outbox, me);
    });
    return this.people(me, userIds);
  }

  /** Takes people off the list (a no-op for those not on it). Answers them, as now seen. */
  async removeMembers(viewer: SessionUser, id: ListId, userIds: readonly UserId[]): Promise<User[]> {
    const me = viewer.userId;
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const list = await repo.findList(tx, me, id);
      if (!list) throw listNotFound();
      let removed = 0;
      for (const userId of new Set(userIds)) if (await repo.deleteMember(tx, id, userId)) removed++;
      if (removed > 0 && list.exclusive) this.homeChanged(outbox, me);
    });
    return this.people(me, userIds);
  }

  /** The list's members, last added first. */
  async members(viewer: SessionUser, id: ListId, page: PageRequest): Promise<Page<User>> {
    await this.own(viewer, id);
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findMembersPage(this.db, viewer.userId, id, cursor, limit),
      toUserView,
    );
  }

  /** The cursor that continues below the member `userId` (Mastodon's max_id); null when they are not on it. */
  async cursorBelowMember(viewer: SessionUser, id: ListId, userId: number): Promise<string | null> {
    await this.own(viewer, id);
    const cursor = await repo.findMemberCursor(this.db, id, userId);
    return cursor ? encodeCursor(cursor) : null;
  }

  /** People the owner follows, matching `q` by name or username prefix (or the latest followed), marked if on the list. */
  async candidates(viewer: SessionUser, id: ListId, q: string | undefined): Promise<ListCandidate[]> {
    await this.own(viewer, id);
    const prefix = (q ?? '').trim().replace(/^@/, '');
    const rows = await repo.findCandidates(this.db, viewer.userId, id, prefix, CANDIDATES);
    return rows.map((row) => ({ ...toUserView(row), inList: row.inList }));
  }

  /** Of the viewer's lists, those `userId` is on (Mastodon's accounts/:id/lists). */
  async listsWith(viewer: SessionUser, userId: UserId): Promise<List[]> {
    if (!(await findUser(this.db, { id: userId }, viewer.userId))) throw userNotFound();
    return (await repo.findListsWith(this.db, viewer.userId, userId)).map(toList);
  }

  /** The list's timeline: its members' posts and reposts, newest first, replies by its policy. */
  async timeline(viewer: SessionUser, id: ListId, page: PageRequest): Promise<Page<Post>> {
    const list = await this.own(viewer, id);
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findListPage(this.db, list, cursor, limit),
      toPost,
    );
  }

  /** For a person no longer found (deleted, suspended meanwhile). */
  unknownPerson() {
    return userNotFound();
  }

  private async own(viewer: SessionUser, id: ListId): Promise<repo.ListRow> {
    const list = await repo.findList(this.db, viewer.userId, id);
    if (!list) throw listNotFound();
    return list;
  }

  /** The owner's Home changes (an exclusive list's members): feeds and kept pages are built again. */
  private homeChanged(outbox: Outbox, me: number) {
    outbox.add({ type: 'visibility.changed', userIds: [me] });
  }

  private async people(viewerId: number, ids: readonly number[]): Promise<User[]> {
    const found: User[] = [];
    for (const id of new Set(ids)) {
      const row = await findUser(this.db, { id }, viewerId);
      if (row) found.push(toUserView(row));
    }
    return found;
  }
}

const toList = (row: repo.ListRow): List => ({
  id: String(row.id),
  title: row.title,
  repliesPolicy: row.repliesPolicy,
  exclusive: row.exclusive,
  memberCount: row.memberCount,
  createdAt: row.createdAt.toISOString(),
});
