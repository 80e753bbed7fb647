import { z } from 'zod';
import { pageQuery } from './common.ts';
import { user } from './users.ts';

/** A search is at most this many characters. */
export const SEARCH_MAX = 200;

/** What was typed in Search: trimmed, 1–200 characters, any text (the server never fails on it). */
export const searchText = z
  .string()
  .max(SEARCH_MAX * 4, `Search must be at most ${SEARCH_MAX} characters`)
  .transform((q) => q.trim())
  .refine((q) => q.length > 0, 'Search for something')
  .refine((q) => [...q].length <= SEARCH_MAX, `Search must be at most ${SEARCH_MAX} characters`);

/**
 * GET /api/search/posts: posts matching words, newest first (PostgreSQL full text, websearch syntax:
 * `"a phrase"`, `-without`, `this or that`; no language assumed, so words match as written).
 */
export const postSearchQuery = pageQuery.extend({ q: searchText });

/** People and hashtags: a few best matches, no pages. */
export const SEARCH_LIST_MAX = 20;
/** Exported (not a module-level call the web bundle must keep: web/vite.config.ts makes exported ones pure). */
export const searchListLimit = z.coerce.number().int().min(1).max(SEARCH_LIST_MAX).default(10);

/**
 * GET /api/search/people: name or username starting with `q` (an `@` before it is ignored). A handle of
 * someone elsewhere (`@user@host`) finds that person: with `resolve=true` (members only; a search
 * asked for, not suggestions while typing) their server is asked, else only people already known here.
 */
export const peopleSearchQuery = z.object({
  q: searchText,
  limit: searchListLimit,
  resolve: z.enum(['true', 'false'], { error: 'resolve must be true or false' }).optional(),
});
export const peopleSearchResult = z.object({ items: z.array(user) });
export type PeopleSearchResult = z.infer<typeof peopleSearchResult>;

/** GET /api/search/hashtags: tags starting with `q` (a `#` before it is ignored), most used first. */
export const hashtagSearchQuery = z.object({ q: searchText, limit: searchListLimit });
export const hashtagSearchResult = z.object({ items: z.array(z.object({ tag: z.string(), posts: z.number().int() })) });
export type HashtagSearchResult = z.infer<typeof hashtagSearchResult>;
