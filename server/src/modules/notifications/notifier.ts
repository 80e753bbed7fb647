import type { NotificationType } from '@pipit/contract';
import type { Executor } from '../../db/client.ts';
import type { Outbox } from '../../lib/events.ts';
import {
  deleteNotification,
  deleteNotificationsFrom,
  findRecipientsHiding,
  insertNotifications,
  type NewNotification,
} from './notifications.repository.ts';

/**
 * Where written notifications are pushed to devices (modules/push): deliveries queued in the
 * notification's transaction. A seam, so this module does not depend on the push module.
 */
export interface NotificationPusher {
  enqueueIn(tx: Executor, outbox: Outbox, written: readonly { id: number; userId: number }[]): Promise<void>;
}

/** Someone who might be told about an action, and why. */
export interface Candidate {
  userId: number;
  type: NotificationType;
}

/**
 * The one place that decides who is notified of an action, writes it and announces it (in the
 * manner of Mastodon's NotifyService). Rules: never yourself; one notification per person and action,
 * the first reason listed winning (a reply that also @mentions the parent's author is a reply);
 * none across a block, from someone muted, or about a post with the person's muted words. Called inside the action's transaction, so a notification exists exactly
 * when its like, follow or post does; the `notification.created` events go out after commit.
 */
export class Notifier {
  constructor(private readonly pusher: NotificationPusher | null = null) {}

  async notify(
    tx: Executor,
    outbox: Outbox,
    action: { actorId: number; postId: number | null },
    candidates: readonly Candidate[],
  ): Promise<void> {
    const seen = new Set<number>();
    const rows: NewNotification[] = [];
    for (const { userId, type } of candidates) {
      if (userId === action.actorId || seen.has(userId)) continue;
      seen.add(userId);
      rows.push({ userId, actorId: action.actorId, type, postId: action.postId });
    }
    // Nobody is told of someone they blocked, who blocked them or whom they muted, nor of a post with their muted words.
    const hiding = await findRecipientsHiding(tx, action.actorId, action.postId, [...seen]);
    const written = await insertNotifications(
      tx,
      rows.filter((row) => !hiding.has(row.userId)),
    );
    await this.announce(tx, outbox, written);
  }

  /**
   * A poll ended (Mastodon's `poll` notification): its author and each voter are told once, the author
   * as the actor — the one notification a person gets of their own post, as in Mastodon. The caller
   * leaves out voters the post is now hidden from; the rules above (blocks, mutes, muted words) apply
   * to the voters as to any notification.
   */
  async notifyPollEnded(
    tx: Executor,
    outbox: Outbox,
    poll: { authorId: number; postId: number },
    voterIds: readonly number[],
  ): Promise<void> {
    const voters = [...new Set(voterIds)].filter((id) => id !== poll.authorId);
    const hiding = await findRecipientsHiding(tx, poll.authorId, poll.postId, voters);
    const rows: NewNotification[] = [poll.authorId, ...voters.filter((id) => !hiding.has(id))].map((userId) => ({
      userId,
      actorId: poll.authorId,
      type: 'poll',
      postId: poll.postId,
    }));
    const written = await insertNotifications(tx, rows);
    await this.announce(tx, outbox, written);
  }

  /** Takes back the notification an undone action created (an unlike, an unfollow). */
  async withdraw(tx: Executor, notification: NewNotification): Promise<void> {
    if (notification.userId === notification.actorId) return;
    await deleteNotification(tx, notification);
  }

  /** Takes back the notifications of one kind that several people's actions created (about no post). */
  async withdrawFrom(tx: Executor, userId: number, type: NotificationType, actorIds: number[]): Promise<void> {
    await deleteNotificationsFrom(
      tx,
      userId,
      type,
      actorIds.filter((id) => id !== userId),
    );
  }

  /**
   * Tells the live streams of each notification written (`notification.created`, after the commit),
   * and queues its pushes to the recipient's devices (in the transaction).
   */
  private async announce(
    tx: Executor,
    outbox: Outbox,
    written: Awaited<ReturnType<typeof insertNotifications>>,
  ): Promise<void> {
    outbox.add(
      ...written.map((row) => ({
        type: 'notification.created' as const,
        userId: row.userId,
        actorId: row.actorId,
        notificationType: row.type,
        postId: row.postId,
      })),
    );
    await this.pusher?.enqueueIn(tx, outbox, written);
  }
}
