import { z } from 'zod';
import {
  CONTROL_CHARS_NO_NEWLINE,
  fitsGraphemes,
  hasTooManyMarks,
  hasVisibleContent,
  idSchema,
  MAX_COMBINING_MARKS,
} from './common.ts';
import { user } from './users.ts';

/**
 * Which replies of its members a list shows: `followed` replies to anyone the owner follows (or to the
 * owner), `list` replies to the list's members (a member's replies to themselves included), `none` no
 * replies. Mastodon's three values and its default, `list`.
 */
export const LIST_REPLIES_POLICIES = ['followed', 'list', 'none'] as const;
export type ListRepliesPolicy = (typeof LIST_REPLIES_POLICIES)[number];

/** Limits (docs/product-decisions.md, "Lists"). */
export const LIST_LIMITS = {
  /** Lists per member (Mastodon's own limit). */
  lists: 50,
  /** People per list: a list's timeline reads each member's newest post, so its cost grows with them. */
  members: 500,
  /** A title, in user-perceived characters. */
  titleMax: 100,
} as const;

/** A list's title: trimmed, 1–100 characters, one line, something visible. */
export const listTitle = z
  .string()
  .max(LIST_LIMITS.titleMax * 8, `A title is at most ${LIST_LIMITS.titleMax} characters`)
  .transform((t) => t.trim())
  .refine((t) => t.length > 0 && hasVisibleContent(t), 'Give the list a title')
  .refine((t) => fitsGraphemes(t, LIST_LIMITS.titleMax), `A title is at most ${LIST_LIMITS.titleMax} characters`)
  .refine((t) => !CONTROL_CHARS_NO_NEWLINE.test(t), 'A title is one line without control characters')
  .refine(
    (t) => !hasTooManyMarks(t),
    `The title has too many accent marks on one character (at most ${MAX_COMBINING_MARKS})`,
  );

export const listRepliesPolicy = z.enum(LIST_REPLIES_POLICIES, {
  error: `repliesPolicy is one of ${LIST_REPLIES_POLICIES.join(', ')}`,
});

/** POST /api/lists. */
export const createListBody = z.strictObject({
  title: listTitle,
  repliesPolicy: listRepliesPolicy.optional(),
  exclusive: z.boolean().optional(),
});
export type CreateListBody = z.input<typeof createListBody>;

/** PATCH /api/lists/:id: what changes; at least one field. */
export const updateListBody = z
  .strictObject({
    title: listTitle.optional(),
    repliesPolicy: listRepliesPolicy.optional(),
    exclusive: z.boolean().optional(),
  })
  .refine((b) => b.title !== undefined || b.repliesPolicy !== undefined || b.exclusive !== undefined, {
    message: 'Send a title, repliesPolicy or exclusive to change',
  });
export type UpdateListBody = z.input<typeof updateListBody>;

export const list = z.object({
  id: idSchema,
  title: z.string(),
  repliesPolicy: listRepliesPolicy,
  exclusive: z.boolean(),
  memberCount: z.number().int(),
  createdAt: z.string(),
});
export type List = z.infer<typeof list>;

/** GET /api/lists: every list of the member's (at most LIST_LIMITS.lists), oldest first. */
export const listList = z.object({ items: z.array(list) });
export type ListList = z.infer<typeof listList>;

export const listMemberParams = z.object({ id: idSchema, userId: idSchema });

/** GET /api/lists/:id/candidates: people the member follows, by name or username prefix (or the latest followed). */
export const listCandidatesQuery = z.strictObject({
  q: z.string().max(100, 'q is at most 100 characters').optional(),
});

/** Someone the member follows, and whether they are on the list. */
export const listCandidate = user.extend({ inList: z.boolean() });
export type ListCandidate = z.infer<typeof listCandidate>;
export const listCandidates = z.object({ items: z.array(listCandidate) });
export type ListCandidates = z.infer<typeof listCandidates>;
