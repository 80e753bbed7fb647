import { api, type CreatePostBody, type Post } from '@pipit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { appendPost, bump, prependPost, updatePostEverywhere } from '../../../lib/post-cache.ts';
import { postKeys, userKeys } from '../../../lib/query-keys.ts';

export const createPost = (body: CreatePostBody) => apiFetch<Post>(api.posts, { method: 'POST', body });

/**
 * POST /api/posts. The new post goes straight into the lists already on screen (top of the
 * timelines and the author's posts; end of the replies), so nothing refetches or jumps.
 */
export function useCreatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPost,
    onSuccess: (post) => {
      queryClient.setQueryData(postKeys.detail(post.id), post);
      if (post.parentId) {
        appendPost(queryClient, postKeys.replies(post.parentId), post);
        updatePostEverywhere(queryClient, post.parentId, (parent) => ({
          ...parent,
          replyCount: bump(parent.replyCount, 1),
        }));
        queryClient.invalidateQueries({ queryKey: postKeys.byUser(post.author.id) });
      } else {
        prependPost(queryClient, postKeys.timeline('following'), post);
        prependPost(queryClient, postKeys.timeline('everyone'), post);
        prependPost(queryClient, postKeys.byUser(post.author.id), post);
      }
      queryClient.invalidateQueries({ queryKey: userKeys.current() });
      queryClient.invalidateQueries({ queryKey: userKeys.detail(post.author.id) });
    },
  });
}
