import { api, type Post } from '@pipit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { bump, removePostEverywhere, updatePostEverywhere } from '../../../lib/post-cache.ts';
import { userKeys } from '../../../lib/query-keys.ts';

export const deletePost = (id: string) => apiFetch<void>(api.post(id), { method: 'DELETE' });

/** DELETE /api/posts/:id, then out of every list; a reply also leaves its parent's count. */
export function useDeletePost(post: Post) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deletePost(post.id),
    onSuccess: () => {
      removePostEverywhere(queryClient, post.id);
      if (post.parentId) {
        updatePostEverywhere(queryClient, post.parentId, (parent) => ({
          ...parent,
          replyCount: bump(parent.replyCount, -1),
        }));
      }
      queryClient.invalidateQueries({ queryKey: userKeys.current() });
      queryClient.invalidateQueries({ queryKey: userKeys.detail(post.author.id) });
    },
  });
}
