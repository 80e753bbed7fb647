import type { Post, UserSummary } from '@pipit/contract';
import type { PostRow } from './posts.repository.ts';

/**
 * The smallest view of a person (authors, actors). modules/users owns the full profile packers;
 * this one only needs the four columns every post row carries.
 */
export function toUserSummary(row: {
  id: number;
  name: string;
  username: string;
  profileImage: string | null;
}): UserSummary {
  return { id: String(row.id), name: row.name, username: row.username, profileImage: row.profileImage };
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
    replyCount: row.replyCount,
    likeCount: row.likeCount,
    likedByMe: row.likedByMe,
  };
}
