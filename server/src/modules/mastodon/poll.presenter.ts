import type { Poll } from '@pipit/contract';

/**
 * Mastodon's Poll of a post's poll (its id is the post's). Option counts are null while hidden (the
 * author's hide_totals, until it ends; Pipit shows them to the author, Mastodon to nobody). `voted` and
 * `own_votes` are the viewer's (false and [] without a person's token).
 */
export function toMastodonPoll(poll: Poll) {
  return {
    id: poll.id,
    expires_at: poll.expiresAt,
    expired: poll.expired,
    multiple: poll.multiple,
    votes_count: poll.votesCount,
    voters_count: poll.votersCount,
    options: poll.options.map((o) => ({ title: o.title, votes_count: o.votesCount })),
    emojis: [] as never[],
    voted: poll.voted,
    own_votes: poll.ownVotes,
  };
}
export type MastodonPoll = ReturnType<typeof toMastodonPoll>;
