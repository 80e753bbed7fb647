import type { List } from '@pipit/contract';
import { type QueryClient, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';
import { listKeys, postKeys } from './keys.ts';
import { pagedQuery } from './paged.ts';

/**
 * The viewer's lists: where they are cached, how they are asked for, and what happens to the caches
 * when one changes. A list's timeline is a list of posts (postKeys.listTimeline), so likes, deletes
 * and the live stream reach it like any timeline (state/posts.ts).
 */

/** GET /api/lists: every list of the viewer's, oldest first (at most 50: one answer). */
export const myListsQueryOptions = () =>
  queryOptions({ queryKey: listKeys.mine(), queryFn: async () => (await call('lists')).items });
export const useMyLists = ({ enabled = true } = {}) => useQuery({ ...myListsQueryOptions(), enabled });

export const listQueryOptions = (id: string) =>
  queryOptions({ queryKey: listKeys.detail(id), queryFn: () => call('list', { params: { id } }) });
export const useList = (id: string) => useQuery(listQueryOptions(id));

/** GET /api/lists/:id/posts: its members' posts, newest first. */
export const listTimelineQueryOptions = (id: string) => ({
  ...pagedQuery(postKeys.listTimeline(id), (cursor) => call('listPosts', { params: { id }, query: { cursor } })),
  // As Home: refetching every loaded page on focus would move the list under the reader's eyes.
  refetchOnWindowFocus: false,
  staleTime: 60_000,
});
export const useListTimeline = (id: string, { enabled = true } = {}) =>
  useInfiniteQuery({ ...listTimelineQueryOptions(id), enabled });

/** GET /api/lists/:id/members: last added first. */
export const listMembersQueryOptions = (id: string) =>
  pagedQuery(listKeys.members(id), (cursor) => call('listMembers', { params: { id }, query: { cursor } }));
export const useListMembers = (id: string) => useInfiniteQuery(listMembersQueryOptions(id));

/** People the viewer follows whose name or username starts with `q` (or the latest followed). */
export const useListCandidates = (id: string, q: string) =>
  useQuery({
    queryKey: listKeys.candidates(id, q),
    queryFn: async () => (await call('listCandidates', { params: { id }, query: q ? { q } : {} })).items,
    placeholderData: (previous) => previous,
  });

/** The server's answer for a list (created or changed): it replaces the cached one and joins the viewer's lists. */
export function listChanged(queryClient: QueryClient, list: List) {
  queryClient.setQueryData(listKeys.detail(list.id), list);
  queryClient.setQueryData<List[]>(listKeys.mine(), (lists) =>
    lists
      ? lists.some((l) => l.id === list.id)
        ? lists.map((l) => (l.id === list.id ? list : l))
        : [...lists, list]
      : lists,
  );
}

/** A list is gone: out of the viewer's lists, its caches forgotten; Home may show its members again. */
export function listDeleted(queryClient: QueryClient, id: string) {
  queryClient.setQueryData<List[]>(listKeys.mine(), (lists) => lists?.filter((l) => l.id !== id));
  queryClient.removeQueries({ queryKey: listKeys.detail(id) });
  queryClient.removeQueries({ queryKey: postKeys.listTimeline(id) });
  queryClient.invalidateQueries({ queryKey: postKeys.timeline('following') });
}

/** Someone joined or left a list: its members, count and timeline are asked again (Home too, for an exclusive list). */
export function listMembersChanged(queryClient: QueryClient, id: string) {
  queryClient.invalidateQueries({ queryKey: listKeys.members(id) });
  queryClient.invalidateQueries({ queryKey: listKeys.detail(id) });
  queryClient.invalidateQueries({ queryKey: listKeys.mine() });
  queryClient.invalidateQueries({ queryKey: ['lists', 'candidates', id] });
  queryClient.invalidateQueries({ queryKey: postKeys.listTimeline(id) });
  queryClient.invalidateQueries({ queryKey: postKeys.timeline('following') });
}
