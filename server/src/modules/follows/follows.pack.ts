import type { User } from '@pipit/contract';
import type { UserRow } from './follows.repository.ts';

/**
 * Someone's public profile as the viewer sees it. modules/users answers GET /api/users/:id with the
 * same contract shape; this packer covers the follow answers and the follow lists.
 */
export function toUser(row: UserRow): User {
  return {
    id: String(row.id),
    name: row.name,
    username: row.username,
    profileImage: row.profileImage,
    bio: row.bio,
    coverImage: row.coverImage,
    createdAt: row.createdAt.toISOString(),
    followersCount: row.followersCount,
    followingCount: row.followingCount,
    postsCount: row.postsCount,
    isFollowing: row.isFollowing,
  };
}
