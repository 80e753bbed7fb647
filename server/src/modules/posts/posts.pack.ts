import type { Post, PostQuote, QuotedPost } from '@pipit/contract';
import { toPreviewCard } from '../cards/cards.pack.ts';
import { toMediaAttachment } from '../media/media.service.ts';
import { toPoll } from '../polls/polls.pack.ts';
import { toUserSummary } from '../users/users.pack.ts';
import type { MediaJson, PostRow, QuotedJson, ReplyTo } from './posts.repository.ts';

/** A json column: some drivers hand it over as text. */
const parseJson = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

function parseReplyTo(value: ReplyTo | string | null): ReplyTo | null {
  const parsed = parseJson(value);
  return parsed ? { id: parsed.id, username: parsed.username, domain: parsed.domain ?? null } : null;
}

const parseMedia = (value: MediaJson[] | string | null) => (parseJson(value) ?? []).map(toMediaAttachment);

/** A quoted post as a quote embeds it (JSON from the view's subquery), or null when it is gone. */
export function toQuotedPost(value: QuotedJson | string | null): QuotedPost | null {
  const quoted = parseJson(value);
  if (!quoted) return null;
  return {
    id: quoted.id,
    text: quoted.text,
    // JSON renders timestamptz as PostgreSQL writes it (microseconds, offset): the wire's ISO form.
    createdAt: new Date(quoted.createdAt).toISOString(),
    author: {
      id: quoted.author.id,
      name: quoted.author.name,
      username: quoted.author.username,
      profileImage: quoted.author.profileImage,
      domain: quoted.author.domain ?? null,
    },
    media: parseMedia(quoted.media),
    spoilerText: quoted.spoilerText ?? '',
    sensitive: quoted.sensitive ?? false,
  };
}

/** For a repost row: the post its reposted post quotes (the repost shows that quote too), else null. */
export function repostedQuoteOf(row: Pick<PostRow, 'reposted'>): number | null {
  return parseJson(row.reposted)?.quoteOfId ?? null;
}

/** A quote whose quoted post is deleted or hidden from the viewer: nothing of that post goes out. */
const UNAVAILABLE: PostQuote = { state: 'unavailable' };

/** The quote part as this viewer sees it: `hidden` is their own (postViewColumns' quoteHidden). */
export function toPostQuote(quoted: QuotedJson | string | null, hidden: boolean): PostQuote {
  if (hidden) return UNAVAILABLE;
  const post = toQuotedPost(quoted);
  return post ? { state: 'shown', post } : UNAVAILABLE;
}

/** What a post's wire shape is built from: a row of the view, or the reposted post a repost row carries. */
type PostFields = Pick<
  PostRow,
  | 'id'
  | 'text'
  | 'createdAt'
  | 'authorId'
  | 'authorName'
  | 'authorUsername'
  | 'authorProfileImage'
  | 'authorDomain'
  | 'parentId'
  | 'replyTo'
  | 'replyCount'
  | 'likeCount'
  | 'repostCount'
  | 'likedByMe'
  | 'bookmarkedByMe'
  | 'repostedByMe'
  | 'media'
  | 'quoteOfId'
  | 'quote'
  | 'quoteHidden'
  | 'visibility'
  | 'quotePolicy'
  | 'spoilerText'
  | 'sensitive'
  | 'editedAt'
  | 'card'
  | 'poll'
  | 'pollMine'
>;

function toPostOf(fields: PostFields, repostedBy: Post['repostedBy'], entryId: number = fields.id): Post {
  return {
    id: String(fields.id),
    entryId: String(entryId),
    text: fields.text,
    createdAt: fields.createdAt.toISOString(),
    author: toUserSummary({
      id: fields.authorId,
      name: fields.authorName,
      username: fields.authorUsername,
      profileImage: fields.authorProfileImage,
      domain: fields.authorDomain,
    }),
    parentId: fields.parentId === null ? null : String(fields.parentId),
    replyTo: fields.parentId === null ? null : parseReplyTo(fields.replyTo),
    replyCount: fields.replyCount,
    likeCount: fields.likeCount,
    repostCount: fields.repostCount,
    likedByMe: fields.likedByMe,
    repostedByMe: fields.repostedByMe,
    bookmarkedByMe: fields.bookmarkedByMe,
    media: parseMedia(fields.media),
    visibility: fields.visibility,
    quotePolicy: fields.quotePolicy,
    quote: fields.quoteOfId === null ? null : toPostQuote(fields.quote, fields.quoteHidden),
    repostedBy,
    spoilerText: fields.spoilerText,
    sensitive: fields.sensitive,
    editedAt: fields.editedAt === null ? null : fields.editedAt.toISOString(),
    card: toPreviewCard(fields.card),
    poll: toPoll(fields.id, fields.poll, fields.pollMine),
  };
}

/**
 * A post as one viewer sees it. A repost row shows the post it reposts (the viewer's likes, bookmarks
 * and reposts are already about that one), with who reposted it.
 */
export function toPost(row: Omit<PostRow, 'cursorTime'>): Post {
  if (row.repostOfId !== null) {
    const reposted = parseJson(row.reposted);
    if (reposted) {
      const reposter = toUserSummary({
        id: row.authorId,
        name: row.authorName,
        username: row.authorUsername,
        profileImage: row.authorProfileImage,
        domain: row.authorDomain,
      });
      return toPostOf(
        {
          ...reposted,
          createdAt: new Date(reposted.createdAt),
          editedAt: reposted.editedAt === null ? null : new Date(reposted.editedAt),
          likedByMe: row.likedByMe,
          bookmarkedByMe: row.bookmarkedByMe,
          repostedByMe: row.repostedByMe,
          // Computed for this viewer on the reposted post's quote.
          quoteHidden: row.quoteHidden,
          // The reposted post's (the view's subquery reads the post shown).
          card: row.card,
          // The viewer's own of the reposted post's poll.
          pollMine: row.pollMine,
        },
        reposter,
        row.id,
      );
    }
  }
  return toPostOf(row, null);
}
