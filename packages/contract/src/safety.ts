import { z } from 'zod';
import { CONTROL_CHARS_NO_NEWLINE, hasVisibleContent, idSchema, page } from './common.ts';
import { user } from './users.ts';

/** How long a mute of a person can last, in seconds (a mute without a duration lasts until undone). */
export const MUTE_DURATION = { min: 60, max: 365 * 24 * 60 * 60 } as const;

/** The choices the web offers when muting someone (seconds; null: until unmuted). */
export const MUTE_CHOICES = [
  { label: 'Until I unmute', seconds: null },
  { label: '1 hour', seconds: 60 * 60 },
  { label: '1 day', seconds: 24 * 60 * 60 },
  { label: '7 days', seconds: 7 * 24 * 60 * 60 },
  { label: '30 days', seconds: 30 * 24 * 60 * 60 },
] as const;

/** PUT /api/users/:id/mute: for how long (seconds), or for good when left out or null. */
export const muteBody = z.strictObject({
  durationSeconds: z
    .number()
    .int('durationSeconds must be a whole number of seconds')
    .min(MUTE_DURATION.min, `A mute lasts at least ${MUTE_DURATION.min} seconds`)
    .max(MUTE_DURATION.max, 'A mute lasts at most a year (or leave out the duration: until you unmute)')
    .nullable()
    .optional(),
});
export type MuteBody = z.infer<typeof muteBody>;

/** Someone the member muted, and until when (null: until unmuted). */
export const mutedAccount = user.extend({ mutedUntil: z.string().nullable() });
export type MutedAccount = z.infer<typeof mutedAccount>;
export const mutedAccountPage = page(mutedAccount);

/** Muted words and phrases per member. */
export const MAX_MUTED_WORDS = 100;
export const MUTED_WORD_MAX = 100;

/** A word or phrase to mute: trimmed and NFKC-normalised, 1–100 characters, one line. */
export const mutedPhrase = z
  .string()
  .max(MUTED_WORD_MAX * 4, `A muted word or phrase is at most ${MUTED_WORD_MAX} characters`)
  .transform((p) => p.normalize('NFKC').trim())
  .refine((p) => p.length > 0 && hasVisibleContent(p), 'Enter a word or phrase to mute')
  .refine((p) => p.length <= MUTED_WORD_MAX, `A muted word or phrase is at most ${MUTED_WORD_MAX} characters`)
  .refine((p) => !CONTROL_CHARS_NO_NEWLINE.test(p), 'A muted word or phrase is one line without control characters');

export const mutedWordBody = z.strictObject({ phrase: mutedPhrase });
export type MutedWordBody = z.input<typeof mutedWordBody>;

export const mutedWord = z.object({ id: idSchema, phrase: z.string(), createdAt: z.string() });
export type MutedWord = z.infer<typeof mutedWord>;
/** GET /api/muted-words: every one of them (at most MAX_MUTED_WORDS), newest first. */
export const mutedWordList = z.object({ items: z.array(mutedWord) });
export type MutedWordList = z.infer<typeof mutedWordList>;
