import type { UserSummary } from '@pipit/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, type ButtonProps } from '../../../components/button.tsx';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { openModal } from '../../../lib/modals.ts';
import { useSession } from '../../../lib/session.tsx';
import { useFollowUser } from '../api/follow-user.ts';
import { userQueryOptions } from '../api/get-user.ts';

interface FollowButtonProps {
  user: Pick<UserSummary, 'id'> & { isFollowing?: boolean };
  size?: ButtonProps['size'];
}

/**
 * 'Follow' / 'Following'. The state is the pending toggle, else the cached profile (kept in
 * step by the mutation), else what the list said; visitors are asked to sign in.
 */
export function FollowButton({ user, size = 'md' }: FollowButtonProps) {
  const { user: me } = useCurrentUser();
  const { status } = useSession();
  const { data: profile } = useQuery({ ...userQueryOptions(user.id), enabled: false });
  const follow = useFollowUser(user.id);
  if (me?.id === user.id) return null;

  const following = follow.isPending ? follow.variables : (profile?.isFollowing ?? user.isFollowing ?? false);
  return (
    <Button
      size={size}
      variant={following ? 'secondary' : 'primary'}
      className={following ? 'hover:border-danger/60 hover:bg-danger/10 hover:text-danger' : undefined}
      onClick={() => {
        // Only a known visitor is asked to sign in: while the session loads, a click waits for it.
        if (status === 'unauthenticated') openModal('login');
        else if (status === 'authenticated') follow.mutate(!following);
      }}
    >
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
