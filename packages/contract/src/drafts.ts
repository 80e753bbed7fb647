import { z } from 'zod';
import { idSchema } from './common.ts';
import { mediaAttachment } from './media.ts';
import { type CreatePostBody, createPostBody } from './posts.ts';

/**
 * Posts not sent yet: drafts (kept on the server, so they follow the person across devices) and
 * scheduled posts (published by the server at their time). Both store the create body whole
 * (`createPostBody`), so what posts gain (content warnings, polls) comes along without a change here.
 */
export const UNSENT_LIMITS = {
  /** Drafts per member. */
  drafts: 100,
  /** Scheduled posts per member waiting at once (Mastodon's own limit). */
  scheduled: 300,
  /** Scheduled posts per member on one day (UTC; Mastodon's own limit). */
  scheduledPerDay: 25,
  /** A post is scheduled at least this far ahead (Mastodon's 5 minutes)… */
  minLeadMs: 5 * 60_000,
  /** …and at most this far (a year). */
  maxLeadMs: 366 * 86_400_000,
} as const;

/**
 * A draft's post: the create body as far as written. Every field of `createPostBody` (the same rules
 * field by field), each optional (a draft need not be sendable yet; it is checked whole when sent).
 */
export const draftPostBody = z.strictObject(createPostBody.shape).partial();
export type DraftPostBody = z.output<typeof draftPostBody>;

/** POST /api/drafts, PATCH /api/drafts/:id: the draft's post (a PATCH replaces it whole); some text or an image. */
export const saveDraftBody = z.strictObject({
  post: draftPostBody.refine((post) => (post.text ?? '').length > 0 || (post.media?.length ?? 0) > 0, {
    message: 'Nothing to save: write something or add an image',
    path: ['text'],
  }),
});
export type SaveDraftBody = z.input<typeof saveDraftBody>;

/** A stored body as it is answered (read back from the database, not parsed again on the way out). */
const stored = <T>() => z.custom<T>((value) => typeof value === 'object' && value !== null);

export const draft = z.object({
  id: idSchema,
  /** What was written: the create body's fields as saved. */
  post: stored<DraftPostBody>(),
  /** The images it holds (still uploads of the author's not in a post), in its order, with its alt text. */
  media: z.array(mediaAttachment),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Draft = z.infer<typeof draft>;

/** GET /api/drafts: every draft of the member's (at most UNSENT_LIMITS.drafts), the latest edited first. */
export const draftList = z.object({ items: z.array(draft) });
export type DraftList = z.infer<typeof draftList>;

/** An ISO 8601 time with its offset (`2026-12-01T09:30:00Z`, `…+01:00`). */
export const scheduleTime = z.iso.datetime({
  offset: true,
  error: 'scheduledAt must be an ISO 8601 date and time with its offset, e.g. 2026-12-01T09:30:00Z',
});

/**
 * POST /api/scheduled-posts: a post (exactly what POST /api/posts takes) and when to publish it — at
 * least UNSENT_LIMITS.minLeadMs ahead, at most maxLeadMs. Checked now as a post would be (a reply to
 * a post one cannot see, an image not one's upload… are refused now) and again at its time.
 */
export const schedulePostBody = z.strictObject({ post: createPostBody, scheduledAt: scheduleTime });
export type SchedulePostBody = z.input<typeof schedulePostBody>;

/** PATCH /api/scheduled-posts/:id: a new post (whole), a new time, or both; either reschedules it. */
export const updateScheduledPostBody = z
  .strictObject({ post: createPostBody.optional(), scheduledAt: scheduleTime.optional() })
  .refine((b) => b.post !== undefined || b.scheduledAt !== undefined, {
    message: 'Send a post or a scheduledAt to change',
  });
export type UpdateScheduledPostBody = z.input<typeof updateScheduledPostBody>;

/**
 * Why a scheduled post was not published at its time (its parent or quoted post deleted, an image
 * gone, the account suspended…): the refusal a post would have had then. It stays in the list until
 * edited (which schedules it again) or cancelled.
 */
export const scheduledFailure = z.object({ code: z.string(), message: z.string(), at: z.string() });

export const scheduledPost = z.object({
  id: idSchema,
  scheduledAt: z.string(),
  /** The post as it will be sent (visibility and quote policy as they were resolved when scheduled). */
  post: stored<CreatePostBody>(),
  /** Its images (held until it is published or cancelled), in order, with their alt text. */
  media: z.array(mediaAttachment),
  failure: scheduledFailure.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ScheduledPost = z.infer<typeof scheduledPost>;

/** GET /api/scheduled-posts: every scheduled post of the member's (at most UNSENT_LIMITS.scheduled), soonest first. */
export const scheduledPostList = z.object({ items: z.array(scheduledPost) });
export type ScheduledPostList = z.infer<typeof scheduledPostList>;
