/**
 * The query keys of every resource, in one file because an event on one resource touches the
 * caches of others (a new post bumps its author's count; a follow changes the Following timeline).
 * Each resource's file (posts.ts, users.ts, notifications.ts, viewer.tsx) owns the options and
 * events that use them.
 */

export type TimelineKind = 'following' | 'everyone';
/** A live feed: a home timeline, or one of the member's lists (`list:<id>`). */
export type FeedKind = TimelineKind | `list:${string}`;

export const viewerKeys = {
  all: ['viewer'] as const,
  session: () => [...viewerKeys.all, 'session'] as const,
  /** Every profile query of any session (for updates that do not care whose). */
  me: () => [...viewerKeys.all, 'me'] as const,
  meOf: (email: string | null) => [...viewerKeys.me(), email ?? ''] as const,
};

export const postKeys = {
  all: ['posts'] as const,
  detail: (id: string) => [...postKeys.all, 'detail', id] as const,
  lists: () => [...postKeys.all, 'list'] as const,
  replies: (id: string) => [...postKeys.lists(), 'replies', id] as const,
  /** The conversation above a post, cached as a one-page list so likes and deletes reach it too. */
  ancestors: (id: string) => [...postKeys.lists(), 'ancestors', id] as const,
  byUser: (userId: string) => [...postKeys.lists(), 'user', userId] as const,
  timeline: (kind: TimelineKind) => [...postKeys.lists(), 'timeline', kind] as const,
  /** The viewer's bookmarks, newest bookmark first. */
  bookmarks: () => [...postKeys.lists(), 'bookmarks'] as const,
  /** One of the viewer's lists' timeline. */
  listTimeline: (id: string) => [...postKeys.lists(), 'list-timeline', id] as const,
  /** Posts matching a search. */
  search: (q: string) => [...postKeys.lists(), 'search', q] as const,
  /** A hashtag's posts, newest first (the tag in its stored form). */
  hashtag: (tag: string) => [...postKeys.lists(), 'hashtag', tag] as const,
};

/** A post's versions (GET /api/posts/:id/history): outside postKeys, whose entries are posts and lists. */
export const postHistoryKeys = {
  all: ['post-history'] as const,
  detail: (id: string) => [...postHistoryKeys.all, id] as const,
};

export const hashtagKeys = {
  all: ['hashtags'] as const,
  trending: () => [...hashtagKeys.all, 'trending'] as const,
  search: (q: string) => [...hashtagKeys.all, 'search', q] as const,
  /** Whether the viewer follows a tag (its stored form). */
  detail: (tag: string) => [...hashtagKeys.all, 'detail', tag] as const,
  /** The tags the viewer follows, newest follow first. */
  followed: () => [...hashtagKeys.all, 'followed'] as const,
};

export const userKeys = {
  all: ['users'] as const,
  detail: (id: string) => [...userKeys.all, 'detail', id] as const,
  byUsername: (username: string) => [...userKeys.all, 'username', username.toLowerCase()] as const,
  suggestions: () => [...userKeys.all, 'suggestions'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  /** People whose name or username starts with what was typed. */
  search: (q: string, limit: number) => [...userKeys.lists(), 'search', q, limit] as const,
  /** Who follows a person, or whom they follow. */
  people: (id: string, which: PeopleKind) => [...userKeys.lists(), which, id] as const,
  /** The requests waiting on the viewer, newest first. */
  followRequests: () => [...userKeys.lists(), 'follow-requests'] as const,
};

export type PeopleKind = 'followers' | 'following';

/** New posts pushed by the live stream, held until the reader asks to see them (state/posts.ts). */
export const liveKeys = {
  all: ['live'] as const,
  pending: (kind: FeedKind) => [...liveKeys.all, 'pending', kind] as const,
};

/** The viewer's lists (state/lists.ts). */
export const listKeys = {
  all: ['lists'] as const,
  mine: () => [...listKeys.all, 'mine'] as const,
  detail: (id: string) => [...listKeys.all, 'detail', id] as const,
  members: (id: string) => [...listKeys.all, 'members', id] as const,
  /** People the viewer follows, by what was typed, marked when on the list. */
  candidates: (id: string, q: string) => [...listKeys.all, 'candidates', id, q] as const,
};

export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
  unread: () => [...notificationKeys.all, 'unread'] as const,
};

/** The member's conversations (direct posts and their replies) and how many are unread. */
export const conversationKeys = {
  all: ['conversations'] as const,
  list: () => [...conversationKeys.all, 'list'] as const,
  unread: () => [...conversationKeys.all, 'unread'] as const,
};

/**
 * Optimistic state, kept apart from the server's answers and merged at render (state/shadow.ts):
 * one entry per post or person, wherever they are shown.
 */
export const settingsKeys = {
  sessions: () => ['settings', 'sessions'] as const,
  /** Blocked and muted accounts, muted words. */
  blocked: () => ['settings', 'blocked'] as const,
  muted: () => ['settings', 'muted'] as const,
  mutedWords: () => ['settings', 'muted-words'] as const,
  /** Mastodon apps the member authorized. */
  apps: () => ['settings', 'apps'] as const,
  /** Two-factor sign-in's state, and the member's passkeys. */
  twoFactor: () => ['settings', 'two-factor'] as const,
  passkeys: () => ['settings', 'passkeys'] as const,
  /** This browser's Web Push subscription and the server's VAPID key. */
  push: () => ['settings', 'push'] as const,
};

/** Reports and moderation: the member's own reports; the moderators' queue, accounts and log. */
export const moderationKeys = {
  all: ['moderation'] as const,
  mine: () => ['moderation', 'mine'] as const,
  reports: (status: 'open' | 'closed') => ['moderation', 'reports', status] as const,
  accounts: (filter: 'suspended' | 'team') => ['moderation', 'accounts', filter] as const,
  log: () => ['moderation', 'log'] as const,
  domains: () => ['moderation', 'domains'] as const,
};

export const shadowKeys = {
  all: ['shadow'] as const,
  post: (id: string) => [...shadowKeys.all, 'post', id] as const,
  /** A bookmark toggle in flight: its own overlay, so it and a like never overwrite each other. */
  bookmark: (id: string) => [...shadowKeys.all, 'bookmark', id] as const,
  /** A repost toggle in flight, likewise. */
  repost: (id: string) => [...shadowKeys.all, 'repost', id] as const,
  user: (id: string) => [...shadowKeys.all, 'user', id] as const,
  /** A hashtag follow in flight (the tag's stored form). */
  hashtag: (tag: string) => [...shadowKeys.all, 'hashtag', tag] as const,
};

/** Posts not sent yet: the member's drafts and scheduled posts (each list one answer). */
export const unsentKeys = {
  all: ['unsent'] as const,
  drafts: () => [...unsentKeys.all, 'drafts'] as const,
  scheduled: () => [...unsentKeys.all, 'scheduled'] as const,
};
