import { z } from 'zod';
import { CONTROL_CHARS, fitsGraphemes, hasTooManyMarks, hasVisibleContent, idSchema } from './common.ts';

/**
 * A poll's limits, in one place: the composer, the server's checks and the Mastodon instance
 * configuration (`configuration.polls`) read them here. Durations are seconds.
 */
export const POLL_LIMITS = {
  minOptions: 2,
  maxOptions: 4,
  /** User-perceived characters per option, after trimming. */
  optionMax: 50,
  /** 5 minutes. */
  minExpiresIn: 300,
  /** 7 days. */
  maxExpiresIn: 604_800,
} as const;

/** The durations the composer offers (seconds): 5 min, 30 min, 1 h, 6 h, 1 d, 3 d, 7 d. */
export const POLL_DURATIONS = [300, 1_800, 3_600, 21_600, 86_400, 259_200, 604_800] as const;
/** The composer's default duration: one day. */
export const DEFAULT_POLL_DURATION = 86_400;

/** One option's text: 1–optionMax characters after trimming, something visible, no control characters. */
export const pollOptionTitle = z
  .string()
  .max(POLL_LIMITS.optionMax * 16, `An option must be at most ${POLL_LIMITS.optionMax} characters`)
  .transform((t) => t.trim())
  .refine((t) => t.length > 0, 'An option must not be empty')
  .refine((t) => hasVisibleContent(t), 'An option must have something to read, not only spaces')
  .refine((t) => !hasTooManyMarks(t), 'An option has too many accent marks on one character')
  .refine(
    (t) => fitsGraphemes(t, POLL_LIMITS.optionMax),
    `An option must be at most ${POLL_LIMITS.optionMax} characters`,
  )
  .refine((t) => !CONTROL_CHARS.test(t), 'An option must not contain control characters');

/**
 * A poll as a post is written with it (createPostBody.poll; drafts and scheduled posts keep the same
 * shape): its options in order (2–4, distinct ignoring case), how long it stays open (seconds, 5
 * minutes to 7 days), single or multiple choice, and whether the counts stay hidden until it ends.
 */
export const pollInput = z.strictObject({
  options: z
    .array(pollOptionTitle)
    .min(POLL_LIMITS.minOptions, `A poll needs at least ${POLL_LIMITS.minOptions} options`)
    .max(POLL_LIMITS.maxOptions, `A poll can have at most ${POLL_LIMITS.maxOptions} options`)
    .refine(
      (options) => new Set(options.map((o) => o.toLowerCase())).size === options.length,
      'The options of a poll must all be different',
    ),
  expiresIn: z
    .number({ error: 'expiresIn must be a number of seconds' })
    .int('expiresIn must be a whole number of seconds')
    .min(POLL_LIMITS.minExpiresIn, `A poll must stay open at least ${POLL_LIMITS.minExpiresIn / 60} minutes`)
    .max(POLL_LIMITS.maxExpiresIn, `A poll can stay open at most ${POLL_LIMITS.maxExpiresIn / 86_400} days`),
  multiple: z.boolean().default(false),
  hideTotals: z.boolean().default(false),
});
/** What is sent (multiple and hideTotals may be left out). */
export type PollInputBody = z.input<typeof pollInput>;
/** As parsed (defaults applied). */
export type PollInput = z.output<typeof pollInput>;

/**
 * A post's poll as one viewer sees it (`post.poll`). Its id is the post's. `expired` is true from
 * `expiresAt` on. With `hideTotals`, each option's `votesCount` is null until it ends, except for its
 * author; the poll's own totals (votes, voters) always show, as in Mastodon. `voted` and `ownVotes`
 * (option indexes) are the viewer's (false and [] for visitors).
 */
export const poll = z.object({
  id: idSchema,
  expiresAt: z.string(),
  expired: z.boolean(),
  multiple: z.boolean(),
  hideTotals: z.boolean(),
  /** People who voted. */
  votersCount: z.number().int(),
  /** Choices made (on a multiple-choice poll a voter may make several). */
  votesCount: z.number().int(),
  options: z.array(z.object({ title: z.string(), votesCount: z.number().int().nullable() })),
  voted: z.boolean(),
  ownVotes: z.array(z.number().int()),
});
export type Poll = z.infer<typeof poll>;

/** POST /api/posts/:id/poll/votes: the indexes of the options chosen (one for a single-choice poll). */
export const votePollBody = z.strictObject({
  choices: z
    .array(z.number().int('A choice is an option index').min(0, 'A choice is an option index'))
    .min(1, 'Choose at least one option')
    .max(POLL_LIMITS.maxOptions, `Choose at most ${POLL_LIMITS.maxOptions} options`)
    .refine((choices) => new Set(choices).size === choices.length, 'Choose each option at most once'),
});
export type VotePollBody = z.infer<typeof votePollBody>;

/**
 * What a live stream says of a poll's counts (a vote, or its end): the web merges it into the post it
 * shows, keeping the viewer's own votes. Option counts are null while they are hidden from this reader.
 */
export const pollCounts = z.object({
  votersCount: z.number().int(),
  votesCount: z.number().int(),
  options: z.array(z.number().int().nullable()),
});
export type PollCounts = z.infer<typeof pollCounts>;
