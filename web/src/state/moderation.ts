import type { ReportBody } from '@pipit/contract';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';
import { moderationKeys, postKeys, userKeys } from './keys.ts';

/** Reports and suspensions: what a post's flag and a profile's More menu send (the Moderation page has the rest). */

/**
 * A moderator acted: every moderation list, and every list of posts and people (a removed post or a
 * suspended account leaves them; a lifted suspension brings them back), is fetched again.
 */
export function moderated(queryClient: QueryClient) {
  for (const queryKey of [moderationKeys.all, postKeys.all, userKeys.all]) {
    queryClient.invalidateQueries({ queryKey });
  }
}

/** POST /api/posts/:id/report or /api/users/:id/report; the member's own list shows it after. */
export function useReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id, body }: { kind: 'post' | 'user'; id: string; body: ReportBody }) =>
      call(kind === 'post' ? 'reportPost' : 'reportUser', { params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moderationKeys.mine() }),
  });
}

/** PUT (suspend) or DELETE (lift) /api/moderation/users/:id/suspension. */
export function useSuspension() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, suspend }: { id: string; suspend: boolean }) =>
      call(suspend ? 'suspend' : 'unsuspend', { params: { id } }),
    onSuccess: () => moderated(queryClient),
  });
}
