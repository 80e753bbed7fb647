import { MUTED_WORD_MAX, type MutedAccount, type User } from '@pipit/contract';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Avatar } from '../../../components/avatar.tsx';
import { Button } from '../../../components/button.tsx';
import { ListFooter } from '../../../components/list-footer.tsx';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { ErrorState, Spinner } from '../../../components/states.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { t } from '../../../i18n/i18n.ts';
import { fieldErrorsOf, formProblem } from '../../../lib/field-errors.ts';
import { fullDate } from '../../../lib/format-time.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { pageItems } from '../../../state/paged.ts';
import {
  useBlock,
  useBlockedAccounts,
  useEditMutedWords,
  useMute,
  useMutedAccounts,
  useMutedWords,
} from '../api/safety.ts';

function PersonRow({ user, detail, action }: { user: User; detail?: string; action: ReactNode }) {
  return (
    <li className="flex items-center gap-3 border-b border-line px-4 py-3">
      <Avatar user={user} />
      <div className="min-w-0 flex-1">
        <p className="truncate font-bold">{user.name}</p>
        <p className="truncate text-[15px] text-muted">
          <bdi>@{user.username}</bdi>
          {detail && ` · ${detail}`}
        </p>
      </div>
      {action}
    </li>
  );
}

const Empty = ({ children }: { children: ReactNode }) => <p className="px-4 pb-4 text-[15px] text-muted">{children}</p>;

/** A paged list of accounts in Settings, each with one undo (Unblock, Unmute). */
function AccountList<U extends User>({
  id,
  title,
  query,
  noun,
  empty,
  detail,
  undo,
}: {
  id: string;
  title: string;
  query: ReturnType<typeof useBlockedAccounts> | ReturnType<typeof useMutedAccounts>;
  /** "blocked accounts", "muted accounts". */
  noun: string;
  empty: string;
  detail?: (user: U) => string;
  /** `named`: the button's accessible name for one person. */
  undo: { label: string; named: (username: string) => string; pending: boolean; run: (user: U) => void };
}) {
  const people = pageItems<User | MutedAccount>(query.data) as U[];
  return (
    <SettingsSection id={id} title={title}>
      {query.isPending ? (
        <Spinner label={t('Loading {noun}', { noun })} />
      ) : query.isError ? (
        <ErrorState message={t('Couldn’t load your {noun}.', { noun })} onRetry={() => query.refetch()} />
      ) : people.length === 0 ? (
        <Empty>{empty}</Empty>
      ) : (
        <ul aria-label={title}>
          {people.map((user) => (
            <PersonRow
              key={user.id}
              user={user}
              detail={detail?.(user)}
              action={
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={undo.named(user.username)}
                  disabled={undo.pending}
                  onClick={() => undo.run(user)}
                >
                  {undo.label}
                </Button>
              }
            />
          ))}
        </ul>
      )}
      <ListFooter query={query} noun={noun} />
    </SettingsSection>
  );
}

/** Blocked accounts, newest first, each with Unblock. */
export function BlockedAccounts() {
  const block = useBlock();
  return (
    <AccountList<User>
      id="blocked-heading"
      title={t('Blocked accounts')}
      query={useBlockedAccounts()}
      noun={t('blocked accounts')}
      empty={t('You haven’t blocked anyone.')}
      undo={{
        label: t('Unblock'),
        named: (username) => t('Unblock @{username}', { username }),
        pending: block.isPending,
        run: (user) =>
          block.mutate(
            { id: user.id, block: false },
            {
              onSuccess: () => notify(t('Unblocked @{username}', { username: user.username })),
              onError: () => notifyError(t('Could not unblock. Try again.')),
            },
          ),
      }}
    />
  );
}

/** Muted accounts, newest first, with when each mute ends, and Unmute. */
export function MutedAccounts() {
  const mute = useMute();
  return (
    <AccountList<MutedAccount>
      id="muted-heading"
      title={t('Muted accounts')}
      query={useMutedAccounts()}
      noun={t('muted accounts')}
      empty={t('You haven’t muted anyone.')}
      detail={(user) =>
        user.mutedUntil ? t('until {time}', { time: fullDate(user.mutedUntil) }) : t('until you unmute')
      }
      undo={{
        label: t('Unmute'),
        named: (username) => t('Unmute @{username}', { username }),
        pending: mute.isPending,
        run: (user) =>
          mute.mutate(
            { id: user.id, mute: false },
            {
              onSuccess: () => notify(t('Unmuted @{username}', { username: user.username })),
              onError: () => notifyError(t('Could not unmute. Try again.')),
            },
          ),
      }}
    />
  );
}

/** Muted words and phrases: add one, see them all, remove each. */
export function MutedWords() {
  const words = useMutedWords();
  const { add, remove } = useEditMutedWords();
  const [phrase, setPhrase] = useState('');
  const errors = fieldErrorsOf(add.error, ['phrase'] as const);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!phrase.trim()) return;
    add.mutate(phrase, {
      onSuccess: (word) => {
        setPhrase('');
        notify(t('Muted “{phrase}”', { phrase: word.phrase }));
      },
      onError: (error) => {
        const problem = formProblem(error, t('Couldn’t mute that. Try again.'));
        if (problem) notifyError(problem);
      },
    });
  };

  return (
    <SettingsSection id="muted-words-heading" title={t('Muted words')}>
      <p className="px-4 pb-3 text-[15px] text-muted">
        {t(
          'Posts with a muted word or phrase (as a whole word, in any case) leave your timelines, search and notifications. Your own posts are never hidden.',
        )}
      </p>
      <form onSubmit={submit} className="flex items-start gap-3 px-4 pb-2">
        <div className="min-w-0 flex-1">
          <TextField
            label={t('Word or phrase')}
            value={phrase}
            maxLength={MUTED_WORD_MAX}
            onChange={(event) => setPhrase(event.target.value)}
            error={errors.phrase}
          />
        </div>
        {/* Level with the text box (below its label). */}
        <Button type="submit" className="mt-[30px]" disabled={add.isPending || !phrase.trim()}>
          {t('Mute')}
        </Button>
      </form>
      {words.isPending ? (
        <Spinner label={t('Loading muted words')} />
      ) : words.isError ? (
        <ErrorState message={t('Couldn’t load your muted words.')} onRetry={() => words.refetch()} />
      ) : words.data.items.length === 0 ? (
        <Empty>{t('You haven’t muted any words.')}</Empty>
      ) : (
        <ul aria-label={t('Muted words')}>
          {words.data.items.map((word) => (
            <li key={word.id} className="flex items-center gap-3 border-b border-line px-4 py-3">
              <p className="min-w-0 flex-1 break-words font-bold [overflow-wrap:anywhere]">{word.phrase}</p>
              <Button
                variant="secondary"
                size="sm"
                aria-label={t('Unmute “{phrase}”', { phrase: word.phrase })}
                disabled={remove.isPending}
                onClick={() =>
                  remove.mutate(word.id, {
                    onSuccess: () => notify(t('Unmuted “{phrase}”', { phrase: word.phrase })),
                    onError: () => notifyError(t('Couldn’t unmute that. Try again.')),
                  })
                }
              >
                {t('Unmute')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  );
}
