import { useQueryClient } from '@tanstack/react-query';
import { t } from '../../../i18n/i18n.ts';
import { call } from '../../../lib/api-client.ts';
import { shadowKeys } from '../../../state/keys.ts';
import { postChanged } from '../../../state/posts.ts';
import { type PostShadow, useToggle } from '../../../state/shadow.ts';

/** Like (PUT) or unlike (DELETE) /api/posts/:id/like: shown at once wherever the post is, then the server's answer. */
export function useLikePost(id: string) {
  const queryClient = useQueryClient();
  return useToggle({
    shadowKey: shadowKeys.post(id),
    shadow: (liked): PostShadow => ({ likedByMe: liked }),
    send: (liked) => call(liked ? 'likePost' : 'unlikePost', { params: { id } }),
    settled: (post) => postChanged(queryClient, post),
    failure: (liked) => (liked ? t('Could not like the post. Try again.') : t('Could not unlike the post. Try again.')),
  });
}
