import type { User } from '@pipit/contract';
import { type QueryClient, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { notificationKeys, postKeys, settingsKeys, userKeys, viewerKeys } from '../../../state/keys.ts';
import { pagedQuery } from '../../../state/paged.ts';

/**
 * A block or a mute changed what the viewer sees: their profile of the person takes the answer, and
 * every list of posts, people and notifications is fetched again (the server leaves out what is hidden).
 */
function relationChanged(queryClient: QueryClient, user: User) {
  queryClient.setQueryData(userKeys.detail(user.id), user);
  for (const queryKey of [
    postKeys.all,
    userKeys.suggestions(),
    userKeys.lists(),
    viewerKeys.me(),
    notificationKeys.all,
    settingsKeys.blocked(),
    settingsKeys.muted(),
  ]) {
    queryClient.invalidateQueries({ queryKey });
  }
}

/** PUT or DELETE /api/users/:id/block. */
export function useBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, block }: { id: string; block: boolean }) =>
      call(block ? 'block' : 'unblock', { params: { id } }),
    onSuccess: (user) => relationChanged(queryClient, user),
  });
}

/** PUT /api/users/:id/mute (for `seconds`, or until unmuted when null), or DELETE it (`mute: false`). */
export function useMute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, mute, seconds = null }: { id: string; mute: boolean; seconds?: number | null }) =>
      mute ? call('mute', { params: { id }, body: { durationSeconds: seconds } }) : call('unmute', { params: { id } }),
    onSuccess: (user) => relationChanged(queryClient, user),
  });
}

/** GET /api/blocks: the Blocked accounts list, newest first. */
export const useBlockedAccounts = () =>
  useInfiniteQuery(pagedQuery(settingsKeys.blocked(), (cursor) => call('blocks', { query: { cursor } })));

/** GET /api/mutes: the Muted accounts list, newest first, each with when the mute ends. */
export const useMutedAccounts = () =>
  useInfiniteQuery(pagedQuery(settingsKeys.muted(), (cursor) => call('mutes', { query: { cursor } })));

/** GET /api/muted-words. */
export const useMutedWords = () => useQuery({ queryKey: settingsKeys.mutedWords(), queryFn: () => call('mutedWords') });

/** POST /api/muted-words, or DELETE /api/muted-words/:id; the lists show the change after. */
export function useEditMutedWords() {
  const queryClient = useQueryClient();
  const settled = () => {
    queryClient.invalidateQueries({ queryKey: settingsKeys.mutedWords() });
    queryClient.invalidateQueries({ queryKey: postKeys.all });
    queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  };
  const add = useMutation({
    mutationFn: (phrase: string) => call('addMutedWord', { body: { phrase } }),
    onSuccess: settled,
  });
  const remove = useMutation({
    mutationFn: (id: string) => call('removeMutedWord', { params: { id } }),
    onSettled: settled,
  });
  return { add, remove };
}
