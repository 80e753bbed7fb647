import type { Poll, PollCounts, PollInput } from '@pipit/contract';
import type { PollJson, PollMineJson } from './polls.repository.ts';

const parseJson = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * Whether the options' counts show to this reader: once it has ended, always; before, unless the
 * author hid them — and to the author always.
 */
export const countsShown = (poll: { hideTotals: boolean; expired: boolean }, isAuthor: boolean) =>
  !poll.hideTotals || poll.expired || isAuthor;

/**
 * A post's poll as one viewer sees it (the shared JSON and the viewer's own, from postViewColumns), or
 * null for a post without one. `expired` is decided now, so a kept view turns final on time.
 */
export function toPoll(
  postId: number,
  shared: PollJson | string | null,
  mine: PollMineJson | string | null,
  now: number = Date.now(),
): Poll | null {
  const poll = parseJson(shared);
  if (!poll) return null;
  const own = parseJson(mine);
  const expiresAt = new Date(poll.expiresAt);
  const expired = expiresAt.getTime() <= now;
  const shown = countsShown({ hideTotals: poll.hideTotals, expired }, own?.isAuthor ?? false);
  const ownVotes = own?.ownVotes ?? [];
  return {
    id: String(postId),
    expiresAt: expiresAt.toISOString(),
    expired,
    multiple: poll.multiple,
    hideTotals: poll.hideTotals,
    votersCount: poll.votersCount,
    votesCount: poll.votesCount,
    options: poll.options.map((o) => ({ title: o.title, votesCount: shown ? o.votesCount : null })),
    voted: ownVotes.length > 0,
    ownVotes,
  };
}

/** A new post's poll, as written (no votes yet): for its author, or hidden counts for everyone else. */
export function newPoll(postId: number, input: PollInput, expiresAt: Date, isAuthor: boolean): Poll {
  const shown = countsShown({ hideTotals: input.hideTotals, expired: false }, isAuthor);
  return {
    id: String(postId),
    expiresAt: expiresAt.toISOString(),
    expired: false,
    multiple: input.multiple,
    hideTotals: input.hideTotals,
    votersCount: 0,
    votesCount: 0,
    options: input.options.map((title) => ({ title, votesCount: shown ? 0 : null })),
    voted: false,
    ownVotes: [],
  };
}

/** The counts a live stream sends a reader: the options' hidden (null) unless `countsShown`. */
export function countsFor(counts: PollCounts, shown: boolean): PollCounts {
  return shown ? counts : { ...counts, options: counts.options.map(() => null) };
}
