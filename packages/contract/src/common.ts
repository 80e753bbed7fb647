import { z } from 'zod';

/** Ids are strings on the wire (bigint in the database). */
/**
 * The one id rule of every API (the product API, Mastodon's ids): 1–18 digits, no leading zero. A
 * plain constant, so the web can use it without zod.
 */
export const ID_PATTERN = /^[1-9]\d{0,17}$/;
export const idSchema = z.string().regex(ID_PATTERN, 'must be a numeric id');
export const idParams = z.object({ id: idSchema });

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;

/** Keyset pagination: an opaque cursor from the previous page's nextCursor. */
export const pageQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });
export type Page<T> = { items: T[]; nextCursor: string | null };

/** Control characters other than newline and tab are refused in user text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
export const CONTROL_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
export const CONTROL_CHARS_NO_NEWLINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

/**
 * Made at the first count, not when the module loads: building one loads ICU's break rules (~17 ms in
 * Node, ~100 ms on a phone), which every page of the web app paid before its first render.
 */
let segmenter: Intl.Segmenter | undefined;
/** User-perceived characters: an emoji, a flag or a letter with accents counts once. */
export function graphemeLength(text: string): number {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
}

/**
 * Whether `text` has at most `max` characters as people count them. A character is at least one
 * UTF-16 unit, so a text no longer than `max` units needs no segmenting (segmenting is most of a
 * short post's validation).
 */
export function fitsGraphemes(text: string, max: number): boolean {
  return text.length <= max || graphemeLength(text) <= max;
}

/**
 * Characters that show nothing on their own: white space, format characters (zero-width space and
 * joiners, BOM, bidi marks), combining marks without a base, and the "filler" letters and blank
 * braille pattern that fonts draw as nothing. Text made only of these looks empty.
 */
const INVISIBLE = /^[\s\p{Cf}\p{M}\u115F\u1160\u3164\uFFA0\u2800]*$/u;
/** True when the text has at least one character a reader can see. */
export const hasVisibleContent = (text: string) => !INVISIBLE.test(text);

/**
 * The most combining marks one character may carry in a row. Real writing stacks a few (Vietnamese
 * two, Tibetan and Thai up to four or five); "Zalgo" text stacks hundreds, smearing over the lines
 * around it.
 */
export const MAX_COMBINING_MARKS = 8;
/** Built at the first check, not when the module loads (a `\p{…}` class takes time to build, as the segmenter above). */
let tooManyMarks: RegExp | undefined;
export function hasTooManyMarks(text: string): boolean {
  tooManyMarks ??= new RegExp(`\\p{M}{${MAX_COMBINING_MARKS + 1}}`, 'u');
  return tooManyMarks.test(text);
}

/**
 * Who may see a post. `public`: anyone, everywhere. `unlisted`: anyone with the link, the author's
 * profile and their followers' Home, but never Everyone, hashtag pages, trends or others' search.
 * `followers`: the author's followers and the people it mentions. `direct`: the people it mentions
 * only (a reply also counts the author it answers). Ordered from widest to narrowest.
 */
export const VISIBILITIES = ['public', 'unlisted', 'followers', 'direct'] as const;
export const visibility = z.enum(VISIBILITIES);
export type Visibility = z.infer<typeof visibility>;
