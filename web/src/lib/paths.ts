/**
 * Every address of the web app, in one table: each page's pattern is written once, here; the router
 * mounts the patterns (app/router.tsx, checked by app/router.test.ts) and every link or navigation
 * builds its address from `paths`, which fills the same patterns.
 */
export const patterns = {
  home: '/',
  notifications: '/notifications',
  /** The member's conversations: direct posts (mentioned people only) and their replies. */
  messages: '/messages',
  bookmarks: '/bookmarks',
  /** Posts not sent yet: the member's drafts, and their scheduled posts. */
  drafts: '/drafts',
  scheduled: '/scheduled',
  /** The requests to follow the member (when they approve followers). */
  followRequests: '/follow-requests',
  /** The member's lists, and one list (`?tab=members` for its members). */
  lists: '/lists',
  list: '/lists/:id',
  settings: '/settings',
  /** Reports and moderation tools (moderators and admins). */
  moderation: '/moderation',
  /** A Mastodon app's consent page (its query is the OAuth request). */
  oauthAuthorize: '/oauth/authorize',
  /** Where a password-reset email's link leads (`?token=`). */
  resetPassword: '/reset-password',
  search: '/search',
  /** A profile; `:id` is a user id, or `@username` from a mention. */
  user: '/users/:id',
  followers: '/users/:id/followers',
  following: '/users/:id/following',
  post: '/posts/:id',
  hashtag: '/hashtag/:tag',
} as const;

/** A pattern with its `:params` filled in (each value already encoded as the URL needs it). */
const fill = (pattern: string, params: Record<string, string>) =>
  pattern.replace(/:(\w+)/g, (_, name: string) => params[name] ?? '');

export const paths = {
  home: patterns.home,
  notifications: patterns.notifications,
  messages: patterns.messages,
  bookmarks: patterns.bookmarks,
  drafts: patterns.drafts,
  scheduled: patterns.scheduled,
  followRequests: patterns.followRequests,
  lists: patterns.lists,
  list: (id: string, tab?: 'posts' | 'members') =>
    `${fill(patterns.list, { id })}${tab && tab !== 'posts' ? `?tab=${tab}` : ''}`,
  settings: patterns.settings,
  moderation: patterns.moderation,
  oauthAuthorize: patterns.oauthAuthorize,
  resetPassword: patterns.resetPassword,
  /** Search results for `q` on one tab (Posts by default); without `q`, the Search page itself. */
  search: (q?: string, tab?: 'posts' | 'people' | 'hashtags') => {
    const params = new URLSearchParams();
    if (q) params.set('q', q);
    if (tab && tab !== 'posts') params.set('tab', tab);
    const query = params.toString();
    return query ? `${patterns.search}?${query}` : patterns.search;
  },
  user: (id: string) => fill(patterns.user, { id }),
  /** Who follows a person, and whom they follow: the lists behind the profile's counts. */
  followers: (id: string) => fill(patterns.followers, { id }),
  following: (id: string) => fill(patterns.following, { id }),
  /** Where an @mention points; the page finds the person and moves to `user(id)`. */
  mention: (username: string) => fill(patterns.user, { id: `@${username}` }),
  post: (id: string) => fill(patterns.post, { id }),
  hashtag: (tag: string) => fill(patterns.hashtag, { tag: encodeURIComponent(tag) }),
} as const;
