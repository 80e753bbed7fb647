import { m, t } from '../../i18n/i18n.ts';

/** What each scope lets an app do, in the words the consent page and Settings use. */
const TOP: Record<string, string> = {
  read: m('Read your timelines, posts, notifications, bookmarks, likes and whom you follow, mute and block'),
  write: m('Post, reply, like, repost, bookmark, follow and change your profile for you'),
  follow: m('Follow, unfollow, block and mute people for you'),
  push: m('Send you push notifications'),
  profile: m('See your profile (name, username, picture)'),
};

/** What a `read:…` or `write:…` scope reads or changes, as a whole sentence each (languages inflect). */
const THINGS: Record<string, { read: string; write: string }> = {
  accounts: { read: m('Read your profile'), write: m('Change your profile') },
  blocks: { read: m('Read your blocked accounts'), write: m('Change your blocked accounts') },
  bookmarks: { read: m('Read your bookmarks'), write: m('Change your bookmarks') },
  conversations: { read: m('Read your conversations'), write: m('Change your conversations') },
  favourites: { read: m('Read your likes'), write: m('Change your likes') },
  filters: { read: m('Read your filters'), write: m('Change your filters') },
  follows: { read: m('Read your follows'), write: m('Change your follows') },
  lists: { read: m('Read your lists'), write: m('Change your lists') },
  media: { read: m('Read your uploaded images'), write: m('Change your uploaded images') },
  mutes: { read: m('Read your muted accounts'), write: m('Change your muted accounts') },
  notifications: { read: m('Read your notifications'), write: m('Change your notifications') },
  reports: { read: m('Read your reports'), write: m('Change your reports') },
  search: { read: m('Read your searches'), write: m('Change your searches') },
  statuses: { read: m('Read your posts'), write: m('Change your posts') },
};

export function scopeText(scope: string): string {
  const top = TOP[scope];
  if (top) return t(top);
  const [kind, thing] = scope.split(':');
  const texts = THINGS[thing ?? ''];
  if (kind === 'read') return texts ? t(texts.read) : t('Read your {what}', { what: thing ?? scope });
  if (kind === 'write') return texts ? t(texts.write) : t('Change your {what}', { what: thing ?? scope });
  return scope;
}
