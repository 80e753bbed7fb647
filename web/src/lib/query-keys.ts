/**
 * Query key factories, one per resource. They live here, not in a feature, because a change in
 * one feature updates another's caches (a like patches every list that shows the post).
 */
export const userKeys = {
  all: ['users'] as const,
  current: () => [...userKeys.all, 'current'] as const,
  detail: (id: string) => [...userKeys.all, 'detail', id] as const,
  byUsername: (username: string) => [...userKeys.all, 'username', username.toLowerCase()] as const,
  suggestions: () => [...userKeys.all, 'suggestions'] as const,
};

export type TimelineKind = 'following' | 'everyone';

export const postKeys = {
  all: ['posts'] as const,
  detail: (id: string) => [...postKeys.all, 'detail', id] as const,
  lists: () => [...postKeys.all, 'list'] as const,
  replies: (id: string) => [...postKeys.lists(), 'replies', id] as const,
  /** The conversation above a post, cached as a one-page list so likes and deletes reach it too. */
  ancestors: (id: string) => [...postKeys.lists(), 'ancestors', id] as const,
  byUser: (userId: string) => [...postKeys.lists(), 'user', userId] as const,
  timeline: (kind: TimelineKind) => [...postKeys.lists(), 'timeline', kind] as const,
};

export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
};
