import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { notificationKeys, userKeys, viewerKeys } from '../../../state/keys.ts';

export type Decision = 'approve' | 'reject';

/**
 * POST /api/follow-requests/:id/approve or …/reject. The row stays where it is, saying what was
 * decided, until the list is fetched again (a list never jumps while reading); the member's counts
 * and notifications (the request's goes) are asked again.
 */
export function useDecideFollowRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: Decision }) =>
      call(decision === 'approve' ? 'approveFollowRequest' : 'rejectFollowRequest', { params: { id } }),
    onSuccess: (user) => {
      queryClient.setQueryData(userKeys.detail(user.id), user);
      queryClient.invalidateQueries({ queryKey: viewerKeys.me() });
      queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    },
  });
}
