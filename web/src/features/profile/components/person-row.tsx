import type { User } from '@pipit/contract';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { useRowLink } from '../../../components/use-row-link.ts';
import { handleOf } from '../../../lib/handle.ts';
import { paths } from '../../../lib/paths.ts';
import { FollowButton } from './follow-button.tsx';

/** One person in a list: avatar, name, @username, bio, and Follow/Following. The row opens their profile. */
export function PersonRow({ person }: { person: User }) {
  const to = paths.user(person.id);
  const onClick = useRowLink(to);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the name inside is the row's link for the keyboard
    <li
      onClick={onClick}
      className="flex cursor-pointer gap-3 border-b border-line px-4 py-3 transition-colors hover:bg-fg/[0.03]"
    >
      <Avatar user={person} />
      <div className="min-w-0 flex-1 leading-5">
        <div className="flex items-start gap-3">
          <div className="min-w-0 flex-1">
            <Link to={to} className="block truncate font-bold hover:underline">
              {person.name}
            </Link>
            <span className="block truncate text-muted">
              <bdi>{handleOf(person)}</bdi>
            </span>
          </div>
          <FollowButton user={person} size="sm" />
        </div>
        {person.bio && <p className="mt-1 line-clamp-2 text-[15px] [overflow-wrap:anywhere]">{person.bio}</p>}
      </div>
    </li>
  );
}
