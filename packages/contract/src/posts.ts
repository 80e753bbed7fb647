import { z } from 'zod';
import { previewCard } from './cards.ts';
import {
  CONTROL_CHARS_NO_NEWLINE,
  fitsGraphemes,
  hasTooManyMarks,
  hasVisibleContent,
  idSchema,
  MAX_COMBINING_MARKS,
  page,
  VISIBILITIES,
  type Visibility,
  visibility,
} from './common.ts';
import { mediaAttachment, postMediaInput } from './media.ts';
import { poll, pollInput } from './polls.ts';
import { LIMITS, userSummary } from './users.ts';

/**
 * At most 280 user-perceived characters after trimming, and when not empty at least one of them
 * visible; newlines allowed, other control characters not; at most MAX_COMBINING_MARKS marks stacked
 * on a character. Empty only with images (createPostBody).
 */
export const postText = z
  .string()
  .max(LIMITS.postMax * 16, `Post must be at most ${LIMITS.postMax} characters`)
  .transform((t) => t.trim())
  .refine(
    (t) => t.length === 0 || hasVisibleContent(t),
    'Post must have something to read, not only spaces or invisible characters',
  )
  .refine(
    (t) => !hasTooManyMarks(t),
    `Post has too many accent marks on one character (at most ${MAX_COMBINING_MARKS})`,
  )
  .refine((t) => fitsGraphemes(t, LIMITS.postMax), `Post must be at most ${LIMITS.postMax} characters`)
  .refine((t) => !CONTROL_CHARS_NO_NEWLINE.test(t.replace(/\r?\n/g, '')), 'Post must not contain control characters');

/**
 * A content warning: shown instead of a post's text and pictures until the reader opens it ("Show
 * more"). Trimmed, empty for none, one line, at most LIMITS.spoilerTextMax user-perceived characters.
 */
export const spoilerText = z
  .string()
  .max(LIMITS.spoilerTextMax * 16, `Content warning must be at most ${LIMITS.spoilerTextMax} characters`)
  .transform((t) => t.trim())
  .refine(
    (t) => t.length === 0 || hasVisibleContent(t),
    'Content warning must have something to read, not only spaces or invisible characters',
  )
  .refine(
    (t) => !hasTooManyMarks(t),
    `Content warning has too many accent marks on one character (at most ${MAX_COMBINING_MARKS})`,
  )
  .refine(
    (t) => fitsGraphemes(t, LIMITS.spoilerTextMax),
    `Content warning must be at most ${LIMITS.spoilerTextMax} characters`,
  )
  .refine((t) => !CONTROL_CHARS_NO_NEWLINE.test(t) && !/[\r\n]/.test(t), 'Content warning must be one line of text');

/** True when `a` shows a post to more people than `b` (a reply may never be wider than its parent). */
export const widerThan = (a: Visibility, b: Visibility) => VISIBILITIES.indexOf(a) < VISIBILITIES.indexOf(b);

/** Who may quote a post: anyone who sees it, the author's followers, nobody (the author always may). */
export const QUOTE_POLICIES = ['anyone', 'followers', 'nobody'] as const;
export const quotePolicy = z.enum(QUOTE_POLICIES);
export type QuotePolicy = z.infer<typeof quotePolicy>;

/** The widest quote policy a post of this visibility may have: followers only at most followers, direct nobody. */
export const widestQuotePolicy = (visibility: Visibility): QuotePolicy =>
  visibility === 'direct' ? 'nobody' : visibility === 'followers' ? 'followers' : 'anyone';

/** Whether `policy` lets more people quote than `than` does. */
export const quotesWider = (policy: QuotePolicy, than: QuotePolicy) =>
  QUOTE_POLICIES.indexOf(policy) < QUOTE_POLICIES.indexOf(than);

/** Only public and unlisted posts can be reposted: a repost shows the post to the reposter's followers. */
export const repostable = (v: Visibility) => v === 'public' || v === 'unlisted';

export const createPostBody = z
  .strictObject({
    text: postText,
    /** Set when this post is a reply. */
    parentId: idSchema.nullable().optional(),
    /** Up to four uploaded images (POST /api/media), in grid order; `alt` replaces the upload's alt text. */
    media: postMediaInput.optional(),
    /** Set when this post quotes another (shown embedded under it). */
    quoteOfId: idSchema.optional(),
    /**
     * Who may see it; default: the author's default (Settings), and for a reply the parent's when
     * that is narrower. A reply may not be wider than its parent (INVALID_INPUT).
     */
    visibility: visibility.optional(),
    /** Who may quote it (default anyone; a followers-only post at most followers, a direct one nobody). */
    quotePolicy: quotePolicy.optional(),
    /** A content warning (none: empty or left out); a warning makes the post sensitive. */
    spoilerText: spoilerText.optional(),
    /** Its pictures are covered until shown (default false; always true with a warning). */
    sensitive: z.boolean().optional(),
    /** A poll under the text (polls.ts `pollInput`); a post with a poll has no images and still needs its text. */
    poll: pollInput.optional(),
  })
  .refine((body) => body.text.length > 0 || (body.media?.length ?? 0) > 0, {
    message: 'Post must not be empty',
    path: ['text'],
  })
  .refine((body) => body.poll === undefined || (body.media?.length ?? 0) === 0, {
    message: 'A post cannot have both a poll and images',
    path: ['poll'],
  });
export type CreatePostBody = z.infer<typeof createPostBody>;

