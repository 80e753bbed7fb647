import type { Post, QuotedPost } from '@pipit/contract';
import { toMediaAttachment } from '../media/media.service.ts';
import { toUserSummary } from '../users/users.pack.ts';
import type { MediaJson, PostRow, QuotedJson, ReplyTo } from './posts.repository.ts';

/** A json column: some drivers hand it over as text. */
const parseJson = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

function parseReplyTo(value: ReplyTo | string | null): ReplyTo | null {
  const parsed = parseJson(value);
  return parsed ? { id: parsed.id, username: parsed.username } : null;
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
    },
    media: parseMedia(quoted.media),
  };
}

/** A post as one viewer sees it. */
export function toPost(row: Omit<PostRow, 'cursorTime'>): Post {
  return {
    id: String(row.id),
    text: row.text,
    createdAt: row.createdAt.toISOString(),
    author: toUserSummary({
      id: row.authorId,
      name: row.authorName,
      username: row.authorUsername,
      profileImage: row.authorProfileImage,
    }),
    parentId: row.parentId === null ? null : String(row.parentId),
    replyTo: row.parentId === null ? null : parseReplyTo(row.replyTo),
    replyCount: row.replyCount,
    likeCount: row.likeCount,
    likedByMe: row.likedByMe,
    bookmarkedByMe: row.bookmarkedByMe,
    media: parseMedia(row.media),
    quote: row.quoteOfId === null ? null : { id: String(row.quoteOfId), post: toQuotedPost(row.quote) },
  };
}
