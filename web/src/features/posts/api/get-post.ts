import { api, type Post } from '@pipit/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { postKeys } from '../../../lib/query-keys.ts';

export const getPost = (id: string) => apiFetch<Post>(api.post(id));

export const postQueryOptions = (id: string) =>
  queryOptions({ queryKey: postKeys.detail(id), queryFn: () => getPost(id) });

export function usePost(id: string | null | undefined) {
  return useQuery({ ...postQueryOptions(id ?? ''), enabled: Boolean(id) });
}
