import type { UserSummary } from '@pipit/contract';
import { Link } from 'react-router';
import { cn } from '../lib/cn.ts';
import { handleOf } from '../lib/handle.ts';
import { paths } from '../lib/paths.ts';
import { RelativeTime } from './relative-time.tsx';

/**
 * A post's author and time, in a row: the name (a link to the profile unless `linkName` is false,
 * where the whole box is a link already), @username (@username@server for someone elsewhere), and the time as the link to the post.
 */
export function Byline({
  author,
  href,
  createdAt,
  linkName = true,
  className,
}: {
  author: Pick<UserSummary, 'id' | 'name' | 'username'> & { domain?: string | null };
  href: string;
  createdAt: string;
  linkName?: boolean;
  className?: string;
}) {
  const name = cn('min-w-0 truncate font-bold', linkName && 'hover:underline', className);
  return (
    <>
      {linkName ? (
        <Link to={paths.user(author.id)} className={name}>
          {author.name}
        </Link>
      ) : (
        <span className={name}>{author.name}</span>
      )}
      <span className="min-w-0 truncate text-muted">
        <bdi>{handleOf(author)}</bdi>
      </span>
      <span aria-hidden="true" className="text-muted">
        ·
      </span>
      <Link to={href} className="shrink-0 text-muted hover:underline">
        <RelativeTime iso={createdAt} />
      </Link>
    </>
  );
}
