import { useMutation, useQueryClient } from '@tanstack/react-query';
import { t } from '../../../i18n/i18n.ts';
import { ApiRequestError, call } from '../../../lib/api-client.ts';
import { notifyError } from '../../../lib/toast.tsx';
import { postChanged } from '../../../state/posts.ts';

/**
 * POST /api/posts/:id/poll/votes; the answer (the post with the counts and the viewer's choices)
 * replaces the post wherever it is shown. A refusal (already voted elsewhere, ended meanwhile) is
 * said in a toast and the post is read again.
 */
export function useVotePoll(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choices: number[]) => call('votePoll', { params: { id: postId }, body: { choices } }),
    onSuccess: (post) => postChanged(queryClient, post),
    onError: async (error) => {
      notifyError(error instanceof ApiRequestError ? error.message : t('Your vote could not be sent. Try again.'));
      try {
        postChanged(queryClient, await call('post', { params: { id: postId } }));
      } catch {
        // The post is gone or out of reach: the lists will say so when read again.
      }
    },
  });
}
