import type { Poll, Post } from '@pipit/contract';
import { Check } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { t } from '../../../i18n/i18n.ts';
import { cn } from '../../../lib/cn.ts';
import { useMembersOnly } from '../../../lib/members-only.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { useVotePoll } from '../api/vote-poll.ts';

/** "3 days left", "5 hours left", "12 minutes left", "less than a minute left". */
export function timeLeft(expiresAt: string, now: number): string {
  const ms = new Date(expiresAt).getTime() - now;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return t('less than a minute left');
  if (minutes < 60) return t('{count, plural, one {# minute left} other {# minutes left}}', { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t('{count, plural, one {# hour left} other {# hours left}}', { count: hours });
  return t('{count, plural, one {# day left} other {# days left}}', { count: Math.floor(hours / 24) });
}

const votes = (n: number) => t('{count, plural, one {# vote} other {# votes}}', { count: n });

/**
 * A post's poll. Who has not voted while it is open gets its options as radio buttons (one choice) or
 * checkboxes (several) and "Vote" (a visitor is asked to sign in); the results — bars with
 * percentages, one's own choices marked — show after voting, once it has ended, and to its author.
 * With hidden counts the options show without bars until the end. "N votes · 2 hours left", or
 * "Final results". Its clicks stay inside it (the row around it opens the post).
 */
export function PostPoll({ post, poll, className }: { post: Post; poll: Poll; className?: string }) {
  const { user } = useViewer();
  const now = useNow();
  const ended = poll.expired || new Date(poll.expiresAt).getTime() <= now;
  const isAuthor = user?.id === post.author.id;
  const showResults = poll.voted || ended || isAuthor;
  const footer = (
    <p className="mt-2 text-[13px] text-muted">
      {votes(poll.votesCount)}
      {poll.multiple &&
        poll.votersCount !== poll.votesCount &&
        t('{count, plural, one { from # person} other { from # people}}', { count: poll.votersCount })}
      {' · '}
      {ended ? t('Final results') : timeLeft(poll.expiresAt, now)}
    </p>
  );
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: only stops the row's click
    <div className={cn('cursor-auto', className)} onClick={(event) => event.stopPropagation()}>
      {showResults ? <PollResults poll={poll} /> : <PollForm postId={post.id} poll={poll} />}
      {footer}
    </div>
  );
}

function PollResults({ poll }: { poll: Poll }) {
  const hidden = poll.options.some((o) => o.votesCount === null);
  // As Mastodon: a multiple-choice poll's shares are of the people who voted, a single-choice one's of the votes.
  const base = poll.multiple ? poll.votersCount : poll.votesCount;
  const top = Math.max(0, ...poll.options.map((o) => o.votesCount ?? 0));
  return (
    <div>
      <ul className="flex flex-col gap-1.5" aria-label={t('Poll results')}>
        {poll.options.map((option, index) => {
          const mine = poll.ownVotes.includes(index);
          const share = option.votesCount === null || base === 0 ? 0 : Math.round((option.votesCount / base) * 100);
          const leading = option.votesCount !== null && option.votesCount > 0 && option.votesCount === top;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: options are fixed in order, and their index is their identity
            <li key={index} className="relative overflow-hidden rounded-md border border-line">
              {!hidden && (
                <div
                  aria-hidden="true"
                  className={cn('absolute inset-y-0 start-0', leading ? 'bg-accent/25' : 'bg-fg/10')}
                  style={{ width: `${share}%` }}
                />
              )}
              <div className="relative flex items-center gap-2 px-3 py-1.5 text-[15px] leading-5">
                {!hidden && <span className="w-12 shrink-0 whitespace-nowrap font-bold tabular-nums">{share}%</span>}
                <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{option.title}</span>
                {mine && (
                  <span className="flex shrink-0 items-center gap-1 text-[13px] font-bold text-accent">
                    <Check aria-hidden="true" className="size-4" />
                    {t('Your choice')}
                  </span>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {hidden && <p className="mt-2 text-[13px] text-muted">{t('Results will show when the poll ends.')}</p>}
    </div>
  );
}

function PollForm({ postId, poll }: { postId: string; poll: Poll }) {
  const [chosen, setChosen] = useState<number[]>([]);
  const vote = useVotePoll(postId);
  const membersOnly = useMembersOnly();
  const { status } = useViewer();
  const name = useId();
  const toggle = (index: number, on: boolean) =>
    setChosen((now) => (poll.multiple ? (on ? [...now, index] : now.filter((i) => i !== index)) : [index]));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    membersOnly(() => {
      if (chosen.length > 0) vote.mutate(chosen.toSorted((a, b) => a - b));
    });
  };
  const visitor = status === 'unauthenticated';
  return (
    <form onSubmit={submit}>
      <fieldset disabled={vote.isPending}>
        <legend className="sr-only">{poll.multiple ? t('Poll: choose one or more') : t('Poll: choose one')}</legend>
        <div className="flex flex-col gap-1.5">
          {poll.options.map((option, index) => (
            <label
              // biome-ignore lint/suspicious/noArrayIndexKey: options are fixed in order, and their index is their identity
              key={index}
              className="flex cursor-pointer items-center gap-3 rounded-md border border-line-strong px-3 py-1.5 text-[15px] leading-5 hover:bg-fg/[0.05] has-[:checked]:border-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent"
            >
              <input
                type={poll.multiple ? 'checkbox' : 'radio'}
                name={name}
                value={index}
                checked={chosen.includes(index)}
                onChange={(event) => toggle(index, event.target.checked)}
                className="size-4 shrink-0 accent-[var(--color-accent)] focus-visible:outline-none"
              />
              <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{option.title}</span>
            </label>
          ))}
        </div>
        <div className="mt-2 flex items-center gap-3">
          <Button type="submit" size="sm" variant="secondary" disabled={!visitor && chosen.length === 0}>
            {vote.isPending ? t('Voting…') : t('Vote')}
          </Button>
          {visitor && <span className="text-[13px] text-muted">{t('Sign in to vote')}</span>}
        </div>
      </fieldset>
    </form>
  );
}
