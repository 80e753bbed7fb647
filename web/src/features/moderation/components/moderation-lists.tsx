import type { ModeratedUser, Page, UserSummary } from '@pipit/contract';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { Button } from '../../../components/button.tsx';
import { ListFooter } from '../../../components/list-footer.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { EmptyState, ErrorState, Spinner } from '../../../components/states.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { t } from '../../../i18n/i18n.ts';
import { ApiRequestError, call } from '../../../lib/api-client.ts';
import { handleOf } from '../../../lib/handle.ts';
import { paths } from '../../../lib/paths.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useSuspension } from '../../../state/moderation.ts';
import { pageItems } from '../../../state/paged.ts';
import { useAuditLog, useModeratedAccounts, useModerationReports, useSetRole } from '../api/moderation.ts';
import { auditText } from '../labels.ts';
import { ReportCard } from './report-card.tsx';

/** The states of a paged list: loading, failed, empty, or its rows with the footer that loads more. */
function Paged<T extends { id: string }>({
  query,
  noun,
  empty,
  children,
}: {
  query: UseInfiniteQueryResult<InfiniteData<Page<T>, unknown>>;
  noun: string;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  const items = pageItems(query.data);
  if (query.isPending) return <Spinner label={t('Loading {noun}', { noun })} />;
  if (query.isError)
    return <ErrorState message={t('Couldn’t load the {noun}.', { noun })} onRetry={() => query.refetch()} />;
  if (items.length === 0) return <>{empty}</>;
  return (
    <>
      {children(items)}
      <ListFooter query={query} noun={noun} />
    </>
  );
}

/** Open reports, oldest first: the moderators' queue. Or the closed ones, newest first. */
export function ReportList({ status }: { status: 'open' | 'closed' }) {
  const query = useModerationReports(status);
  return (
    <Paged
      query={query}
      noun={t('reports')}
      empty={
        <EmptyState title={status === 'open' ? t('No open reports') : t('No closed reports yet')}>
          {status === 'open'
            ? t('When members report a post or an account, it shows here for a moderator to act on.')
            : t('Reports that a moderator closed show here, with what came of them.')}
        </EmptyState>
      }
    >
      {(reports) => (
        <div>
          {reports.map((report) => (
            <ReportCard key={report.id} report={report} />
          ))}
        </div>
      )}
    </Paged>
  );
}

function AccountRow({ user, action }: { user: ModeratedUser | UserSummary; action?: ReactNode }) {
  return (
    <li className="flex items-center gap-3 border-b border-line px-4 py-3">
      <Avatar user={user} />
      <div className="min-w-0 flex-1">
        <Link to={paths.user(user.id)} className="block truncate font-bold hover:underline">
          {user.name}
        </Link>
        <p className="truncate text-[15px] text-muted">
          <bdi>{handleOf(user)}</bdi>
          {'role' in user && user.role !== 'member' && ` · ${user.role === 'admin' ? t('Admin') : t('Moderator')}`}
        </p>
      </div>
      {action}
    </li>
  );
}

/** Suspended accounts, newest first, each with "Lift suspension". */
export function SuspendedList() {
  const query = useModeratedAccounts('suspended');
  const suspension = useSuspension();
  return (
    <Paged
      query={query}
      noun={t('suspended accounts')}
      empty={
        <EmptyState title={t('No suspended accounts')}>
          {t('Accounts a moderator suspends are listed here.')}
        </EmptyState>
      }
    >
      {(people) => (
        <ul aria-label={t('Suspended accounts')}>
          {people.map((user) => (
            <AccountRow
              key={user.id}
              user={user}
              action={
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={suspension.isPending}
                  onClick={() =>
                    suspension.mutate(
                      { id: user.id, suspend: false },
                      {
                        onSuccess: () => notify(t('Lifted the suspension of @{username}', { username: user.username })),
                        onError: () => notifyError(t('Could not lift the suspension. Try again.')),
                      },
                    )
                  }
                >
                  {t('Lift suspension')}
                </Button>
              }
            />
          ))}
        </ul>
      )}
    </Paged>
  );
}

/** Moderators and admins; an admin names a moderator by username, or makes one a member again. */
export function TeamList({ admin }: { admin: boolean }) {
  const query = useModeratedAccounts('team');
  const setRole = useSetRole();
  const [username, setUsername] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const name = async (event: FormEvent) => {
    event.preventDefault();
    const wanted = username.trim().replace(/^@/, '');
    if (!wanted) {
      setProblem(t('Enter a username.'));
      return;
    }
    try {
      const found = await call('userByUsername', { params: { username: wanted } });
      await setRole.mutateAsync({ id: found.id, role: 'moderator' });
      setUsername('');
      setProblem(null);
      notify(t('@{username} is now a moderator', { username: found.username }));
    } catch (error) {
      setProblem(
        error instanceof ApiRequestError && error.code === 'NOT_FOUND'
          ? t('No one is called @{wanted}.', { wanted })
          : error instanceof Error
            ? error.message
            : t('Could not do that. Try again.'),
      );
    }
  };

  return (
    <>
      {admin && (
        <form onSubmit={name} noValidate className="flex items-start gap-3 border-b border-line px-4 pt-4">
          <div className="flex-1">
            <TextField
              label={t('Name a moderator (username)')}
              value={username}
              onChange={(event) => setUsername(event.target.value)}
              error={problem}
              autoComplete="off"
            />
          </div>
          <Button type="submit" className="mt-6" disabled={setRole.isPending}>
            {t('Make moderator')}
          </Button>
        </form>
      )}
      <Paged query={query} noun={t('team')} empty={<EmptyState title={t('No moderators yet')} />}>
        {(people) => (
          <ul aria-label={t('Moderators and admins')}>
            {people.map((user) => (
              <AccountRow
                key={user.id}
                user={user}
                action={
                  admin &&
                  user.role === 'moderator' && (
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={setRole.isPending}
                      onClick={() =>
                        setRole.mutate(
                          { id: user.id, role: 'member' },
                          {
                            onSuccess: () => notify(t('@{username} is a member again', { username: user.username })),
                            onError: () => notifyError(t('Could not do that. Try again.')),
                          },
                        )
                      }
                    >
                      {t('Remove moderator')}
                    </Button>
                  )
                }
              />
            ))}
          </ul>
        )}
      </Paged>
    </>
  );
}

/** What moderators did, newest first. */
export function AuditLogList() {
  const query = useAuditLog();
  return (
    <Paged
      query={query}
      noun={t('audit log')}
      empty={<EmptyState title={t('Nothing yet')}>{t('Every action a moderator takes is recorded here.')}</EmptyState>}
    >
      {(entries) => (
        <ol aria-label={t('Audit log')}>
          {entries.map((entry) => (
            <li key={entry.id} className="border-b border-line px-4 py-3 text-[15px]">
              <p>
                <strong>{entry.moderator ? `@${entry.moderator.username}` : t('A deleted account')}</strong>{' '}
                {auditText(entry)} <span className="text-muted">·</span>{' '}
                <span className="text-muted">
                  <RelativeTime iso={entry.createdAt} />
                </span>
              </p>
              {entry.action === 'post.removed' && entry.detail && (
                <p className="mt-1 text-sm whitespace-pre-wrap text-muted">“{entry.detail}”</p>
              )}
            </li>
          ))}
        </ol>
      )}
    </Paged>
  );
}
