import type { Post } from '@pipit/contract';
import { toUserSummary } from '../users/users.pack.ts';
import type { PostRow, ReplyTo } from './posts.repository.ts';

function parseReplyTo(value: ReplyTo | string | null): ReplyTo | null {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as ReplyTo) : value;
  return parsed ? { id: parsed.id, username: parsed.username } : null;
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
    // A json column: some drivers hand it over as text.
    replyTo: row.parentId === null ? null : parseReplyTo(row.replyTo),
    replyCount: row.replyCount,
    likeCount: row.likeCount,
    likedByMe: row.likedByMe,
    bookmarkedByMe: row.bookmarkedByMe,
  };
}
