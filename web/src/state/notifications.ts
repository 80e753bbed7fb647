import type { CurrentUser } from '@pipit/contract';
import { infiniteQueryOptions, type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';
import { notificationKeys, viewerKeys } from './keys.ts';

/** GET /api/notifications: newest first, by cursor. */
export const notificationsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: notificationKeys.list(),
    queryFn: ({ pageParam }) => call('notifications', { query: { cursor: pageParam ?? undefined } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Each visit shows what is new (and marks it read).
    staleTime: 0,
    refetchOnWindowFocus: false,
  });

export const useNotifications = () => useInfiniteQuery(notificationsQueryOptions());

/** The viewer has seen their notifications: the alert dot clears at once. */
export async function notificationsRead(queryClient: QueryClient) {
  // A fetch already under way could bring the dot back.
  await queryClient.cancelQueries({ queryKey: viewerKeys.me() });
  queryClient.setQueriesData<CurrentUser | null>({ queryKey: viewerKeys.me() }, (me) =>
    me ? { ...me, hasNotification: false } : me,
  );
}

/** Something may have come in (or the dot was cleared on the server): ask again. */
export const notificationsChanged = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: viewerKeys.me() });
