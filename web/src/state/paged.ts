import type { Page } from '@pipit/contract';
import { type InfiniteData, infiniteQueryOptions, type QueryKey } from '@tanstack/react-query';

/**
 * Every cursor-paged list of the app (timelines, a person's posts, replies, notifications, a
 * hashtag, search, bookmarks, followers and following, blocks and mutes, the moderation lists) is
 * asked for the same way, so it is written once: the first page without a cursor, then each
 * answer's `nextCursor` until it is null (the contract's `Page`, keyset on the server).
 */

/** A paged list as it sits in the cache. */
export type Pages<T> = InfiniteData<Page<T>, string | null>;

/**
 * The query options of a paged list: its key and how to fetch one page. Spread the result to add
 * options (`{ ...pagedQuery(key, fetch), staleTime }`); the typed key survives the spread.
 */
export const pagedQuery = <T, K extends QueryKey = QueryKey>(
  queryKey: K,
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
) =>
  infiniteQueryOptions({
    queryKey,
    // The contract's query takes no cursor for the first page (undefined leaves it out of the URL).
    queryFn: ({ pageParam }) => fetchPage(pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last: Page<T>) => last.nextCursor,
  });

/** A list the server answers whole, cached in the shape of a paged one (one page, no cursor). */
export const onePage = <T>(items: T[]): Pages<T> => ({ pages: [{ items, nextCursor: null }], pageParams: [null] });

/**
 * The items of every loaded page, in order, each once: an item that moved between two pages while
 * the reader scrolled (something newer came in) is shown where it was first seen, and React keys
 * stay unique.
 */
export function pageItems<T extends { id: string }>(data: InfiniteData<Page<T>, unknown> | undefined): T[] {
  const seen = new Set<string>();
  const items: T[] = [];
  for (const page of data?.pages ?? []) {
    for (const item of page.items) {
      if (!seen.has(item.id)) {
        seen.add(item.id);
        items.push(item);
      }
    }
  }
  return items;
}
