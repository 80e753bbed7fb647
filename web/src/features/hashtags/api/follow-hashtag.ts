import { useQueryClient } from '@tanstack/react-query';
import { t } from '../../../i18n/i18n.ts';
import { ApiRequestError, call } from '../../../lib/api-client.ts';
import { hashtagFollowChanged } from '../../../state/hashtags.ts';
import { shadowKeys } from '../../../state/keys.ts';
import { type HashtagShadow, useToggle } from '../../../state/shadow.ts';

/**
 * Follow (PUT) or unfollow (DELETE) /api/hashtags/:tag/follow: the button shows it at once, then the
 * server's answer (state/hashtags.ts hashtagFollowChanged: the followed list and Home fetched again).
 */
export function useFollowHashtag(tag: string) {
  const queryClient = useQueryClient();
  return useToggle({
    shadowKey: shadowKeys.hashtag(tag),
    shadow: (follow): HashtagShadow => ({ following: follow }),
    send: (follow) => call(follow ? 'followHashtag' : 'unfollowHashtag', { params: { tag } }),
    settled: (hashtag) => hashtagFollowChanged(queryClient, hashtag),
    failure: (follow, error) => {
      // "You can follow at most 100 hashtags; unfollow one first." says what to do.
      if (error instanceof ApiRequestError && error.code === 'LIMIT_REACHED') return error.message;
      return follow
        ? t('Could not follow #{tag}. Try again.', { tag })
        : t('Could not unfollow #{tag}. Try again.', { tag });
    },
  });
}
