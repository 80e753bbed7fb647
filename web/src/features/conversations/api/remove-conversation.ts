import { useMutation, useQueryClient } from '@tanstack/react-query';
import { t } from '../../../i18n/i18n.ts';
import { call } from '../../../lib/api-client.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { conversationEdited, conversationsChanged } from '../../../state/conversations.ts';

/** DELETE /api/conversations/:id: off the list at once; back if the server refuses. */
export function useRemoveConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('removeConversation', { params: { id } }),
    onMutate: (id) => conversationEdited(queryClient, id, () => null),
    onSuccess: () => notify(t('Conversation deleted')),
    onError: () => notifyError(t('Couldn’t delete the conversation. Try again.')),
    onSettled: () => conversationsChanged(queryClient),
  });
}
