/**
 * Rows → the wire shapes of a person (contract: userSummary, user, currentUser). Other modules (posts,
 * follows, notifications) select `userSummaryColumns` / `userColumns` and pack with these, so a person
 * looks the same everywhere and private columns (email, password hash) never leave by accident.
 */
import type { CurrentUser, Role, User, UserSummary } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import { users } from '../../db/schema.ts';

/** What to select to build a UserSummary (authors, actors, suggestions). */
export const userSummaryColumns = {
  id: users.id,
  name: users.name,
  username: users.username,
  profileImage: users.profileImage,
  domain: users.domain,
};

/** What to select to build a User (a public profile). */
export const userColumns = {
  ...userSummaryColumns,
  bio: users.bio,
  coverImage: users.coverImage,
  createdAt: users.createdAt,
  followersCount: users.followersCount,
  followingCount: users.followingCount,
  postsCount: users.postsCount,
  suspendedAt: users.suspendedAt,
  locked: users.locked,
};

/** What to select to build a CurrentUser. */
/**
 * A member's email and password hash: set on every local account (the CHECK users_local_whole), and only
 * local accounts sign in, have sessions or reset passwords; remote people (`domain` set) have neither.
 * Read through these in queries that select members only.
 */
export const memberEmail = sql<string>`${users.email}`;
export const memberPasswordHash = sql<string>`${users.passwordHash}`;

export const currentUserColumns = {
  ...userColumns,
  email: memberEmail,
  role: users.role,
  defaultVisibility: users.defaultVisibility,
  expandSpoilers: users.expandSpoilers,
};

// Row types follow the column lists above, never a copy of them.
export type UserSummaryRow = SelectResultFields<typeof userSummaryColumns>;
export type UserRow = SelectResultFields<typeof userColumns>;
export type CurrentUserRow = SelectResultFields<typeof currentUserColumns>;

export function toUserSummary(row: UserSummaryRow): UserSummary {
  return {
    id: String(row.id),
    name: row.name,
    username: row.username,
    profileImage: row.profileImage,
    domain: row.domain,
  };
}

/** The viewer's relations to the person (all false for visitors and for oneself). */
export interface Relations {
  isFollowing: boolean;
  followRequested: boolean;
  isBlocking: boolean;
  isMuting: boolean;
}

const NONE: Relations = { isFollowing: false, followRequested: false, isBlocking: false, isMuting: false };

/** A public profile with the viewer's relations to the person. */
export function toUser(row: UserRow, relations: Relations = NONE): User {
  return {
    ...toUserSummary(row),
    bio: row.bio,
    coverImage: row.coverImage,
    createdAt: row.createdAt.toISOString(),
    followersCount: row.followersCount,
    followingCount: row.followingCount,
    postsCount: row.postsCount,
    isFollowing: relations.isFollowing,
    locked: row.locked,
    followRequested: relations.followRequested,
    isBlocking: relations.isBlocking,
    isMuting: relations.isMuting,
    suspended: row.suspendedAt !== null,
  };
}

export function toCurrentUser(row: CurrentUserRow, hasNotification: boolean): CurrentUser {
  return {
    ...toUser(row),
    email: row.email,
    role: row.role as Role,
    hasNotification,
    defaultVisibility: row.defaultVisibility,
    expandSpoilers: row.expandSpoilers,
  };
}
