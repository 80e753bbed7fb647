import type { CreatePostBody } from '@pipit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { postCreated } from '../../../state/posts.ts';

/** POST /api/posts; the new post goes straight into the lists on screen (state/posts.ts postCreated). */
export function useCreatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePostBody) => call('createPost', { body }),
    onSuccess: (post) => postCreated(queryClient, post),
  });
}
