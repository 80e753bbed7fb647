import type { Conversation, UnreadCount } from '@pipit/contract';
import { type QueryClient, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';
import { conversationKeys } from './keys.ts';
import { type Pages, pagedQuery } from './paged.ts';
import { useViewer } from './viewer.tsx';

/** GET /api/conversations: the latest first, by cursor. */
export const conversationsQueryOptions = () => ({
  ...pagedQuery(conversationKeys.list(), (cursor) => call('conversations', { query: { cursor } })),
  // Each visit shows what is new; the live stream keeps it current while open.
  staleTime: 0,
});

export const useConversations = () => useInfiniteQuery(conversationsQueryOptions());

/** GET /api/conversations/unread: how many conversations are unread (up to 100), for the nav's badge. */
export const unreadConversationsQueryOptions = () =>
  queryOptions({
    queryKey: conversationKeys.unread(),
    queryFn: () => call('unreadConversations'),
    // Fresh on every live event; polled while the app stays open without a stream.
    refetchInterval: 60_000,
  });

/** How many conversations the viewer has unread: 0 for visitors (not asked). */
export function useUnreadConversations(): number {
  const { status } = useViewer();
  const member = status === 'authenticated';
  const query = useQuery({ ...unreadConversationsQueryOptions(), enabled: member });
  return member ? (query.data?.count ?? 0) : 0;
}

/** A conversation changed (a new post, read or removed here or elsewhere): the list and the badge are asked again. */
export async function conversationsChanged(queryClient: QueryClient) {
  await queryClient.invalidateQueries({ queryKey: conversationKeys.all });
}

/** Changes one conversation in the cached list at once (`null` takes it out), before the server answers. */
export async function conversationEdited(
  queryClient: QueryClient,
  id: string,
  edit: (c: Conversation) => Conversation | null,
) {
  await queryClient.cancelQueries({ queryKey: conversationKeys.all });
  const unreadBefore = queryClient
    .getQueryData<Pages<Conversation>>(conversationKeys.list())
    ?.pages.some((p) => p.items.some((c) => c.id === id && c.unread));
  queryClient.setQueryData<Pages<Conversation>>(conversationKeys.list(), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            items: p.items.flatMap((c) => (c.id === id ? (edit(c) ?? []) : [c])),
          })),
        }
      : data,
  );
  const after = queryClient
    .getQueryData<Pages<Conversation>>(conversationKeys.list())
    ?.pages.some((p) => p.items.some((c) => c.id === id && c.unread));
  if (unreadBefore && !after) {
    queryClient.setQueryData<UnreadCount>(conversationKeys.unread(), (u) =>
      u ? { count: Math.max(0, u.count - 1) } : u,
    );
  }
}
