import { useQueryClient } from '@tanstack/react-query';
import { t } from '../../../i18n/i18n.ts';
import { call } from '../../../lib/api-client.ts';
import { shadowKeys } from '../../../state/keys.ts';
import { postChanged } from '../../../state/posts.ts';
import { type PostShadow, useToggle } from '../../../state/shadow.ts';

/** Repost (PUT) or undo it (DELETE) /api/posts/:id/repost: shown at once wherever the post is, then the server's answer. */
export function useRepostPost(id: string) {
  const queryClient = useQueryClient();
  return useToggle({
    shadowKey: shadowKeys.repost(id),
    shadow: (reposted): PostShadow => ({ repostedByMe: reposted }),
    send: (reposted) => call(reposted ? 'repostPost' : 'unrepostPost', { params: { id } }),
    settled: (post) => postChanged(queryClient, post),
    failure: (reposted) => (reposted ? t('Could not repost. Try again.') : t('Could not undo the repost. Try again.')),
  });
}
