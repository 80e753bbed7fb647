import type { ListCandidate, User } from '@pipit/contract';
import { Search } from 'lucide-react';
import { useDeferredValue, useId, useState } from 'react';
import { Avatar } from '../../../components/avatar.tsx';
import { Button } from '../../../components/button.tsx';
import { ListFooter } from '../../../components/list-footer.tsx';
import { ErrorState, Spinner } from '../../../components/states.tsx';
import { t } from '../../../i18n/i18n.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { notifyError } from '../../../lib/toast.tsx';
import { useListCandidates, useListMembers } from '../../../state/lists.ts';
import { pageItems } from '../../../state/paged.ts';
import { useListMember } from '../api/lists.ts';

function PersonLine({ person, action }: { person: User; action: React.ReactNode }) {
  return (
    <li className="flex items-center gap-3 border-b border-line px-4 py-3">
      <Avatar user={person} />
      <div className="min-w-0 flex-1 leading-5">
        <p className="truncate font-bold">{person.name}</p>
        <p className="truncate text-[15px] text-muted">
          <bdi>@{person.username}</bdi>
        </p>
      </div>
      {action}
    </li>
  );
}

const problemOf = (error: unknown, fallback: string) =>
  error instanceof ApiRequestError && error.status < 500 ? error.message : fallback;

/**
 * Who is on a list: search the people you follow (by name or @username) and add or remove them, then
 * the members, last added first, each with Remove. Only people you follow can be added.
 */
export function ListMembersEditor({ listId }: { listId: string }) {
  const [q, setQ] = useState('');
  const typed = useDeferredValue(q.trim());
  const candidates = useListCandidates(listId, typed);
  const members = useListMembers(listId);
  const { add, remove } = useListMember(listId);
  const busy = add.isPending || remove.isPending;
  const searchId = useId();
  const people = pageItems<User>(members.data);

  const toggle = (person: ListCandidate | User, on: boolean) =>
    (on ? add : remove).mutate(person.id, {
      onError: (error) =>
        notifyError(problemOf(error, on ? t('Couldn’t add them. Try again.') : t('Couldn’t remove them. Try again.'))),
    });

  return (
    <div>
      <section aria-labelledby={`${searchId}-heading`} className="border-b border-line">
        <h2 id={`${searchId}-heading`} className="px-4 pt-3 text-xl font-extrabold">
          {t('Add people')}
        </h2>
        <div className="px-4 py-3">
          <label htmlFor={searchId} className="sr-only">
            {t('Search people you follow')}
          </label>
          <div className="flex items-center gap-2 rounded-full border border-line-strong px-4 focus-within:border-accent">
            <Search aria-hidden="true" className="size-4 shrink-0 text-muted" />
            <input
              id={searchId}
              type="search"
              value={q}
              maxLength={100}
              onChange={(event) => setQ(event.target.value)}
              placeholder={t('Search people you follow')}
              className="h-10 min-w-0 flex-1 bg-transparent text-[15px] placeholder:text-muted focus:outline-none"
            />
          </div>
        </div>
        {candidates.isPending ? (
          <Spinner label={t('Looking for people')} />
        ) : candidates.isError ? (
          <ErrorState message={t('Couldn’t look for people.')} onRetry={() => candidates.refetch()} />
        ) : candidates.data.length === 0 ? (
          <p className="px-4 pb-4 text-[15px] text-muted">
            {typed
              ? t('Nobody you follow matches “{typed}”.', { typed })
              : t('Follow people to add them to your lists.')}
          </p>
        ) : (
          <ul aria-label={t('People you follow')}>
            {candidates.data.map((person) => (
              <PersonLine
                key={person.id}
                person={person}
                action={
                  <Button
                    size="sm"
                    variant={person.inList ? 'secondary' : 'primary'}
                    aria-label={`${person.inList ? t('Remove') : t('Add')} @${person.username}`}
                    disabled={busy}
                    onClick={() => toggle(person, !person.inList)}
                  >
                    {person.inList ? t('Remove') : t('Add')}
                  </Button>
                }
              />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby={`${searchId}-members`}>
        <h2 id={`${searchId}-members`} className="px-4 pt-3 pb-1 text-xl font-extrabold">
          {t('On this list')}
        </h2>
        {members.isPending ? (
          <Spinner label={t('Loading members')} />
        ) : members.isError ? (
          <ErrorState message={t('Couldn’t load the members.')} onRetry={() => members.refetch()} />
        ) : people.length === 0 ? (
          <p className="px-4 pb-4 text-[15px] text-muted">{t('Nobody yet. Add people you follow above.')}</p>
        ) : (
          <ul aria-label={t('Members')}>
            {people.map((person) => (
              <PersonLine
                key={person.id}
                person={person}
                action={
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={t('Remove @{username}', { username: person.username })}
                    disabled={busy}
                    onClick={() => toggle(person, false)}
                  >
                    {t('Remove')}
                  </Button>
                }
              />
            ))}
          </ul>
        )}
        <ListFooter query={members} noun={t('members')} />
      </section>
    </div>
  );
}
