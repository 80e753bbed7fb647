/**
 * Every address of the web app, in one place: the router's patterns and the links that point at
 * them are written from the same table.
 */
export const paths = {
  home: '/',
  notifications: '/notifications',
  bookmarks: '/bookmarks',
  settings: '/settings',
  /** Reports and moderation tools (moderators and admins). */
  moderation: '/moderation',
  /** A Mastodon app's consent page (its query is the OAuth request). */
  oauthAuthorize: '/oauth/authorize',
  /** Where a password-reset email's link leads (`?token=`). */
  resetPassword: '/reset-password',
  /** Search results for `q` on one tab (Posts by default); without `q`, the Search page itself. */
  search: (q?: string, tab?: 'posts' | 'people' | 'hashtags') => {
    const params = new URLSearchParams();
    if (q) params.set('q', q);
    if (tab && tab !== 'posts') params.set('tab', tab);
    const query = params.toString();
    return query ? `/search?${query}` : '/search';
  },
  user: (id: string) => `/users/${id}`,
  /** Who follows a person, and whom they follow: the lists behind the profile's counts. */
  followers: (id: string) => `/users/${id}/followers`,
  following: (id: string) => `/users/${id}/following`,
  /** Where an @mention points; the page finds the person and moves to `user(id)`. */
  mention: (username: string) => `/users/@${username}`,
  post: (id: string) => `/posts/${id}`,
  hashtag: (tag: string) => `/hashtag/${encodeURIComponent(tag)}`,
} as const;

/** The router's patterns for the same pages (React Router's `:param` syntax). */
export const patterns = {
  notifications: 'notifications',
  bookmarks: 'bookmarks',
  settings: 'settings',
  moderation: 'moderation',
  oauthAuthorize: 'oauth/authorize',
  resetPassword: 'reset-password',
  search: 'search',
  user: 'users/:id',
  followers: 'users/:id/followers',
  following: 'users/:id/following',
  post: 'posts/:id',
  hashtag: 'hashtag/:tag',
} as const;
