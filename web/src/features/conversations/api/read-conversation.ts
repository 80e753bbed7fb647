import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { conversationEdited, conversationsChanged } from '../../../state/conversations.ts';

/** POST /api/conversations/:id/read: the row and the badge clear at once. */
export function useReadConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('readConversation', { params: { id } }),
    onMutate: (id) => conversationEdited(queryClient, id, (c) => ({ ...c, unread: false })),
    onSettled: () => conversationsChanged(queryClient),
  });
}
