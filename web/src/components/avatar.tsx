import type { UserSummary } from '@pipit/contract';
import { Link } from 'react-router';
import { cn } from '../lib/cn.ts';
import { paths } from '../lib/paths.ts';

export const PLACEHOLDER_IMAGE = '/images/placeholder.png';

const sizes = { large: 128, normal: 48, small: 20 } as const;

interface AvatarProps {
  user: Pick<UserSummary, 'id' | 'name' | 'profileImage'>;
  /** large 128 px, normal 48 px: the seed's sizes; small 20 px (a quoted post's author). */
  size?: keyof typeof sizes;
  /** A ring in the page colour, for the avatar that overlaps a cover. */
  border?: boolean;
  /** Set false where the avatar sits inside another link. */
  link?: boolean;
  className?: string;
}

/** A round avatar that goes to the person's profile; the placeholder when they have no image. */
export function Avatar({ user, size = 'normal', border, link = true, className }: AvatarProps) {
  const px = sizes[size];
  const image = (
    <img
      src={user.profileImage || PLACEHOLDER_IMAGE}
      alt=""
      width={px}
      height={px}
      loading="lazy"
      decoding="async"
      onError={(event) => {
        const img = event.currentTarget;
        if (!img.src.endsWith(PLACEHOLDER_IMAGE)) img.src = PLACEHOLDER_IMAGE;
      }}
      className={cn('block rounded-full bg-surface object-cover', border && 'border-4 border-bg')}
      style={{ width: px, height: px }}
    />
  );
  if (!link) return <span className={cn('block shrink-0', className)}>{image}</span>;
  return (
    <Link
      to={paths.user(user.id)}
      aria-label={user.name}
      className={cn('block shrink-0 rounded-full', className)}
      onClick={(event) => event.stopPropagation()}
    >
      {image}
    </Link>
  );
}
