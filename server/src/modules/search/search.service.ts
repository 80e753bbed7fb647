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

/**
 * Search: posts by words (PostgreSQL full text, the same on PGlite), people by name or username
 * prefix, hashtags by prefix. Any text is a valid search: at worst it finds nothing.
 */
export class SearchService {
  constructor(private readonly db: Database) {}

  async posts(viewer: Viewer, page: PageRequest & { q: string }): Promise<Page<Post>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) =>
        repo.findPostMatches(this.db, viewerIdOf(viewer), page.q, cursor, limit),
      toPost,
    );
  }

  async people(viewer: Viewer, { q, limit }: { q: string; limit: number }): Promise<PeopleSearchResult> {
    const prefix = prefixOf(q, '@');
    if (prefix === '') return { items: [] };
    const rows = await repo.findPeopleByPrefix(this.db, viewerIdOf(viewer), prefix, limit);
    return { items: rows.map(toUserView) };
  }

  async hashtags({ q, limit }: { q: string; limit: number }): Promise<HashtagSearchResult> {
    const prefix = prefixOf(q, '#');
    if (prefix === '') return { items: [] };
    return { items: await repo.findHashtagsByPrefix(this.db, prefix, limit) };
  }
}
