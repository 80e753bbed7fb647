import { api, type Post } from '@pipit/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { findCachedPost } from '../../../lib/post-cache.ts';
import { postKeys } from '../../../lib/query-keys.ts';

export const getPost = (id: string) => apiFetch<Post>(api.post(id));

export const postQueryOptions = (id: string) =>
  queryOptions({ queryKey: postKeys.detail(id), queryFn: () => getPost(id) });

/** A post opened from a list shows at once from that list, then refreshes if the list was old. */
export function usePost(id: string | null | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    ...postQueryOptions(id ?? ''),
    enabled: Boolean(id),
    initialData: () => (id ? findCachedPost(queryClient, id)?.post : undefined),
    initialDataUpdatedAt: () => (id ? findCachedPost(queryClient, id)?.updatedAt : undefined),
  });
}
