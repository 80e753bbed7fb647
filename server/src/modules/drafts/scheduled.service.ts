import { type CreatePostBody, createPostBody, type Post, type ScheduledPost, UNSENT_LIMITS } from '@pipit/contract';
import type { Database, Tx } from '../../db/client.ts';
import { AppError, invalid, notFound } from '../../lib/errors.ts';
import { commitThenPublish, type EventBus, Outbox } from '../../lib/events.ts';
import { parseId } from '../../lib/ids.ts';
import type { TimedJobs } from '../../lib/timed-jobs.ts';
import { createInputOf, type PostAuthor, type PostsService } from '../posts/posts.service.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { mediaIdsOf, toScheduledPost } from './drafts.pack.ts';
import * as repo from './drafts.repository.ts';

/** The timed job that publishes a scheduled post, keyed by its id. */
export const PUBLISH_JOB = 'post.scheduled';

export const scheduledNotFound = () => notFound('This scheduled post does not exist (or was published or cancelled).');
export const parseScheduledId = (wire: string): number => parseId(wire, scheduledNotFound);

/** Thrown inside a savepoint to roll back a post written only to check it. */
const CHECKED = Symbol('checked');

const limitReached = (message: string) => new AppError('LIMIT_REACHED', message);

/**
 * Posts scheduled for a time. Scheduling checks the post as creating it would — by creating it in a
 * savepoint rolled back at once, so every rule of PostsService.create applies and none is copied —
 * and stores the body with the visibility and quote policy that check resolved. The timed job
 * `post.scheduled` (lib/timed-jobs.ts, written in the same transaction, due at `scheduled_at`: never
 * before) publishes it: in the job's transaction the body is parsed again with the contract's schema,
 * the post created exactly as POST /api/posts creates it, and the row deleted, so it happens once
 * however many processes look. A publication refused then (the parent or quoted post deleted or
 * hidden, an image gone, the account suspended) keeps the row with the refusal as `failure`: shown
 * in the Scheduled list, where editing it schedules it again. Its images stay uploads of the author's,
 * held by the row (the uploads' sweep leaves them) until the post takes them.
 *
 * Lock order, so a change and a publication never deadlock: the job's row, then the scheduled post's
 * (the runner takes the job first; an edit or a cancel reschedules or removes the job first).
 */
