import type { User } from '@pipit/contract';
import type { Database, Executor } from '../../db/client.ts';
import { type Cursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import { isForeignKeyViolation } from '../../lib/db-errors.ts';
import { AppError, forbidden, notFound, userNotFound } from '../../lib/errors.ts';
import { commitThenPublish, type EventBus, type Outbox } from '../../lib/events.ts';
import type { FederationLink } from '../../lib/federation-link.ts';
import type { UserId } from '../../lib/ids.ts';
import type { Notifier } from '../notifications/notifier.ts';
import { isOutOfReach, lockPair } from '../safety/safety.repository.ts';
import { type SessionUser, type Viewer, viewerIdOf } from '../sessions/sessions.service.ts';
import { findUser, findUsers, userExists } from '../users/users.repository.ts';
import { toUserView } from './follows.pack.ts';
import * as repo from './follows.repository.ts';

const cannotFollowSelf = () => new AppError('CANNOT_FOLLOW_SELF', 'You cannot follow yourself.');
const noRequest = () => notFound('No request from this person is waiting.');

export class FollowsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly notifier: Notifier,
    private readonly federation: FederationLink,
  ) {}

  /**
   * Follows someone (once, however often asked): the follow, both counters and the 'follow'
   * notification (through the notifier) in one transaction. When they approve followers (a locked
   * account), a request instead, with a 'follow_request' notification: it becomes the follow when
   * they approve it. Answers the person as the viewer now sees them (followRequested while waiting).
   * Someone on another server is always asked first: the request waits for their server's Accept
   * (modules/federation sends the Follow once this has committed; asking again sends it again).
   */
  async follow(viewer: SessionUser, followeeId: UserId): Promise<User> {
    await this.followAs(viewer.userId, followeeId);
    return this.profile(viewer, followeeId);
  }

  /**
   * `follow` for someone who is not signed in here: a remote person whose Follow arrived
   * (modules/federation). The same rules; answers whether it is a follow now or a request waiting.
   */
  async followAs(me: number, followeeId: UserId): Promise<'following' | 'requested'> {
    if (followeeId === me) throw cannotFollowSelf();
    let outcome: 'following' | 'requested' = 'following';
    try {
      await commitThenPublish(this.db, this.events, async (tx, outbox) => {
        await lockPair(tx, me, followeeId);
        if (await isOutOfReach(tx, me, followeeId)) throw forbidden('You cannot follow this account.');
        await repo.lockFollowsOf(tx, followeeId, 'shared');
        const followee = await repo.followeeOf(tx, followeeId);
        if (followee === null) throw userNotFound();
        if (followee.remote) {
          // Between two people elsewhere nothing is Pipit's to keep (no server would send it).
          if (await repo.isRemote(tx, me)) throw forbidden('You cannot follow this account.');
          if (await repo.followExists(tx, me, followeeId)) return;
          outcome = 'requested';
          await repo.insertFollowRequest(tx, me, followeeId);
          outbox.afterCommit(() => this.federation.current?.followed(me, followeeId));
          return;
        }
        if (followee.locked) {
          if (await repo.followExists(tx, me, followeeId)) return; // Following already: nothing to ask.
          outcome = 'requested';
          if (!(await repo.insertFollowRequest(tx, me, followeeId))) return;
          await this.notifier.notify(tx, outbox, { actorId: me, postId: null }, [
            { userId: followeeId, type: 'follow_request' },
          ]);
          return;
        }
        await this.addFollow(tx, outbox, me, followeeId);
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw userNotFound();
      throw error;
    }
    return outcome;
  }

  /**
   * Stops following (a no-op when not following), removing the notification the follow created; a
   * request still waiting is withdrawn the same way (the "Requested" button's undo).
   */
  async unfollow(viewer: SessionUser, followeeId: UserId): Promise<User> {
    await this.unfollowAs(viewer.userId, followeeId);
    return this.profile(viewer, followeeId);
  }

  /** `unfollow` for a remote person whose Undo(Follow) arrived (modules/federation). */
  async unfollowAs(me: number, followeeId: UserId): Promise<void> {
    if (followeeId === me) throw cannotFollowSelf();
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const requested = await repo.deleteFollowRequest(tx, me, followeeId);
      if (requested) {
        await this.notifier.withdraw(tx, { userId: followeeId, actorId: me, type: 'follow_request', postId: null });
      }
      const followed = await repo.deleteFollow(tx, me, followeeId);
      // Someone elsewhere hears of it (an Undo of the Follow), whether it was a follow or a request.
      if (requested || followed) outbox.afterCommit(() => this.federation.current?.unfollowed(me, followeeId));
      if (!followed) return;
      await repo.addToFollowCounts(tx, me, followeeId, -1);
      outbox.add({ type: 'user.unfollowed', followerId: me, followeeId });
      await this.notifier.withdraw(tx, { userId: followeeId, actorId: me, type: 'follow', postId: null });
    });
  }

  /** The requests waiting on the viewer (a locked account), newest first. */
  async requests(viewer: SessionUser, page: PageRequest): Promise<Page<User>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findFollowRequestsPage(this.db, viewer.userId, cursor, limit),
      toUserView,
    );
  }

  /** How many requests wait on the viewer (Mastodon's source.follow_requests_count). */
  async requestCount(viewer: SessionUser): Promise<number> {
    return repo.countFollowRequests(this.db, viewer.userId);
  }

  /** Of `ids`, those whose request to follow the viewer waits (Mastodon's requested_by). */
  async requestersAmong(viewer: SessionUser, ids: readonly number[]): Promise<Set<number>> {
    return repo.findRequestersAmong(this.db, viewer.userId, ids);
  }

  /**
   * Approves `requesterId`'s request: in one transaction the request and its notification go and the
   * follow is made as any follow is (counters, `user.followed`, so the requester's home takes the
   * viewer's posts). Like Mastodon, nobody is notified of it: the owner did it, and the requester sees
   * the follow. NOT_FOUND when no request from them waits (withdrawn, rejected, their account deleted).
   */
  async approve(viewer: SessionUser, requesterId: UserId): Promise<User> {
    const me = viewer.userId;
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      await lockPair(tx, me, requesterId);
      if (!(await repo.deleteFollowRequest(tx, requesterId, me))) throw noRequest();
      await this.notifier.withdraw(tx, { userId: me, actorId: requesterId, type: 'follow_request', postId: null });
      // A suspended requester's request is not listed; it cannot be approved either.
      if (await isOutOfReach(tx, me, requesterId)) throw noRequest();
      await this.addFollow(tx, outbox, requesterId, me, false);
      outbox.afterCommit(() => this.federation.current?.answeredFollow(me, requesterId, true));
    });
    return this.profile(viewer, requesterId);
  }

  /** Rejects `requesterId`'s request (it and its notification go; they are not told). NOT_FOUND as approve. */
  async reject(viewer: SessionUser, requesterId: UserId): Promise<User> {
    const me = viewer.userId;
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      if (!(await repo.deleteFollowRequest(tx, requesterId, me))) throw noRequest();
      await this.notifier.withdraw(tx, { userId: me, actorId: requesterId, type: 'follow_request', postId: null });
      // A requester elsewhere is told (a Reject): their server keeps no pending follow.
      outbox.afterCommit(() => this.federation.current?.answeredFollow(me, requesterId, false));
    });
    return this.profile(viewer, requesterId);
  }

  /**
   * The remote person `followeeId` accepted `followerId`'s request (their server's Accept,
   * modules/federation): the follow is made as an approval makes it. False when no request waited.
   */
  async acceptedBy(followeeId: number, followerId: number): Promise<boolean> {
    return commitThenPublish(this.db, this.events, async (tx, outbox) => {
      await lockPair(tx, followerId, followeeId);
      if (!(await repo.deleteFollowRequest(tx, followerId, followeeId))) return false;
      await this.addFollow(tx, outbox, followerId, followeeId, false);
      return true;
    });
  }

  /**
   * The remote person `followeeId` rejected `followerId`'s request, or took back an accepted follow
   * (their server's Reject): the request or the follow goes. False when there was neither.
   */
  async rejectedBy(followeeId: number, followerId: number): Promise<boolean> {
    return commitThenPublish(this.db, this.events, async (tx, outbox) => {
      await lockPair(tx, followerId, followeeId);
      const requested = await repo.deleteFollowRequest(tx, followerId, followeeId);
      if (!(await repo.deleteFollow(tx, followerId, followeeId))) return requested;
      await repo.addToFollowCounts(tx, followerId, followeeId, -1);
      outbox.add({ type: 'user.unfollowed', followerId, followeeId });
      return true;
    });
  }

  /**
   * Approves every request waiting on `userId`, inside the caller's transaction (turning "Approve
   * followers" off, before the setting is written): the follows and counters in two statements, a
   * `user.followed` each for the home feeds, the requests' notifications withdrawn. First, before any
   * row is locked, it waits for follows of theirs under way, and holds off new ones until the commit.
   */
  async approveAllWithin(tx: Executor, outbox: Outbox, userId: number): Promise<void> {
    await repo.lockFollowsOf(tx, userId, 'exclusive');
    const requesters = await repo.deleteFollowRequestsTo(tx, userId);
    if (requesters.length === 0) return;
    await this.notifier.withdrawFrom(tx, userId, 'follow_request', requesters);
    for (const followerId of await repo.insertFollowsOf(tx, requesters, userId)) {
      outbox.add({ type: 'user.followed', followerId, followeeId: userId });
      outbox.afterCommit(() => this.federation.current?.answeredFollow(userId, followerId, true));
    }
  }

  /** The follow itself: the row, both counters, the event and (unless approved) the 'follow' notification. */
  private async addFollow(
    tx: Executor,
    outbox: Outbox,
    followerId: number,
    followeeId: number,
    notify = true,
  ): Promise<void> {
    if (!(await repo.insertFollow(tx, followerId, followeeId))) return;
    await repo.addToFollowCounts(tx, followerId, followeeId, 1);
    outbox.add({ type: 'user.followed', followerId, followeeId });
    if (notify) {
      await this.notifier.notify(tx, outbox, { actorId: followerId, postId: null }, [
        { userId: followeeId, type: 'follow' },
      ]);
    }
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
