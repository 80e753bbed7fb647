import { api, type PostAncestors } from '@pipit/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import type { PostPages } from '../../../lib/post-cache.ts';
import { postKeys } from '../../../lib/query-keys.ts';

/** GET /api/posts/:id/ancestors: the conversation above a post, root first. */
export const getAncestors = (id: string) => apiFetch<PostAncestors>(api.ancestors(id));

/**
 * Kept in the cache in the shape of every other list of posts (one page, no cursor), so a like or
 * a delete anywhere reaches these posts too (lib/post-cache.ts).
 */
export const ancestorsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: postKeys.ancestors(id),
    queryFn: async (): Promise<PostPages> => {
      const { items } = await getAncestors(id);
      return { pages: [{ items, nextCursor: null }], pageParams: [null] };
    },
  });

/** Asked only for a reply: a post without a parent has nothing above it. */
export const useAncestors = (id: string) => useQuery(ancestorsQueryOptions(id));
