import { api, type Notification, type Page } from '@pipit/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { notificationKeys } from '../../../lib/query-keys.ts';

/** GET /api/notifications: newest first, by cursor. */
export const getNotifications = (cursor: string | null) =>
  apiFetch<Page<Notification>>(api.notifications, { query: { cursor } });

export const notificationsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: notificationKeys.list(),
    queryFn: ({ pageParam }) => getNotifications(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Each visit shows what is new (and marks it read).
    staleTime: 0,
    refetchOnWindowFocus: false,
  });

export const useNotifications = () => useInfiniteQuery(notificationsQueryOptions());
