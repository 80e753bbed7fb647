import type { Page, Post } from '@pipit/contract';
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import { postKeys } from './query-keys.ts';

export type PostPages = InfiniteData<Page<Post>>;
type CachedPosts = Post | PostPages | undefined;

const isPages = (data: Post | PostPages): data is PostPages => 'pages' in data;

/** Applies `update` to the post wherever it is cached: its own page and every list. */
export function updatePostEverywhere(queryClient: QueryClient, id: string, update: (post: Post) => Post) {
  queryClient.setQueriesData<CachedPosts>({ queryKey: postKeys.all }, (data) => {
    if (!data) return data;
    if (!isPages(data)) return data.id === id ? update(data) : data;
    let changed = false;
    const pages = data.pages.map((page) => {
      if (!page.items.some((post) => post.id === id)) return page;
      changed = true;
      return { ...page, items: page.items.map((post) => (post.id === id ? update(post) : post)) };
    });
    return changed ? { ...data, pages } : data;
  });
}

/** Takes a deleted post out of every list and forgets its page. */
export function removePostEverywhere(queryClient: QueryClient, id: string) {
  queryClient.removeQueries({ queryKey: postKeys.detail(id), exact: true });
  queryClient.setQueriesData<CachedPosts>({ queryKey: postKeys.lists() }, (data) => {
    if (!data || !isPages(data)) return data;
    if (!data.pages.some((page) => page.items.some((post) => post.id === id))) return data;
    return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((p) => p.id !== id) })) };
  });
}

/** Puts a new post at the top of a loaded newest-first list (a cursor list stays consistent). */
export function prependPost(queryClient: QueryClient, key: QueryKey, post: Post) {
  queryClient.setQueryData<PostPages>(key, (data) => {
    const [first, ...rest] = data?.pages ?? [];
    if (!data || !first || first.items.some((p) => p.id === post.id)) return data;
    return { ...data, pages: [{ ...first, items: [post, ...first.items] }, ...rest] };
  });
}

/** Adds a reply at the end of an oldest-first list once its last page is loaded. */
export function appendPost(queryClient: QueryClient, key: QueryKey, post: Post) {
  queryClient.setQueryData<PostPages>(key, (data) => {
    const last = data?.pages.at(-1);
    if (!data || !last || last.nextCursor !== null || last.items.some((p) => p.id === post.id)) return data;
    return { ...data, pages: [...data.pages.slice(0, -1), { ...last, items: [...last.items, post] }] };
  });
}

/**
 * The post as a list on screen already has it, with when that list was fetched: its page can
 * show at once, and refetch in the background if that is old.
 */
export function findCachedPost(queryClient: QueryClient, id: string): { post: Post; updatedAt: number } | undefined {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: postKeys.lists() })) {
    const data = query.state.data as PostPages | undefined;
    for (const page of data?.pages ?? []) {
      const post = page.items.find((p) => p.id === id);
      if (post) return { post, updatedAt: query.state.dataUpdatedAt };
    }
  }
  return undefined;
}

/** Counts move by one at a time and never below zero. */
export const bump = (count: number, by: number) => Math.max(0, count + by);
