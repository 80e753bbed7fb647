import { z } from 'zod';

/** A hashtag is at most this many characters (after NFKC normalisation). */
export const HASHTAG_MAX = 100;

/**
 * A #hashtag in a text: `#` then letters, digits, `_` and combining marks (so a decomposed "Café"
 * is one tag), not inside a word, a URL or an HTML entity (`&#38;`). It must hold a letter, which
 * `hashtagOf` checks: `#1` is not a hashtag. The web links what this finds; the server stores it.
 */
export const HASHTAG_PATTERN = /(?<![\p{L}\p{M}\p{N}_&#/])#([\p{L}\p{N}_][\p{L}\p{M}\p{N}_]*)/gu;

const TAG_TEXT = /^[\p{L}\p{N}_][\p{L}\p{M}\p{N}_]*$/u;
const HAS_LETTER = /\p{L}/u;

/**
 * The stored form of a tag as written after `#`: NFKC-normalised and lower-cased, so #Café,
 * #CAFÉ and a decomposed #Cafe\u0301 are one tag; null when it is not a hashtag (no letter, too
 * long, other characters).
 */
export function hashtagOf(written: string): string | null {
  const tag = written.normalize('NFKC').toLowerCase();
  if (!TAG_TEXT.test(tag) || !HAS_LETTER.test(tag) || [...tag].length > HASHTAG_MAX) return null;
  return tag;
}

/** The hashtags of a text, in their stored form, each once, in order. */
export function extractHashtags(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(HASHTAG_PATTERN)) {
    const tag = hashtagOf(match[1] as string);
    if (tag) seen.add(tag);
  }
  return [...seen];
}

/** `:tag` as written in a link (any case or normalisation form), parsed to its stored form. */
export const hashtagParams = z.object({
  tag: z
    .string()
    .max(HASHTAG_MAX * 4)
    .transform((tag, ctx) => {
      const stored = hashtagOf(tag);
      if (stored === null) {
        ctx.addIssue({ code: 'custom', message: `must be a hashtag: letters, digits or _, at most ${HASHTAG_MAX}` });
        return z.NEVER;
      }
      return stored;
    }),
});

/** A hashtag people are using: how many distinct people used it in the last 24 hours. */
export const trendingHashtag = z.object({ tag: z.string(), people: z.number().int() });
export type TrendingHashtag = z.infer<typeof trendingHashtag>;

/** GET /api/hashtags/trending: the most used, most people first. */
export const trendingHashtags = z.object({ items: z.array(trendingHashtag) });
export type TrendingHashtags = z.infer<typeof trendingHashtags>;

/** How many trending hashtags the right column shows. */
export const TRENDING_COUNT = 5;

/**
 * How many hashtags one member may follow. Their posts are merged into Home when it is read, one
 * index probe per followed tag per page (docs/decisions.md, "Followed hashtags"): the limit bounds that.
 */
export const MAX_FOLLOWED_HASHTAGS = 100;

/** A hashtag as the member sees it: its stored form, and whether they follow it. */
export const hashtag = z.object({ tag: z.string(), following: z.boolean() });
export type Hashtag = z.infer<typeof hashtag>;
