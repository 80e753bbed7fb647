/** What each scope lets an app do, in the words the consent page and Settings use. */
const TOP: Record<string, string> = {
  read: 'Read your timelines, posts, notifications, bookmarks, likes and whom you follow, mute and block',
  write: 'Post, reply, like, repost, bookmark, follow and change your profile for you',
  follow: 'Follow, unfollow, block and mute people for you',
  push: 'Send you push notifications',
  profile: 'See your profile (name, username, picture)',
};

const THINGS: Record<string, string> = {
  accounts: 'profile',
  blocks: 'blocked accounts',
  bookmarks: 'bookmarks',
  conversations: 'conversations',
  favourites: 'likes',
  filters: 'filters',
  follows: 'follows',
  lists: 'lists',
  media: 'uploaded images',
  mutes: 'muted accounts',
  notifications: 'notifications',
  reports: 'reports',
  search: 'searches',
  statuses: 'posts',
};

export function scopeText(scope: string): string {
  const top = TOP[scope];
  if (top) return top;
  const [kind, thing] = scope.split(':');
  const what = THINGS[thing ?? ''] ?? thing ?? scope;
  return kind === 'read' ? `Read your ${what}` : kind === 'write' ? `Change your ${what}` : scope;
}
