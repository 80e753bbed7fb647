import type { CurrentUser, UnreadCount } from '@pipit/contract';
import { type QueryClient, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';
import { notificationKeys, viewerKeys } from './keys.ts';
import { pagedQuery } from './paged.ts';
import { useViewer } from './viewer.tsx';

/** GET /api/notifications: newest first, by cursor. */
export const notificationsQueryOptions = () => ({
  ...pagedQuery(notificationKeys.list(), (cursor) => call('notifications', { query: { cursor } })),
  // Each visit shows what is new (and marks it read).
  staleTime: 0,
  refetchOnWindowFocus: false,
});

export const useNotifications = () => useInfiniteQuery(notificationsQueryOptions());

/** GET /api/notifications/unread: how many are unread (up to 100). */
export const unreadCountQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.unread(),
    queryFn: () => call('unreadNotifications'),
    // As the dot: fresh on every live event, and polled while the app stays open without a stream.
    refetchInterval: 60_000,
  });

/**
 * How many notifications the viewer has unread: 0 for visitors, and not even asked while the dot
 * (hasNotification on the current user) says there are none.
 */
export function useUnreadCount(): number {
  const { user } = useViewer();
  const some = user?.hasNotification ?? false;
  const query = useQuery({ ...unreadCountQueryOptions(), enabled: some });
  return some ? (query.data?.count ?? 0) : 0;
}

/**
 * The viewer has seen their notifications (here, or in another tab or device, told by the live
 * stream): the alert dot and the title's count clear at once.
 */
export async function notificationsRead(queryClient: QueryClient) {
  // A fetch already under way could bring the dot back.
  await queryClient.cancelQueries({ queryKey: viewerKeys.me() });
  await queryClient.cancelQueries({ queryKey: notificationKeys.unread() });
  queryClient.setQueriesData<CurrentUser | null>({ queryKey: viewerKeys.me() }, (me) =>
    me ? { ...me, hasNotification: false } : me,
  );
  queryClient.setQueryData<UnreadCount>(notificationKeys.unread(), { count: 0 });
  // A cancelled first fetch leaves its query with no data and nothing fetching (the page would show
  // signed in without the person until the next poll): ask again, after the read, so no dot comes back.
  await queryClient.refetchQueries({
    queryKey: viewerKeys.me(),
    type: 'active',
    predicate: (q) => q.state.data === undefined,
  });
}

/** Something may have come in (or the dot was cleared on the server): ask again. */
export async function notificationsChanged(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: viewerKeys.me() }),
    queryClient.invalidateQueries({ queryKey: notificationKeys.unread() }),
  ]);
}
