import type { Post } from '@pipit/contract';
import { toUserSummary } from '../users/users.pack.ts';
import type { PostRow } from './posts.repository.ts';

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
    replyTo:
      row.parentId !== null && row.replyToId !== null && row.replyToUsername !== null
        ? { id: row.replyToId, username: row.replyToUsername }
        : null,
    replyCount: row.replyCount,
    likeCount: row.likeCount,
    likedByMe: row.likedByMe,
  };
}
