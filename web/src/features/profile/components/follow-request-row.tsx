import type { User } from '@pipit/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { Button } from '../../../components/button.tsx';
import { m, t } from '../../../i18n/i18n.ts';
import { isNotFound } from '../../../lib/api-client.ts';
import { paths } from '../../../lib/paths.ts';
import { notifyError } from '../../../lib/toast.tsx';
import { type Decision, useDecideFollowRequest } from '../api/follow-requests.ts';

const DONE: Record<Decision | 'gone', string> = {
  approve: m('Approved: they follow you now'),
  reject: m('Rejected'),
  gone: m('This request was withdrawn'),
};

/** One person asking to follow the member: avatar, name, @username, bio, then Approve and Reject. */
export function FollowRequestRow({ person }: { person: User }) {
  const decide = useDecideFollowRequest();
  const [done, setDone] = useState<Decision | 'gone' | null>(null);
  const to = paths.user(person.id);
  const run = (decision: Decision) =>
    decide.mutate(
      { id: person.id, decision },
      {
        onSuccess: () => setDone(decision),
        onError: (error) => {
          // Withdrawn (or the account gone) since the list was read: nothing left to decide.
          if (isNotFound(error)) setDone('gone');
          else
            notifyError(
              decision === 'approve' ? t('Could not approve. Try again.') : t('Could not reject. Try again.'),
            );
        },
      },
    );
  return (
    <li className="flex gap-3 border-b border-line px-4 py-3">
      <Avatar user={person} />
      <div className="min-w-0 flex-1 leading-5">
        <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
          <div className="min-w-0 flex-1 basis-40">
            <Link to={to} className="block truncate font-bold hover:underline">
              {person.name}
            </Link>
            <span className="block truncate text-muted">
              <bdi>@{person.username}</bdi>
            </span>
          </div>
          {done ? (
            <p role="status" className="self-center text-[15px] text-muted">
              {t(DONE[done])}
            </p>
          ) : (
            <div className="flex gap-2">
              <Button
                size="sm"
                aria-label={t('Approve @{username}', { username: person.username })}
                disabled={decide.isPending}
                onClick={() => run('approve')}
              >
                {t('Approve')}
              </Button>
              <Button
                size="sm"
                variant="secondary"
                aria-label={t('Reject @{username}', { username: person.username })}
                disabled={decide.isPending}
                onClick={() => run('reject')}
              >
                {t('Reject')}
              </Button>
            </div>
          )}
        </div>
        {person.bio && <p className="mt-1 line-clamp-2 text-[15px] [overflow-wrap:anywhere]">{person.bio}</p>}
      </div>
    </li>
  );
}