export class ScheduledPostsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly posts: PostsService,
    private readonly timedJobs: TimedJobs,
  ) {
    timedJobs.register(PUBLISH_JOB, (tx, outbox, payload) => this.publishWithin(tx, outbox, payload));
  }

  /** Every scheduled post of the member's, soonest first. */
  async all(viewer: SessionUser): Promise<ScheduledPost[]> {
    const rows = await repo.findScheduledList(this.db, viewer.userId);
    return this.packed(viewer.userId, rows);
  }

  /** A page by id, newest id first, below `cursor` (an id): Mastodon's list. */
  async page(viewer: SessionUser, page: { cursor?: string | undefined; limit: number }) {
    const below = page.cursor && /^\d{1,18}$/.test(page.cursor) ? Number(page.cursor) : null;
    const rows = await repo.findScheduledByIdDesc(this.db, viewer.userId, below, page.limit + 1);
    const items = await this.packed(viewer.userId, rows.slice(0, page.limit));
    return { items, nextCursor: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
  }

  async get(viewer: SessionUser, id: number): Promise<ScheduledPost> {
    const row = await repo.findScheduled(this.db, viewer.userId, id);
    if (!row) throw scheduledNotFound();
    return (await this.packed(viewer.userId, [row]))[0]!;
  }

  /** Schedules a post at `at` (at least UNSENT_LIMITS.minLeadMs ahead, at most maxLeadMs), checked as a post now. */
  async schedule(viewer: SessionUser, post: CreatePostBody, at: Date): Promise<ScheduledPost> {
    const me = viewer.userId;
    refuseTime(at, true);
    const row = await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      if ((await repo.countScheduled(tx, me)) >= UNSENT_LIMITS.scheduled) {
        throw limitReached(
          `You can have at most ${UNSENT_LIMITS.scheduled} posts scheduled; cancel one to schedule another.`,
        );
      }
      await refuseDay(tx, me, at, null);
      const body = await this.checked(tx, viewer, post);
      const created = await repo.insertScheduled(tx, {
        authorId: me,
        body,
        mediaIds: mediaIdsOf(body),
        scheduledAt: at,
      });
      await this.timedJobs.scheduleIn(tx, outbox, PUBLISH_JOB, String(created.id), at, { id: created.id });
      return created;
    });
    return (await this.packed(me, [row]))[0]!;
  }

  /**
   * A new post, a new time or both: checked again and scheduled again (the same job key, so the job
   * moves), its failure cleared. A new time must be at least minLeadMs ahead; a kept one still ahead.
   */
  async update(
    viewer: SessionUser,
    id: number,
    change: { post?: CreatePostBody | undefined; scheduledAt?: Date | undefined },
  ): Promise<ScheduledPost> {
    const me = viewer.userId;
    const current = await repo.findScheduled(this.db, me, id);
    if (!current) throw scheduledNotFound();
    const at = change.scheduledAt ?? current.scheduledAt;
    refuseTime(at, change.scheduledAt !== undefined);
    const row = await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      // The job first (see the lock order above): a publication under way finishes before this goes on.
      await this.timedJobs.scheduleIn(tx, outbox, PUBLISH_JOB, String(id), at, { id });
      const locked = await repo.lockScheduled(tx, id);
      if (!locked || locked.authorId !== me) throw scheduledNotFound();
      if (at.getTime() !== locked.scheduledAt.getTime()) await refuseDay(tx, me, at, id);
      const body = await this.checked(tx, viewer, change.post ?? (locked.body as CreatePostBody));
      return repo.updateScheduled(tx, id, { body, mediaIds: mediaIdsOf(body), scheduledAt: at });
    });
    return (await this.packed(me, [row]))[0]!;
  }

  /** Cancels a scheduled post and its job; its images are uploads again (swept after their day unless posted). */
  async cancel(viewer: SessionUser, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.timedJobs.cancelIn(tx, PUBLISH_JOB, String(id));
      if (!(await repo.deleteScheduled(tx, viewer.userId, id))) throw scheduledNotFound();
    });
  }

  /**
   * The timed job: publishes scheduled post `payload.id` in the job's transaction (what it writes and
   * the row's deletion commit together), or records why it cannot be published now.
   */
  async publishWithin(tx: Tx, outbox: Outbox, payload: Record<string, unknown>): Promise<void> {
    const id = Number(payload.id);
    const row = await repo.lockScheduled(tx, id);
    // Cancelled (or its author deleted) meanwhile, or already refused: nothing to do.
    if (!row || row.failure !== null) return;
    const fail = (code: string, message: string) =>
      repo.markScheduledFailed(tx, id, { code, message, at: new Date().toISOString() });
    const parsed = createPostBody.safeParse(row.body);
    if (!parsed.success) return fail('INVALID_INPUT', parsed.error.issues[0]?.message ?? 'The post is not valid.');
    const author = await repo.findAuthor(tx, row.authorId);
    if (!author) return;
    if (author.suspendedAt !== null) return fail('FORBIDDEN', 'Your account was suspended when this post was due.');
    const written = new Outbox();
    try {
      await tx.transaction((savepoint) =>
        this.posts.create(author, createInputOf(parsed.data), { tx: savepoint, outbox: written }),
      );
    } catch (error) {
      // Refused as a post would be now: kept, with the reason, for the author to edit or cancel.
      if (error instanceof AppError) return fail(error.code, error.message);
      throw error;
    }
    // Its events and its after-commit work (its card, its poll's timer) wait for the job's commit.
    outbox.absorb(written);
    await repo.deleteScheduled(tx, null, id);
  }

  /**
   * The post checked as creating it now would check it (written in a savepoint, then rolled back),
   * answered with the visibility and quote policy that resolved, so it is published as it was seen.
   * A refusal names the body's field (`post.media`, …).
   */
  private async checked(tx: Tx, author: PostAuthor, post: CreatePostBody): Promise<CreatePostBody> {
    let view: Post | null = null;
    try {
      await tx.transaction(async (savepoint) => {
        view = await this.posts.create(author, createInputOf(post), { tx: savepoint, outbox: new Outbox() });
        throw CHECKED;
      });
    } catch (error) {
      if (error !== CHECKED) {
        if (error instanceof AppError && error.field) throw invalid(`post.${error.field}`, error.message);
        throw error;
      }
    }
    const seen = view as Post | null;
    if (!seen) throw new Error('the checked post was not written');
    return { ...post, visibility: seen.visibility, quotePolicy: seen.quotePolicy };
  }

  private async packed(authorId: number, rows: repo.ScheduledRow[]): Promise<ScheduledPost[]> {
    const uploads = await repo.findHeldUploads(
      this.db,
      authorId,
      rows.flatMap((r) => r.mediaIds),
    );
    return rows.map((row) => toScheduledPost(row, uploads));
  }
}

/** A time at least minLeadMs ahead (when `fresh`: asked for now) or still ahead (a kept one), at most maxLeadMs. */
function refuseTime(at: Date, fresh: boolean): void {
  const ahead = at.getTime() - Date.now();
  if (fresh && ahead < UNSENT_LIMITS.minLeadMs) {
    throw invalid(
      'scheduledAt',
      `A post can be scheduled ${UNSENT_LIMITS.minLeadMs / 60_000} minutes ahead at the soonest; choose a later time.`,
    );
  }
  if (!fresh && ahead <= 0) throw invalid('scheduledAt', 'This time has passed: choose a new one.');
  if (ahead > UNSENT_LIMITS.maxLeadMs) {
    throw invalid('scheduledAt', 'A post can be scheduled at most a year ahead; choose a sooner time.');
  }
}

/** At most UNSENT_LIMITS.scheduledPerDay posts due on one (UTC) day. */
async function refuseDay(tx: Tx, authorId: number, at: Date, exceptId: number | null): Promise<void> {
  if ((await repo.countScheduledOnDay(tx, authorId, at, exceptId)) >= UNSENT_LIMITS.scheduledPerDay) {
    throw limitReached(
      `You can schedule at most ${UNSENT_LIMITS.scheduledPerDay} posts for one day (UTC); choose another day.`,
    );
  }
}
