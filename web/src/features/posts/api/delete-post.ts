import type { Post } from '@pipit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { postDeleted } from '../../../state/posts.ts';

/** DELETE /api/posts/:id, then out of every list (state/posts.ts postDeleted). */
export function useDeletePost(post: Post) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('deletePost', { params: { id: post.id } }),
    onSuccess: () => postDeleted(queryClient, post),
  });
}
