import type { User } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { type Cursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import { isForeignKeyViolation } from '../../lib/db-errors.ts';
import { AppError, forbidden, userNotFound } from '../../lib/errors.ts';
import { commitThenPublish, type EventBus } from '../../lib/events.ts';
import type { UserId } from '../../lib/ids.ts';
import type { Notifier } from '../notifications/notifier.ts';
import { isOutOfReach, lockPair } from '../safety/safety.repository.ts';
import { type SessionUser, type Viewer, viewerIdOf } from '../sessions/sessions.service.ts';
import { findUser, findUsers, userExists } from '../users/users.repository.ts';
import { toUserView } from './follows.pack.ts';
import * as repo from './follows.repository.ts';

const cannotFollowSelf = () => new AppError('CANNOT_FOLLOW_SELF', 'You cannot follow yourself.');

export class FollowsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly notifier: Notifier,
  ) {}

  /**
   * Follows someone (once, however often asked): the follow, both counters and the 'follow'
   * notification (through the notifier) in one transaction. Answers the followed person as the viewer now sees them.
   */
  async follow(viewer: SessionUser, followeeId: UserId): Promise<User> {
    const me = viewer.userId;
    if (followeeId === me) throw cannotFollowSelf();
    try {
      await commitThenPublish(this.db, this.events, async (tx, outbox) => {
        await lockPair(tx, me, followeeId);
        if (await isOutOfReach(tx, me, followeeId)) throw forbidden('You cannot follow this account.');
        if (!(await repo.insertFollow(tx, me, followeeId))) return;
        await repo.addToFollowCounts(tx, me, followeeId, 1);
        outbox.add({ type: 'user.followed', followerId: me, followeeId });
        await this.notifier.notify(tx, outbox, { actorId: me, postId: null }, [{ userId: followeeId, type: 'follow' }]);
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw userNotFound();
      throw error;
    }
    return this.profile(viewer, followeeId);
  }

  /** Stops following (a no-op when not following), removing the notification the follow created. */
  async unfollow(viewer: SessionUser, followeeId: UserId): Promise<User> {
    const me = viewer.userId;
    if (followeeId === me) throw cannotFollowSelf();
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      if (!(await repo.deleteFollow(tx, me, followeeId))) return;
      await repo.addToFollowCounts(tx, me, followeeId, -1);
      outbox.add({ type: 'user.unfollowed', followerId: me, followeeId });
      await this.notifier.withdraw(tx, { userId: followeeId, actorId: me, type: 'follow', postId: null });
    });
    return this.profile(viewer, followeeId);
  }

  /** The people following someone, most recent follow first. */
  async followers(viewer: Viewer, userId: UserId, page: PageRequest): Promise<Page<User>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) =>
        repo.findFollowersPage(this.db, viewerIdOf(viewer), userId, cursor, limit),
      toUserView,
      () => this.ensureUser(userId),
    );
  }

  /** The people someone follows, most recent follow first. */
  async following(viewer: Viewer, userId: UserId, page: PageRequest): Promise<Page<User>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) =>
        repo.findFollowingPage(this.db, viewerIdOf(viewer), userId, cursor, limit),
      toUserView,
      () => this.ensureUser(userId),
    );
  }

  /** Of `ids`, those who follow the viewer (Mastodon's followed_by): one probe each of follows' key. */
  async followersAmong(viewer: SessionUser, ids: readonly number[]): Promise<Set<number>> {
    return repo.findFollowersAmong(this.db, viewer.userId, ids);
  }

  /** For each of `ids`, up to `perPerson` people the viewer follows who follow them (Mastodon's familiar followers). */
  async familiarFollowers(
    viewer: SessionUser,
    ids: readonly number[],
    perPerson: number,
  ): Promise<Map<number, User[]>> {
    const pairs = await repo.findFamiliarFollowerIds(this.db, viewer.userId, ids, perPerson);
    const people = new Map(
      (await findUsers(this.db, [...new Set(pairs.map((p) => p.followerId))], viewer.userId)).map((row) => [
        row.id,
        row,
      ]),
    );
    const found = new Map<number, User[]>(ids.map((id) => [id, []]));
    for (const { of, followerId } of pairs) {
      const row = people.get(followerId);
      if (row) found.get(of)?.push(toUserView(row));
    }
    return found;
  }

  private async ensureUser(id: UserId): Promise<void> {
    if (!(await userExists(this.db, id))) throw userNotFound();
  }

  private async profile(viewer: SessionUser, id: number): Promise<User> {
    const row = await findUser(this.db, { id }, viewer.userId);
    if (!row) throw userNotFound();
    return toUserView(row);
  }
}
