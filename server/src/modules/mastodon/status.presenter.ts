import type { Post } from '@pipit/contract';
import type { Account } from './account.presenter.ts';
import { toCard } from './card.presenter.ts';
import { textToHtml } from './html.ts';
import { toMedia } from './media.presenter.ts';
import { toMastodonPoll } from './poll.presenter.ts';
import { MASTODON_VISIBILITY } from './visibility.ts';

/** What a Status is made of besides the post: its people as Accounts, and the quoted posts' statuses. */
export interface StatusParts {
  accounts: ReadonlyMap<string, Account>;
  /** Quoted posts the viewer may see, as statuses (by post id; a Status, typed loosely as it nests). */
  quoted: ReadonlyMap<string, unknown>;
}

/**
 * Mastodon's Quote of a quoting post: `accepted` with the quoted status when the viewer may see it;
 * otherwise (deleted, or hidden from this viewer: the post's quote is `unavailable`, and says not
 * which) `unauthorized` with no status — nothing of a hidden post is ever sent.
 */
function toQuote(post: Post, parts: StatusParts): { state: string; quoted_status: unknown } | null {
  if (!post.quote) return null;
  const quoted = post.quote.state === 'shown' ? parts.quoted.get(post.quote.post.id) : undefined;
  if (quoted) return { state: 'accepted', quoted_status: quoted };
  return { state: 'unauthorized', quoted_status: null };
}

/**
 * Mastodon's QuoteApproval: who may quote it (`automatic`; Pipit never asks the author, so `manual`
 * is empty) and what that means for the viewer, the same for every viewer (a status is shared between
 * the streams it goes to): anyone `automatic`, nobody `denied`, followers `unknown` (the Relationship
 * says; the author may always quote their own).
 */
function toQuoteApproval(p: Post) {
  const automatic = p.quotePolicy === 'anyone' ? ['public'] : p.quotePolicy === 'followers' ? ['followers'] : [];
  const currentUser = p.quotePolicy === 'anyone' ? 'automatic' : p.quotePolicy === 'nobody' ? 'denied' : 'unknown';
  return { automatic, manual: [] as string[], current_user: currentUser };
}

/**
 * Mastodon's Status of a post. A repost is a status of the reposter whose `reblog` is the post
 * (its id the repost's own entry id).
 */
export function toStatus(publicUrl: string, p: Post, parts: StatusParts) {
  const url = `${publicUrl}/posts/${p.id}`;
  const status = {
    id: p.id,
    uri: url,
    url,
    created_at: p.createdAt,
    edited_at: p.editedAt,
    account: parts.accounts.get(p.author.id) as Account,
    content: textToHtml(p.text),
    visibility: MASTODON_VISIBILITY[p.visibility],
    sensitive: p.sensitive,
    spoiler_text: p.spoilerText,
    media_attachments: p.media.map((m) => toMedia(publicUrl, m)),
    application: null,
    mentions: [],
    tags: [],
    emojis: [],
    reblogs_count: p.repostCount,
    favourites_count: p.likeCount,
    replies_count: p.replyCount,
    in_reply_to_id: p.parentId,
    in_reply_to_account_id: p.replyTo?.id ?? null,
    reblog: null as unknown,
    poll: p.poll ? toMastodonPoll(p.poll) : null,
    // A post with images has none (modules/cards), as in Mastodon.
    card: p.card ? toCard(publicUrl, p.card) : null,
    language: null,
    favourited: p.likedByMe,
    reblogged: p.repostedByMe,
    bookmarked: p.bookmarkedByMe,
    muted: false,
    pinned: false,
    filtered: [],
    quote: toQuote(p, parts),
    quote_approval: toQuoteApproval(p),
  };
  if (!p.repostedBy) return status;
  return {
    ...status,
    id: p.entryId,
    uri: `${publicUrl}/posts/${p.entryId}`,
    url: `${publicUrl}/posts/${p.id}`,
    account: parts.accounts.get(p.repostedBy.id) as Account,
    content: '',
    media_attachments: [],
    in_reply_to_id: null,
    in_reply_to_account_id: null,
    reblog: status,
    quote: null,
    card: null,
  };
}
export type Status = ReturnType<typeof toStatus>;

/** The people a page of posts shows: authors, reposters. */
export function peopleOf(posts: readonly Post[]): number[] {
  const ids = new Set<number>();
  for (const p of posts) {
    ids.add(Number(p.author.id));
    if (p.repostedBy) ids.add(Number(p.repostedBy.id));
  }
  return [...ids];
}
