import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { notificationsChanged, notificationsRead } from '../../../state/notifications.ts';

/** POST /api/notifications/read; the alert dot clears at once. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('markNotificationsRead'),
    onMutate: () => notificationsRead(queryClient),
    onSettled: () => notificationsChanged(queryClient),
  });
}
