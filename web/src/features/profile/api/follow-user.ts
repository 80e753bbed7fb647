import { useQueryClient } from '@tanstack/react-query';
import { t } from '../../../i18n/i18n.ts';
import { call } from '../../../lib/api-client.ts';
import { shadowKeys } from '../../../state/keys.ts';
import { type UserShadow, useToggle } from '../../../state/shadow.ts';
import { followChanged } from '../../../state/users.ts';

/**
 * Follow (PUT) or unfollow (DELETE) /api/users/:id/follow: the button and their followers count
 * show it at once, then the server's answer (state/users.ts followChanged). Someone who approves
 * followers (`locked`) gets a request instead: "Requested" at once, no count moved; the same DELETE
 * withdraws it.
 */
export function useFollowUser(id: string, locked = false) {
  const queryClient = useQueryClient();
  return useToggle({
    shadowKey: shadowKeys.user(id),
    shadow: (follow): UserShadow =>
      !locked
        ? { isFollowing: follow }
        : follow
          ? { followRequested: true }
          : { isFollowing: false, followRequested: false },
    send: (follow) => call(follow ? 'follow' : 'unfollow', { params: { id } }),
    settled: (user) => followChanged(queryClient, user),
    failure: (follow) => (follow ? t('Could not follow. Try again.') : t('Could not unfollow. Try again.')),
  });
}
