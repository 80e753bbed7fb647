import type { UserSummary } from '@pipit/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, type ButtonProps } from '../../../components/button.tsx';
import { t } from '../../../i18n/i18n.ts';
import { cn } from '../../../lib/cn.ts';
import { useMembersOnly } from '../../../lib/members-only.ts';
import { useUserView } from '../../../state/shadow.ts';
import { userQueryOptions } from '../../../state/users.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { useFollowUser } from '../api/follow-user.ts';

interface FollowButtonProps {
  user: Pick<UserSummary, 'id'> & { isFollowing?: boolean; locked?: boolean; followRequested?: boolean };
  size?: ButtonProps['size'];
}

/**
 * 'Follow' / 'Following', which says 'Unfollow' under the pointer or keyboard focus; for someone who
 * approves followers, 'Requested' while the request waits, which says 'Cancel request' the same way
 * and withdraws it. The state is the toggle in flight (state/shadow.ts), else the cached profile, else
 * what the list said; visitors are asked to sign in.
 */
export function FollowButton({ user, size = 'md' }: FollowButtonProps) {
  const { user: me } = useViewer();
  const membersOnly = useMembersOnly();
  const { data: profile } = useQuery({ ...userQueryOptions(user.id), enabled: false });
  const locked = profile?.locked ?? user.locked ?? false;
  const follow = useFollowUser(user.id, locked);
  const view = useUserView({
    id: user.id,
    isFollowing: profile?.isFollowing ?? user.isFollowing ?? false,
    followRequested: profile?.followRequested ?? user.followRequested ?? false,
  });
  const [armed, setArmed] = useState(false);
  if (me?.id === user.id) return null;

  const following = view.isFollowing;
  const requested = !following && view.followRequested === true;
  const engaged = following || requested;
  // 'Unfollow' once the pointer or focus comes to a Following button, not right after following.
  const undo = engaged && armed;
  const label = following
    ? undo
      ? t('Unfollow')
      : t('Following')
    : requested
      ? undo
        ? t('Cancel request')
        : t('Requested')
      : t('Follow');
  return (
    <Button
      size={size}
      variant={engaged ? 'secondary' : 'primary'}
      className={cn('min-w-[6.5rem]', undo && 'border-danger/60 bg-danger/10 text-danger hover:bg-danger/10')}
      onPointerEnter={() => setArmed(true)}
      onPointerLeave={() => setArmed(false)}
      onFocus={() => setArmed(true)}
      onBlur={() => setArmed(false)}
      onClick={() => {
        setArmed(false);
        membersOnly(() => follow(!engaged));
      }}
    >
      {label}
    </Button>
  );
}
