import { useId } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { t } from '../../../i18n/i18n.ts';
import { paths } from '../../../lib/paths.ts';
import { useSuggestions } from '../../../state/users.ts';
import { FollowButton } from './follow-button.tsx';

/** The right column's suggestions; nothing at all when there is nobody to suggest. */
export function WhoToFollow() {
  const titleId = useId();
  const { data: people } = useSuggestions();
  if (!people || people.length === 0) return null;
  return (
    <section aria-labelledby={titleId} className="overflow-hidden rounded-2xl border border-line">
      <h2 id={titleId} className="px-4 py-3 text-xl font-extrabold">
        {t('Who To Follow')}
      </h2>
      <ul>
        {people.map((person) => (
          <li key={person.id} className="flex items-center gap-3 px-4 py-3 transition-colors hover:bg-fg/[0.03]">
            <Avatar user={person} />
            <div className="min-w-0 flex-1 leading-5">
              <Link to={paths.user(person.id)} className="block truncate font-bold hover:underline">
                {person.name}
              </Link>
              <span className="block truncate text-muted">
                <bdi>@{person.username}</bdi>
              </span>
            </div>
            <FollowButton user={person} size="sm" />
          </li>
        ))}
      </ul>
    </section>
  );
}
