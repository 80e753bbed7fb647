import type { CurrentUser, User, UserSummary } from '@pipit/contract';
import { type QueryClient, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';
import { type PeopleKind, postKeys, userKeys, viewerKeys } from './keys.ts';
import { pagedQuery } from './paged.ts';
import { authorsChanged } from './posts.ts';

/** People: profiles, Who To Follow, and what follows and profile edits change. */

/** GET /api/users/:id: a public profile as the viewer sees it (counts, isFollowing). */
export const userQueryOptions = (id: string) =>
  queryOptions({ queryKey: userKeys.detail(id), queryFn: () => call('user', { params: { id } }) });

/** Skipped when there is no id, as the seed says. */
export const useUser = (id: string | null | undefined) =>
  useQuery({ ...userQueryOptions(id ?? ''), enabled: Boolean(id) });

/** GET /api/users/by-username/:username: where an @mention points. */
export const useUserByUsername = (username: string) =>
  useQuery({
    queryKey: userKeys.byUsername(username),
    queryFn: () => call('userByUsername', { params: { username } }),
  });

/** GET /api/users: Who To Follow (never oneself nor people already followed). */
export const suggestionsQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.suggestions(),
    queryFn: () => call('suggestions'),
    staleTime: 5 * 60_000,
    // Someone just followed leaves the list (followChanged); the rest stays put while reading.
    refetchOnWindowFocus: false,
  });

export const useSuggestions = () => useQuery(suggestionsQueryOptions());

/** GET /api/users/:id/{followers|following}: newest follow first, cursor-paged. */
export const peopleQueryOptions = (id: string, which: PeopleKind) =>
  pagedQuery(userKeys.people(id, which), (cursor) => call(which, { params: { id }, query: { cursor } }));

export const usePeople = (id: string, which: PeopleKind) => useInfiniteQuery(peopleQueryOptions(id, which));

/** GET /api/follow-requests: the people asking to follow the viewer, newest first, cursor-paged. */
export const followRequestsQueryOptions = () =>
  pagedQuery(userKeys.followRequests(), (cursor) => call('followRequests', { query: { cursor } }));

export const useFollowRequests = () => useInfiniteQuery(followRequestsQueryOptions());

/**
 * The viewer followed or unfollowed `user` (the server's answer): their profile takes it, Who To
 * Follow drops someone just followed and asks for someone to take their place, and the viewer's
 * Following count and timeline are fetched again.
 */
export function followChanged(queryClient: QueryClient, user: User) {
  queryClient.setQueryData(userKeys.detail(user.id), user);
  if (user.isFollowing) {
    queryClient.setQueryData<UserSummary[]>(userKeys.suggestions(), (people) =>
      people?.filter((person) => person.id !== user.id),
    );
    queryClient.invalidateQueries({ queryKey: userKeys.suggestions() });
  }
  queryClient.invalidateQueries({ queryKey: viewerKeys.me() });
  queryClient.invalidateQueries({ queryKey: postKeys.timeline('following') });
  // Their followers and the viewer's following lists changed; the rows on screen keep their place
  // until the next fetch (the button's own state shows the change at once).
  queryClient.invalidateQueries({ queryKey: userKeys.lists() });
}

/** The viewer saved their profile: it replaces theirs, and posts (which carry name and picture) refetch. */
export async function profileChanged(queryClient: QueryClient, me: CurrentUser) {
  queryClient.setQueriesData<CurrentUser | null>({ queryKey: viewerKeys.me() }, (old) => (old ? me : old));
  authorsChanged(queryClient);
  // The seed fetches the user again after a save.
  await queryClient.invalidateQueries({ queryKey: userKeys.detail(me.id) });
}
