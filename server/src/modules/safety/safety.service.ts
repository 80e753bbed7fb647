import type { MutedAccount, MutedWord, User } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { type Cursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import { invalid, notFound, userNotFound } from '../../lib/errors.ts';
import { commitThenPublish, type EventBus } from '../../lib/events.ts';
import type { FederationLink } from '../../lib/federation-link.ts';
import type { UserId } from '../../lib/ids.ts';
import { toUserView } from '../follows/follows.pack.ts';
import { addToFollowCounts, deleteFollowRequestsBetween } from '../follows/follows.repository.ts';
import { deleteNotificationsBetween, markReadFrom } from '../notifications/notifications.repository.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { findUser, userExists } from '../users/users.repository.ts';
import * as repo from './safety.repository.ts';
import { mutedWordPattern } from './visibility.ts';

/** Expired mutes removed per statement by the sweep. */
const EXPIRED_MUTES_BATCH = 500;
/** How often each process removes mutes that ran out (until then the rules already ignore them). */
export const MUTE_SWEEP_INTERVAL_MS = 5 * 60_000;

/**
 * Blocks and mutes: what a member does to stop seeing someone. What they hide is decided in one
 * place (visibility.ts); this service writes them, and announces `visibility.changed` so home feeds
 * and kept first pages of the people concerned are built again without what is now hidden.
 */
export class SafetyService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    /** Federation: a block of someone elsewhere, or its end, is sent to them (lib/federation-link.ts). */
    private readonly federation: FederationLink | null = null,
  ) {}

  /**
   * Blocks someone (once, however often asked): in one transaction, the follows between the two are
   * removed both ways (with their counts), so are follow requests either way, and the notifications
   * between them go. Answers the person.
   */
  async block(viewer: SessionUser, targetId: UserId): Promise<User> {
    const me = viewer.userId;
    if (targetId === me) throw invalid('id', 'You cannot block yourself.');
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      await repo.lockPair(tx, me, targetId);
      if (!(await repo.insertBlock(tx, me, targetId))) {
        if (!(await userExists(tx, targetId))) throw userNotFound();
        return; // Blocked already.
      }
      for (const [followerId, followeeId] of await repo.deleteFollowsBetween(tx, me, targetId)) {
        await addToFollowCounts(tx, followerId, followeeId, -1);
        outbox.add({ type: 'user.unfollowed', followerId, followeeId });
      }
      // Requests waiting either way go too (their notifications with the rest below).
      await deleteFollowRequestsBetween(tx, me, targetId);
      await deleteNotificationsBetween(tx, me, targetId);
      outbox.add({ type: 'visibility.changed', userIds: [me, targetId] });
      outbox.afterCommit(() => this.federation?.current?.blocked(me, targetId));
    });
    return this.profile(me, targetId);
  }

  /** Unblocks (a no-op when there was no block). Nothing comes back by itself: no follow is restored. */
  async unblock(viewer: SessionUser, targetId: UserId): Promise<User> {
    const me = viewer.userId;
    if (targetId === me) throw invalid('id', 'You cannot block yourself.');
    if (await repo.deleteBlock(this.db, me, targetId)) {
      await this.events.publish([{ type: 'visibility.changed', userIds: [me, targetId] }]);
      this.federation?.current?.unblocked(me, targetId);
    }
    return this.profile(me, targetId);
  }

  /**
   * Mutes someone until unmuted (`durationSeconds` null or left out) or for that long; muting again
   * sets the new end. Their unread notifications to the member are marked read (silently: nothing
   * tells them). Answers the person.
   */
  async mute(viewer: SessionUser, targetId: UserId, durationSeconds: number | null | undefined): Promise<User> {
    const me = viewer.userId;
    if (targetId === me) throw invalid('id', 'You cannot mute yourself.');
    const expiresAt = durationSeconds ? new Date(Date.now() + durationSeconds * 1000) : null;
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      if (!(await repo.upsertMute(tx, me, targetId, expiresAt))) throw userNotFound();
      await markReadFrom(tx, me, [targetId]);
      outbox.add({ type: 'visibility.changed', userIds: [me] }, { type: 'notifications.read', userId: me });
    });
    return this.profile(me, targetId);
  }

  async unmute(viewer: SessionUser, targetId: UserId): Promise<User> {
    const me = viewer.userId;
    if (targetId === me) throw invalid('id', 'You cannot mute yourself.');
    if (await repo.deleteMute(this.db, me, targetId)) {
      await this.events.publish([{ type: 'visibility.changed', userIds: [me] }]);
    }
    return this.profile(me, targetId);
  }

  /** The Blocked accounts list, newest block first. */
  async blocked(viewer: SessionUser, page: PageRequest): Promise<Page<User>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findBlockedPage(this.db, viewer.userId, cursor, limit),
      toUserView,
    );
  }

  /** The Muted accounts list (mutes that ran out left out), newest mute first. */
  async muted(viewer: SessionUser, page: PageRequest): Promise<Page<MutedAccount>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findMutedPage(this.db, viewer.userId, cursor, limit),
      (row) => ({ ...toUserView(row), mutedUntil: row.mutedUntil?.toISOString() ?? null }),
    );
  }

  async mutedWords(viewer: SessionUser): Promise<{ items: MutedWord[] }> {
    const rows = await repo.findMutedWords(this.db, viewer.userId);
    return { items: rows.map(toMutedWord) };
  }

  /** Mutes a word or phrase (muting one again answers the one there); at most MAX_MUTED_WORDS. */
  async addMutedWord(viewer: SessionUser, phrase: string, max: number): Promise<MutedWord> {
    const me = viewer.userId;
    const row = await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      // Counted in the transaction that adds; two adds at once may both pass, which leaves 101, not a leak.
      if ((await repo.countMutedWords(tx, me)) >= max) {
        throw invalid('phrase', `You can mute at most ${max} words or phrases; remove one first.`);
      }
      outbox.add({ type: 'visibility.changed', userIds: [me] });
      return repo.insertMutedWord(tx, me, phrase, mutedWordPattern(phrase));
    });
    return toMutedWord(row);
  }

  async removeMutedWord(viewer: SessionUser, id: number): Promise<void> {
    if (!(await repo.deleteMutedWord(this.db, viewer.userId, id))) throw notFound('No such muted word.');
    await this.events.publish([{ type: 'visibility.changed', userIds: [viewer.userId] }]);
  }

  /** Removes mutes that ran out, so the home feeds of the people who had them are built again with those posts. */
  async expireMutes(): Promise<void> {
    for (;;) {
      const { removed, muters } = await repo.deleteExpiredMutes(this.db, EXPIRED_MUTES_BATCH);
      if (muters.length > 0) await this.events.publish([{ type: 'visibility.changed', userIds: muters }]);
      if (removed < EXPIRED_MUTES_BATCH) return;
    }
  }

  private async profile(viewerId: number, id: number): Promise<User> {
    const row = await findUser(this.db, { id }, viewerId);
    if (!row) throw userNotFound();
    return toUserView(row);
  }
}

const toMutedWord = (row: { id: number; phrase: string; createdAt: Date }): MutedWord => ({
  id: String(row.id),
  phrase: row.phrase,
  createdAt: row.createdAt.toISOString(),
});
