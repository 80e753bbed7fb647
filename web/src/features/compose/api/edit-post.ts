import type { EditPostBody } from '@pipit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { postEdited } from '../../../state/posts.ts';

/** PATCH /api/posts/:id: the edited post replaces what every list on screen shows of it (state/posts.ts postEdited). */
export function useEditPost(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditPostBody) => call('editPost', { params: { id }, body }),
    onSuccess: (post) => postEdited(queryClient, post),
  });
}
