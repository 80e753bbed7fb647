import type { List } from '@pipit/contract';
import { ListIcon } from 'lucide-react';
import { Link } from 'react-router';
import { useRowLink } from '../../../components/use-row-link.ts';
import { t } from '../../../i18n/i18n.ts';
import { paths } from '../../../lib/paths.ts';

export const memberCount = (n: number) => t('{count, plural, one {# member} other {# members}}', { count: n });

/** One list among the viewer's: its title, how many people, whether it is exclusive. The row opens it. */
export function ListRow({ list }: { list: List }) {
  const to = paths.list(list.id);
  const onClick = useRowLink(to);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the title inside is the row's link for the keyboard
    <li
      onClick={onClick}
      className="flex cursor-pointer items-center gap-3 border-b border-line px-4 py-3 transition-colors hover:bg-fg/[0.03]"
    >
      <span className="grid size-12 shrink-0 place-items-center rounded-2xl bg-surface text-muted" aria-hidden="true">
        <ListIcon className="size-6" />
      </span>
      <div className="min-w-0 flex-1 leading-5">
        <Link to={to} className="block truncate font-bold hover:underline [overflow-wrap:anywhere]">
          {list.title}
        </Link>
        <span className="block truncate text-[15px] text-muted">
          {list.exclusive
            ? t('{members} · Exclusive', { members: memberCount(list.memberCount) })
            : memberCount(list.memberCount)}
        </span>
      </div>
    </li>
  );
}
