import type { PollInput } from '@pipit/contract';
import type { Database, Tx } from '../../db/client.ts';
import { AppError, invalid, notFound, postNotFound } from '../../lib/errors.ts';
import { commitThenPublish, type EventBus, type Outbox } from '../../lib/events.ts';
import type { FederationLink } from '../../lib/federation-link.ts';
import type { PostId } from '../../lib/ids.ts';
import type { TimedJobs } from '../../lib/timed-jobs.ts';
import type { Notifier } from '../notifications/notifier.ts';
import { isPostHiddenFrom, readersHiding } from '../safety/safety.repository.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import * as repo from './polls.repository.ts';

/** The timed job that ends a poll (lib/timed-jobs.ts), keyed by its post's id. */
export const POLL_END = 'poll.end';

/**
 * Polls: a post's poll is written with the post (`createIn`, in the post's transaction, with the timed
 * job that ends it), voted in once per person (`vote`: one transaction, under the poll's lock, counts
 * kept with the votes), and ended by that job, which tells the author and every voter once — in the
 * transaction that deletes the job, so once in a cluster and after a restart too. The poll's id is
 * its post's.
 */
export class PollsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly notifier: Notifier,
    private readonly timedJobs: TimedJobs,
    /** Federation: a poll that ended goes out again with its final counts (lib/federation-link.ts). */
    private readonly federation: FederationLink | null = null,
  ) {
    timedJobs.register(POLL_END, (tx, outbox, payload) => this.end(tx, outbox, Number(payload.postId)));
  }

  /** Writes the post's poll inside the post's transaction and schedules its end there too; answers when it ends. */
  async createIn(tx: Tx, outbox: Outbox, postId: number, input: PollInput): Promise<Date> {
    const expiresAt = await repo.insertPoll(tx, postId, input);
    await this.timedJobs.scheduleIn(tx, outbox, POLL_END, String(postId), expiresAt, { postId });
    return expiresAt;
  }

  /**
   * For an edit of the post (inside its transaction): gives it `input` as its poll, or takes its poll
   * away (null). When the options or the kind of choice change, every vote and count goes (a vote for
   * other options would mean something else); the end moves to `expiresIn` from now either way, and
   * its job with it. Telling the voters of the edit is the edit's own business. Answers when the poll
   * ends, or null when the post has no poll now.
   */
  async replacePollIn(tx: Tx, outbox: Outbox, postId: number, input: PollInput | null): Promise<Date | null> {
    const before = await repo.findPoll(tx, postId, { lock: true });
    if (input === null) {
      if (before) await repo.deletePoll(tx, postId);
      await this.timedJobs.cancelIn(tx, POLL_END, String(postId));
      return null;
    }
    let expiresAt: Date;
    let reset = true;
    if (before) {
      reset =
        before.multiple !== input.multiple ||
        before.options.length !== input.options.length ||
        before.options.some((title, i) => title !== input.options[i]);
      expiresAt = await repo.updatePoll(tx, postId, input, reset);
    } else {
      expiresAt = await repo.insertPoll(tx, postId, input);
    }
    await this.timedJobs.scheduleIn(tx, outbox, POLL_END, String(postId), expiresAt, { postId });
    const counts = await repo.findCounts(tx, postId);
    if (counts) {
      const authorId = before?.authorId ?? (await repo.findPoll(tx, postId))?.authorId ?? 0;
      outbox.add({
        type: 'poll.updated',
        postId,
        authorId,
        voterId: null,
        counts,
        hideTotals: input.hideTotals,
        ended: false,
        reset,
      });
    }
    return expiresAt;
  }

  /** The post is being deleted (inside its transaction): its poll goes with it (cascade), and so does its end. */
  async removeIn(tx: Tx, postId: number): Promise<void> {
    await this.timedJobs.cancelIn(tx, POLL_END, String(postId));
  }

  /**
   * One vote in the post's poll: the options `choices` (indexes). Refused, with nothing written: the
   * post hidden from the voter or without a poll (404), ended (POLL_ENDED), an option that is not
   * there or several on a single-choice poll (INVALID_INPUT), a second vote (ALREADY_VOTED). The
   * author may vote in their own poll. The poll's row is locked first, so one person's two votes at
   * once are one vote and a refusal.
   */
  async vote(viewer: SessionUser, postId: PostId, choices: number[]): Promise<void> {
    const me = viewer.userId;
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const poll = await openPollFor(tx, me, postId);
      const missing = choices.find((choice) => choice >= poll.options.length);
      if (missing !== undefined) {
        throw invalid(
          'choices',
          `There is no option ${missing} in this poll: its options are numbered 0 to ${poll.options.length - 1}.`,
        );
      }
      if (!poll.multiple && choices.length > 1) {
        throw invalid('choices', 'This poll takes one choice only.');
      }
      if (await repo.hasVoted(tx, postId, me)) {
        throw new AppError('ALREADY_VOTED', 'You have already voted in this poll.');
      }
      await repo.insertVote(tx, postId, me, choices);
      outbox.afterCommit(() => this.federation?.current?.voted(me, postId, choices));
      const counts = (await repo.findCounts(tx, postId))!;
      outbox.add({
        type: 'poll.updated',
        postId,
        authorId: poll.authorId,
        voterId: me,
        counts,
        hideTotals: poll.hideTotals,
        ended: false,
        reset: false,
      });
    });
  }

  /**
   * A vote from elsewhere (modules/federation): servers send one activity per option chosen, so each adds its
   * option to the voter's vote — the first counts the voter, the others only the option (a poll of several
   * choices). What a member's vote would be refused for is refused the same way (hidden, ended, no such option),
   * and a second option in a single-choice poll or an option chosen already changes nothing.
   */
  async voteFromElsewhere(viewer: SessionUser, postId: PostId, position: number): Promise<void> {
    const me = viewer.userId;
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const poll = await openPollFor(tx, me, postId);
      if (position < 0 || position >= poll.options.length) throw invalid('choices', 'No such option.');
      const chosen = await repo.chosenBy(tx, postId, me);
      if (chosen.includes(position) || (!poll.multiple && chosen.length > 0)) return;
      if (chosen.length === 0) await repo.insertVote(tx, postId, me, [position]);
      else await repo.addChoice(tx, postId, me, position);
      outbox.add({
        type: 'poll.updated',
        postId,
        authorId: poll.authorId,
        voterId: me,
        counts: (await repo.findCounts(tx, postId))!,
        hideTotals: poll.hideTotals,
        ended: false,
        reset: false,
      });
    });
  }

  /**
   * The counts of a poll from elsewhere as its own server gives them (modules/federation: its Question, when it
   * arrives and at each Update): each option's votes and the voters, which the votes of members here are part of
   * once their server has counted them. Open pages get them live.
   */
  async countsFromElsewhere(postId: number, options: readonly number[], voters: number): Promise<void> {
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const poll = await repo.findPoll(tx, postId, { lock: true });
      if (!poll || options.length !== poll.options.length) return;
      await repo.setCounts(tx, postId, options, voters);
      outbox.add({
        type: 'poll.updated',
        postId,
        authorId: poll.authorId,
        voterId: null,
        counts: (await repo.findCounts(tx, postId))!,
        hideTotals: poll.hideTotals,
        ended: poll.expired,
        reset: false,
      });
    });
  }

  /**
   * The timed job: the poll has ended. Its author and everyone who voted (those who may still see the
   * post) get a `poll` notification, and open pages get the final counts. Nothing when the post is
   * gone; a poll whose end was moved later waits for its new time.
   */
  private async end(tx: Tx, outbox: Outbox, postId: number): Promise<void> {
    const poll = await repo.findPoll(tx, postId, { lock: true });
    if (!poll) return;
    if (!poll.expired) {
      await this.timedJobs.scheduleIn(tx, outbox, POLL_END, String(postId), poll.expiresAt, { postId });
      return;
    }
    outbox.afterCommit(() => this.federation?.current?.postUpdated(postId));
    const voters = await repo.findVoterIds(tx, postId);
    const hiding = new Set(await readersHiding(tx, postId, voters));
    await this.notifier.notifyPollEnded(
      tx,
      outbox,
      { authorId: poll.authorId, postId },
      voters.filter((id) => !hiding.has(id)),
    );
    const counts = await repo.findCounts(tx, postId);
    if (counts) {
      outbox.add({
        type: 'poll.updated',
        postId,
        authorId: poll.authorId,
        voterId: null,
        counts,
        hideTotals: poll.hideTotals,
        ended: true,
        reset: false,
      });
    }
  }
}

/**
 * The post's poll, locked, for a vote of `me`'s: 404 when the post is hidden from them or has no poll, POLL_ENDED
 * when it has ended (a member's vote and one from elsewhere are refused alike).
 */
async function openPollFor(tx: Tx, me: number, postId: PostId) {
  const poll = await repo.findPoll(tx, postId, { lock: true });
  if (await isPostHiddenFrom(tx, me, postId)) throw postNotFound();
  if (!poll) throw notFound('This post has no poll.');
  if (poll.expired) throw new AppError('POLL_ENDED', 'This poll has ended: it takes no more votes.');
  return poll;
}
