import type { CurrentUser, Page, Post, User, UserSummary } from '@pipit/contract';

/**
 * One maker per entity, shaped as the server answers it (packages/contract): a test states only
 * what it is about, and a new field in the contract is added here once.
 */

export const makeUserSummary = (overrides: Partial<UserSummary> = {}): UserSummary => {
  const username = overrides.username ?? 'bob';
  return {
    id: '2',
    name: `${username[0]?.toUpperCase()}${username.slice(1)}`,
    username,
    profileImage: null,
    domain: null,
    ...overrides,
  };
};

export const makeUser = (overrides: Partial<User> = {}): User => ({
  ...makeUserSummary(overrides),
  bio: '',
  coverImage: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  followersCount: 0,
  followingCount: 0,
  postsCount: 0,
  isFollowing: false,
  locked: false,
  followRequested: false,
  isBlocking: false,
  isMuting: false,
  suspended: false,
  ...overrides,
});

/** Alice, the member the signed-in tests sign in as (test/render.tsx signedInRoutes). */
export const ALICE: CurrentUser = {
  id: '1',
  name: 'Alice Anderson',
  username: 'alice',
  profileImage: null,
  domain: null,
  bio: 'Birds and bikes.',
  coverImage: null,
  createdAt: '2026-01-15T10:00:00.000Z',
  followersCount: 2,
  followingCount: 3,
  postsCount: 4,
  isFollowing: false,
  locked: false,
  followRequested: false,
  isBlocking: false,
  isMuting: false,
  suspended: false,
  email: 'alice@example.com',
  role: 'member',
  hasNotification: false,
  defaultVisibility: 'public',
  expandSpoilers: false,
};

const authorOf = (user: UserSummary) => ({
  id: user.id,
  name: user.name,
  username: user.username,
  profileImage: user.profileImage,
  domain: user.domain,
});

/** A post written now; `parent` makes it a reply (parentId and replyTo both set). */
export function makePost(
  overrides: Partial<Omit<Post, 'author'>> & { author?: UserSummary; parent?: Post } = {},
): Post {
  const { author = makeUserSummary(), parent, ...rest } = overrides;
  return {
    id: overrides.id ?? '10',
    entryId: overrides.id ?? '10',
    text: 'Birds at dawn',
    createdAt: new Date().toISOString(),
    author: authorOf(author),
    parentId: parent?.id ?? null,
    replyTo: parent ? { id: parent.author.id, username: parent.author.username, domain: parent.author.domain } : null,
    replyCount: 0,
    likeCount: 0,
    repostCount: 0,
    likedByMe: false,
    repostedByMe: false,
    bookmarkedByMe: false,
    media: [],
    visibility: 'public',
    quotePolicy: 'anyone',
    quote: null,
    repostedBy: null,
    spoilerText: '',
    sensitive: false,
    editedAt: null,
    card: null,
    poll: null,
    ...rest,
  };
}

/** One page of a cursor list. */
export const makePage = <T>(items: T[], nextCursor: string | null = null): Page<T> => ({ items, nextCursor });
