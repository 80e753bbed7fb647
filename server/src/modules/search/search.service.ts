import type { HashtagSearchResult, PeopleSearchResult, Post } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { type Cursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import { toUserView } from '../follows/follows.pack.ts';
import { toPost } from '../posts/posts.pack.ts';
import { type Viewer, viewerIdOf } from '../sessions/sessions.service.ts';
import * as repo from './search.repository.ts';

/** What a prefix search compares: NFKC, lower case, without the `@` or `#` people type first. */
const prefixOf = (q: string, sigil: '@' | '#') =>
  q
    .normalize('NFKC')
    .toLowerCase()
    .replace(new RegExp(`^\\${sigil}+`), '');

/** How far an offset may skip (a person pages 20 at a time; past this nobody reads, and the skip costs). */
export const MAX_SEARCH_OFFSET = 10_000;
const boundedOffset = (offset: number | undefined) => Math.min(Math.max(offset ?? 0, 0), MAX_SEARCH_OFFSET);

interface SearchRequest {
  q: string;
  limit: number;
  /** Finds to skip (Mastodon's search paging); 0 when absent. */
  offset?: number;
}

/** How long the frequent words are kept before they are read again (ANALYZE moves them slowly). */
const FREQUENT_WORDS_MS = 10 * 60_000;
/** A word in at least this share of the posts is common: the newest posts hold one within ~2,000 (21 / 1 %). */
const COMMON_SHARE = 0.01;

/**
 * `rare` when some word the posts must have (the query's words but those after `-`; a query with `or`
 * counts as common) is not frequent, else `common`. Words as the 'simple' configuration makes them,
 * near enough: lower-cased runs of letters, digits and `_` (a word split otherwise only costs time).
 */
export function matchPathOf(q: string, frequent: ReadonlyMap<string, number>): repo.MatchPath {
  const lower = q.toLowerCase();
  if (/(^|\s)or(\s|$)/.test(lower)) return 'common';
  const required = lower
    .split(/\s+/)
    .filter((token) => !token.startsWith('-'))
    .flatMap((token) => token.match(/[\p{L}\p{N}_]+/gu) ?? []);
  return required.some((word) => (frequent.get(word) ?? 0) < COMMON_SHARE) ? 'rare' : 'common';
}

/**
 * Search: posts by words (PostgreSQL full text, the same on PGlite), people by name or username
 * prefix, hashtags by prefix. Any text is a valid search: at worst it finds nothing.
 */
export class SearchService {
  constructor(private readonly db: Database) {}

  /** The frequent words (the statistics' view), read at most every FREQUENT_WORDS_MS. */
  private frequent: { words: Map<string, number>; at: number } | null = null;
  private reading: Promise<Map<string, number>> | null = null;

  private async frequentWords(): Promise<Map<string, number>> {
    if (this.frequent && Date.now() - this.frequent.at < FREQUENT_WORDS_MS) return this.frequent.words;
    this.reading ??= repo
      .findFrequentWords(this.db)
      .then((words) => {
        this.frequent = { words, at: Date.now() };
        return words;
      })
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }

  /** How to find the posts of `q` (search.repository MatchPath). */
  async matchPath(q: string): Promise<repo.MatchPath> {
    return matchPathOf(q, await this.frequentWords());
  }

  /**
   * Posts by words, newest first: by cursor (the web), or skipping `offset` finds (Mastodon apps page
   * search that way; an offset is a bounded number, MAX_SEARCH_OFFSET).
   */
  async posts(viewer: Viewer, page: PageRequest & { q: string; offset?: number }): Promise<Page<Post>> {
    const path = await this.matchPath(page.q);
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) =>
        repo.findPostMatches(this.db, viewerIdOf(viewer), page.q, cursor, limit, boundedOffset(page.offset), path),
      toPost,
    );
  }

  async people(viewer: Viewer, { q, limit, offset }: SearchRequest): Promise<PeopleSearchResult> {
    const prefix = prefixOf(q, '@');
    if (prefix === '') return { items: [] };
    const rows = await repo.findPeopleByPrefix(this.db, viewerIdOf(viewer), prefix, limit, boundedOffset(offset));
    return { items: rows.map(toUserView) };
  }

  async hashtags({ q, limit, offset }: SearchRequest): Promise<HashtagSearchResult> {
    const prefix = prefixOf(q, '#');
    if (prefix === '') return { items: [] };
    return { items: await repo.findHashtagsByPrefix(this.db, prefix, limit, boundedOffset(offset)) };
  }
}
