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

/**
 * Search: posts by words (PostgreSQL full text, the same on PGlite), people by name or username
 * prefix, hashtags by prefix. Any text is a valid search: at worst it finds nothing.
 */
export class SearchService {
  constructor(private readonly db: Database) {}

  /**
   * Posts by words, newest first: by cursor (the web), or skipping `offset` finds (Mastodon apps page
   * search that way; an offset is a bounded number, MAX_SEARCH_OFFSET).
   */
  async posts(viewer: Viewer, page: PageRequest & { q: string; offset?: number }): Promise<Page<Post>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) =>
        repo.findPostMatches(this.db, viewerIdOf(viewer), page.q, cursor, limit, boundedOffset(page.offset)),
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
