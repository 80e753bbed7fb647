import type { User } from '@pipit/contract';
import { CalendarDays, Lock } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { Button } from '../../../components/button.tsx';
import { PostText } from '../../../components/post-text.tsx';
import { t } from '../../../i18n/i18n.ts';
import { countWords } from '../../../i18n/rich.tsx';
import { formatCount, joinedDate } from '../../../lib/format-time.ts';
import { handleOf } from '../../../lib/handle.ts';
import { openModal } from '../../../lib/modals.ts';
import { paths } from '../../../lib/paths.ts';
import { useUserView } from '../../../state/shadow.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { FollowButton } from './follow-button.tsx';

/**
 * Cover, the large bordered avatar over its edge, name, bio, joined date, counts, Edit or Follow.
 * `menu` is shown to members beside Follow on someone else's profile: the page passes the safety
 * feature's More menu, as features never import each other.
 */
export function ProfileHeader({ user: cached, menu }: { user: User; menu?: ReactNode }) {
  const user = useUserView(cached);
  const { user: me } = useViewer();
  const own = me?.id === user.id;
  return (
    <div className="flex flex-col border-b border-line">
      {/* The avatar comes first in the document (it is the person); the cover is drawn above it. */}
      <div className="relative z-10 flex items-start justify-between px-4 pt-3">
        <Avatar user={user} size="large" border className="-mt-[76px]" />
        {own ? (
          <div className="flex items-center gap-2">
            {user.locked && (
              <Link
                to={paths.followRequests}
                className="inline-flex h-9 items-center rounded-full border border-line-strong px-4 text-[15px] font-bold hover:bg-fg/10"
              >
                {t('Follow requests')}
              </Link>
            )}
            <Button variant="secondary" aria-label={t('Edit profile')} onClick={() => openModal('editProfile')}>
              {t('Edit')}
            </Button>
          </div>
        ) : (
          <div className="flex items-center gap-2">
            {me && menu}
            {!user.isBlocking && !user.suspended && <FollowButton user={user} />}
          </div>
        )}
      </div>
      <div className="order-first aspect-[3/1] w-full bg-surface-2">
        {user.coverImage && <img src={user.coverImage} alt="" className="size-full object-cover" />}
      </div>
      <div className="px-4 pt-2 pb-4">
        <h2 className="break-words text-xl font-extrabold leading-6 [overflow-wrap:anywhere]">
          {user.name}
          {user.locked && (
            <Lock
              role="img"
              aria-label={t('Approves followers')}
              className="ms-1 inline-block size-[18px] align-[-2px] text-muted"
            />
          )}
        </h2>
        <p className="break-all text-[15px] text-muted">
          <bdi>{handleOf(user)}</bdi>
        </p>
        {user.suspended && (
          <p className="mt-3 inline-block rounded-md border border-danger/40 px-2 py-1 text-sm font-bold text-danger">
            {t('Suspended')}
          </p>
        )}
        {user.locked && !own && !user.isFollowing && (
          <p className="mt-3 text-[15px] text-muted">
            {t('@{username} approves followers: following sends a request.', {
              username: user.domain ? `${user.username}@${user.domain}` : user.username,
            })}
          </p>
        )}
        {user.bio && <PostText text={user.bio} className="mt-3 text-[15px] leading-5" />}
        <p className="mt-3 flex items-center gap-1 text-[15px] text-muted">
          <CalendarDays aria-hidden="true" className="size-[18px]" />
          {t('Joined {date}', { date: joinedDate(user.createdAt) })}
        </p>
        <p className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-[15px]">
          <Link to={paths.following(user.id)} className="hover:underline">
            {countWords(
              t('{count, plural, one {<0>{shown}</0> Following} other {<0>{shown}</0> Following}}', {
                count: user.followingCount,
                shown: formatCount(user.followingCount),
              }),
            )}
          </Link>
          <Link to={paths.followers(user.id)} className="hover:underline">
            {countWords(
              t('{count, plural, one {<0>{shown}</0> Follower} other {<0>{shown}</0> Followers}}', {
                count: user.followersCount,
                shown: formatCount(user.followersCount),
              }),
            )}
          </Link>
        </p>
      </div>
    </div>
  );
}
