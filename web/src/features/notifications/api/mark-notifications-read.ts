import { api, type CurrentUser } from '@pipit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { userKeys } from '../../../lib/query-keys.ts';

export const markNotificationsRead = () => apiFetch<void>(api.notificationsRead, { method: 'POST' });

/** POST /api/notifications/read; the alert dot clears at once. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onMutate: async () => {
      // A fetch already under way could bring the dot back.
      await queryClient.cancelQueries({ queryKey: userKeys.current() });
      queryClient.setQueryData<CurrentUser | null>(userKeys.current(), (me) =>
        me ? { ...me, hasNotification: false } : me,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.current() }),
  });
}
