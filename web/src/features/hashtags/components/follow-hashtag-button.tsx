import { useState } from 'react';
import { Button, type ButtonProps } from '../../../components/button.tsx';
import { t } from '../../../i18n/i18n.ts';
import { cn } from '../../../lib/cn.ts';
import { useMembersOnly } from '../../../lib/members-only.ts';
import { useHashtag } from '../../../state/hashtags.ts';
import { useHashtagFollowing } from '../../../state/shadow.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { useFollowHashtag } from '../api/follow-hashtag.ts';

interface FollowHashtagButtonProps {
  /** The tag's stored form. */
  tag: string;
  /** What a list already knows (the followed list: true); else the tag's own answer is asked for. */
  following?: boolean;
  size?: ButtonProps['size'];
}

/**
 * 'Follow' / 'Following' for a hashtag, as for a person: 'Unfollow' under the pointer or keyboard
 * focus, the change shown at once (state/shadow.ts) and settled to the server's answer; visitors are
 * asked to sign in.
 */
export function FollowHashtagButton({ tag, following: known, size = 'md' }: FollowHashtagButtonProps) {
  const { status } = useViewer();
  const membersOnly = useMembersOnly();
  const answer = useHashtag(tag, status === 'authenticated' && known === undefined);
  const follow = useFollowHashtag(tag);
  const following = useHashtagFollowing(tag, answer.data?.following ?? known ?? false);
  const [armed, setArmed] = useState(false);
  const unfollow = following && armed;
  return (
    <Button
      size={size}
      variant={following ? 'secondary' : 'primary'}
      aria-label={
        unfollow
          ? t('Unfollow #{tag}', { tag })
          : following
            ? t('Following #{tag}', { tag })
            : t('Follow #{tag}', { tag })
      }
      // Until the member's answer is in, the button would say Follow for a tag they follow.
      disabled={status === 'loading' || (status === 'authenticated' && known === undefined && answer.isPending)}
      className={cn('min-w-[6.5rem]', unfollow && 'border-danger/60 bg-danger/10 text-danger hover:bg-danger/10')}
      onPointerEnter={() => setArmed(true)}
      onPointerLeave={() => setArmed(false)}
      onFocus={() => setArmed(true)}
      onBlur={() => setArmed(false)}
      onClick={() => {
        setArmed(false);
        membersOnly(() => follow(!following));
      }}
    >
      {unfollow ? t('Unfollow') : following ? t('Following') : t('Follow')}
    </Button>
  );
}
