import { api, type Page, type Post } from '@pipit/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { postKeys } from '../../../lib/query-keys.ts';

/** GET /api/users/:id/posts: newest first, by cursor. */
export const getUserPosts = (userId: string, cursor: string | null) =>
  apiFetch<Page<Post>>(api.userPosts(userId), { query: { cursor } });

export const userPostsQueryOptions = (userId: string) =>
  infiniteQueryOptions({
    queryKey: postKeys.byUser(userId),
    queryFn: ({ pageParam }) => getUserPosts(userId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const useUserPosts = (userId: string) => useInfiniteQuery(userPostsQueryOptions(userId));
