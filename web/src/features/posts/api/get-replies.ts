import { api, type Page, type Post } from '@pipit/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { postKeys } from '../../../lib/query-keys.ts';

/** GET /api/posts/:id/replies: oldest first, by cursor. */
export const getReplies = (id: string, cursor: string | null) =>
  apiFetch<Page<Post>>(api.replies(id), { query: { cursor } });

export const repliesQueryOptions = (id: string) =>
  infiniteQueryOptions({
    queryKey: postKeys.replies(id),
    queryFn: ({ pageParam }) => getReplies(id, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const useReplies = (id: string) => useInfiniteQuery(repliesQueryOptions(id));
