import { api, type Page, type Post } from '@pipit/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { postKeys, type TimelineKind } from '../../../lib/query-keys.ts';

const paths = { following: api.timelineFollowing, everyone: api.timelineEveryone } as const;

/** GET /api/timeline/{following|everyone}: newest first, by cursor. */
export const getTimeline = (kind: TimelineKind, cursor: string | null) =>
  apiFetch<Page<Post>>(paths[kind], { query: { cursor } });

export const timelineQueryOptions = (kind: TimelineKind) =>
  infiniteQueryOptions({
    queryKey: postKeys.timeline(kind),
    queryFn: ({ pageParam }) => getTimeline(kind, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Refetching every loaded page on focus would move the list under the reader's eyes.
    refetchOnWindowFocus: false,
    staleTime: 60_000,
  });

export function useTimeline(kind: TimelineKind, { enabled = true } = {}) {
  return useInfiniteQuery({ ...timelineQueryOptions(kind), enabled });
}
