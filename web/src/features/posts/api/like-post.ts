import { api, type Post } from '@pipit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { bump, updatePostEverywhere } from '../../../lib/post-cache.ts';
import { notifyError } from '../../../lib/toast.tsx';

/** PUT (like) or DELETE (unlike) /api/posts/:id/like; both idempotent, both answer the post. */
export const setLike = (id: string, liked: boolean) =>
  apiFetch<Post>(api.like(id), { method: liked ? 'PUT' : 'DELETE' });

const toggled = (liked: boolean) => (post: Post) =>
  post.likedByMe === liked ? post : { ...post, likedByMe: liked, likeCount: bump(post.likeCount, liked ? 1 : -1) };

/**
 * Likes show at once everywhere the post is on screen, then settle to the server's answer; a
 * failure flips them back. While several toggles of one post are in flight only the last answer
 * counts, so a quick like-unlike never flickers.
 */
export function useLikePost(id: string) {
  const queryClient = useQueryClient();
  const mutationKey = ['like', id];
  return useMutation({
    mutationKey,
    mutationFn: (liked: boolean) => setLike(id, liked),
    onMutate: (liked) => updatePostEverywhere(queryClient, id, toggled(liked)),
    onSuccess: (post) => {
      if (queryClient.isMutating({ mutationKey }) <= 1) updatePostEverywhere(queryClient, id, () => post);
    },
    onError: (_error, liked) => {
      updatePostEverywhere(queryClient, id, toggled(!liked));
      notifyError(liked ? 'Could not like the post. Try again.' : 'Could not unlike the post. Try again.');
    },
  });
}
