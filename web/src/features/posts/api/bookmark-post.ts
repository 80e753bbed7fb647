import { useQueryClient } from '@tanstack/react-query';
import { t } from '../../../i18n/i18n.ts';
import { call } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.tsx';
import { shadowKeys } from '../../../state/keys.ts';
import { bookmarkChanged } from '../../../state/posts.ts';
import { type PostShadow, useToggle } from '../../../state/shadow.ts';

/** Bookmark (PUT) or take out (DELETE) /api/posts/:id/bookmark: shown at once, then the server's answer. */
export function useBookmarkPost(id: string) {
  const queryClient = useQueryClient();
  return useToggle({
    shadowKey: shadowKeys.bookmark(id),
    shadow: (kept): PostShadow => ({ bookmarkedByMe: kept }),
    send: (kept) => call(kept ? 'bookmarkPost' : 'unbookmarkPost', { params: { id } }),
    settled: (post) => {
      bookmarkChanged(queryClient, post);
      // Nothing on the post counts bookmarks: say where it went.
      notify(post.bookmarkedByMe ? t('Added to your Bookmarks') : t('Removed from your Bookmarks'));
    },
    failure: (kept) =>
      kept ? t('Could not bookmark the post. Try again.') : t('Could not remove the bookmark. Try again.'),
  });
}
