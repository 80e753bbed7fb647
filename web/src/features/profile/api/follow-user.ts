import { api, type CurrentUser, type User, type UserSummary } from '@pipit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { bump } from '../../../lib/post-cache.ts';
import { postKeys, userKeys } from '../../../lib/query-keys.ts';
import { notifyError } from '../../../lib/toast.tsx';

/** PUT (follow) or DELETE (unfollow) /api/users/:id/follow; idempotent, answers the person. */
export const setFollow = (id: string, follow: boolean) =>
  apiFetch<User>(api.follow(id), { method: follow ? 'PUT' : 'DELETE' });

/**
 * Follow shows at once (the button, their followers, my following) and settles to the server's
 * answer; a failure puts everything back.
 */
export function useFollowUser(id: string) {
  const queryClient = useQueryClient();
  const mutationKey = ['follow', id];

  const apply = (follow: boolean) => {
    queryClient.setQueryData<User>(userKeys.detail(id), (user) =>
      user && user.isFollowing !== follow
        ? { ...user, isFollowing: follow, followersCount: bump(user.followersCount, follow ? 1 : -1) }
        : user,
    );
    queryClient.setQueryData<CurrentUser | null>(userKeys.current(), (me) =>
      me ? { ...me, followingCount: bump(me.followingCount, follow ? 1 : -1) } : me,
    );
  };

  return useMutation({
    mutationKey,
    mutationFn: (follow: boolean) => setFollow(id, follow),
    onMutate: async (follow) => {
      await queryClient.cancelQueries({ queryKey: userKeys.detail(id) });
      apply(follow);
    },
    onSuccess: (user) => {
      if (queryClient.isMutating({ mutationKey }) <= 1) queryClient.setQueryData(userKeys.detail(id), user);
      if (user.isFollowing) {
        // Who To Follow drops the person once followed, and asks for someone to take their place.
        queryClient.setQueryData<UserSummary[]>(userKeys.suggestions(), (people) =>
          people?.filter((person) => person.id !== id),
        );
        queryClient.invalidateQueries({ queryKey: userKeys.suggestions() });
      }
    },
    onError: (_error, follow) => {
      apply(!follow);
      notifyError(follow ? 'Could not follow. Try again.' : 'Could not unfollow. Try again.');
    },
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: userKeys.current() });
      queryClient.invalidateQueries({ queryKey: postKeys.timeline('following') });
    },
  });
}