/** A quoted post as it shows embedded in the quote: one level (its own quote is not shown). */
export const quotedPost = z.object({
  id: idSchema,
  text: z.string(),
  createdAt: z.string(),
  author: userSummary,
  media: z.array(mediaAttachment),
  /** Its content warning ('' for none): the embed shows it instead of the text until opened. */
  spoilerText: z.string(),
  sensitive: z.boolean(),
});
export type QuotedPost = z.infer<typeof quotedPost>;

/**
 * What a quote shows of the post it quotes, for this viewer. `shown`: the quoted post. `unavailable`
 * ("This post is unavailable"): it was deleted, or it is hidden from this viewer (a block either way,
 * a mute, a muted word, a suspension) while the quote itself is not. An unavailable quote carries
 * nothing of the quoted post — no id, text, author or images — and does not say which of those it is.
 */
export const postQuote = z.discriminatedUnion('state', [
  z.object({ state: z.literal('shown'), post: quotedPost }),
  z.object({ state: z.literal('unavailable') }),
]);
export type PostQuote = z.infer<typeof postQuote>;

export const post = z.object({
  id: idSchema,
  /** This entry's own id: a repost's (the row that stands for the post in timelines), else the post's. */
  entryId: idSchema,
  text: z.string(),
  createdAt: z.string(),
  author: userSummary,
  parentId: idSchema.nullable(),
  /** For a reply: who wrote the post it answers ("Replying to @username"); null for other posts. */
  /** Whom it answers: their handle is `@username`, or `@username@domain` for someone elsewhere. */
  replyTo: z.object({ id: idSchema, username: z.string(), domain: z.string().nullable() }).nullable(),
  replyCount: z.number().int(),
  likeCount: z.number().int(),
  repostCount: z.number().int(),
  likedByMe: z.boolean(),
  /** Whether the viewer reposted it (false for visitors). */
  repostedByMe: z.boolean(),
  /** Whether the viewer keeps it in their Bookmarks (private to them; false for visitors). */
  bookmarkedByMe: z.boolean(),
  /** Its images in grid order (none: []). */
  media: z.array(mediaAttachment),
  /** Who may see it (VISIBILITIES); a repost entry carries the reposted post's. */
  visibility: visibility,
  /** Who may quote it. */
  quotePolicy: quotePolicy,
  /** For a quote: what it shows of the quoted post (`postQuote`); null for other posts. */
  quote: postQuote.nullable(),
  /**
   * Set on a timeline entry that is a repost: who reposted it ("<name> reposted"); the rest is the
   * reposted post itself. Null elsewhere.
   */
  repostedBy: userSummary.nullable(),
  /** Its content warning ('' for none): readers see it instead of the text and pictures until they open it. */
  spoilerText: z.string(),
  /** Its pictures are covered until the reader shows them (true whenever there is a warning). */
  sensitive: z.boolean(),
  /** When its author last edited it (GET /api/posts/:id/history lists the versions); null when never. */
  editedAt: z.string().nullable(),
  /**
   * The preview of its first link (`linksOf`), fetched in the background after it is posted: null
   * until then, and for good when the post has images, the page has no title or could not be read.
   */
  card: previewCard.nullable(),
  /** Its poll as the viewer sees it (polls.ts), or null. */
  poll: poll.nullable(),
});
export type Post = z.infer<typeof post>;

/** Timelines, a person's posts and replies: `{items, nextCursor}`. */
export const postPage = page(post);

/** At most this many posts above a reply: the nearest ones of a longer conversation. */
export const MAX_ANCESTORS = 50;

/** GET /api/posts/:id/ancestors: the conversation above a post, its root first, its parent last. */
export const postAncestors = z.object({ items: z.array(post) });
export type PostAncestors = z.infer<typeof postAncestors>;

/**
 * An @mention: `@` then a username (same characters as usernames, at most 30), not preceded by a
 * username character or `@` (so `bob@example.com` mentions nobody) and not followed by one (so a
 * 31-character name is not a mention of its first 30 characters).
 */
export const MENTION_PATTERN = new RegExp(
  `(?<![A-Za-z0-9_@])@([A-Za-z0-9_]{1,${LIMITS.usernameMax}})(?![A-Za-z0-9_])`,
  'g',
);

/**
 * The usernames of members a text mentions, lower-cased (usernames are unique ignoring case), each
 * once, in order. `@bob@example.social` is someone elsewhere (extractRemoteMentions), never the member bob.
 */
export function extractMentions(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(MENTION_PATTERN)) {
    if (text[(match.index ?? 0) + match[0].length] === '@') continue;
    seen.add((match[1] as string).toLowerCase());
  }
  return [...seen];
}

/** A mention of someone elsewhere: `@username@host` (a host name, or an address, with an optional port). */
export const REMOTE_MENTION_PATTERN =
  /(?<![A-Za-z0-9_@])@([A-Za-z0-9_][A-Za-z0-9_.-]{0,99})@((?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z0-9-]{1,63}(?::\d{1,5})?)/g;

/** The people elsewhere a text mentions (`@user@host`), host lower-cased, each once, in order. */
export function extractRemoteMentions(text: string): Array<{ username: string; host: string }> {
  const seen = new Map<string, { username: string; host: string }>();
  for (const match of text.matchAll(REMOTE_MENTION_PATTERN)) {
    const username = (match[1] as string).replace(/[.-]+$/, '');
    const host = (match[2] as string).toLowerCase();
    seen.set(`${username.toLowerCase()}@${host}`, { username, host });
  }
  return [...seen.values()];
}
