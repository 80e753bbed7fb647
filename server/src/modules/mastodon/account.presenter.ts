import type { CurrentUser, User } from '@pipit/contract';
import { absolute, textToHtml } from './html.ts';
import { MASTODON_VISIBILITY } from './visibility.ts';

/** Mastodon's Account (docs.joinmastodon.org/entities/Account): a person, from their profile as the services answer it. */
export function toAccount(publicUrl: string, user: User) {
  const profile = `${publicUrl}/users/${user.id}`;
  // Mastodon's acct: the username for this server's members, `username@domain` for everyone else.
  const avatar = absolute(publicUrl, user.profileImage);
  // No cover: a plain dark banner (the avatar's silhouette is no banner).
  const header = absolute(publicUrl, user.coverImage, '/images/header.png');
  return {
    id: user.id,
    username: user.username,
    acct: user.domain === null ? user.username : `${user.username}@${user.domain}`,
    url: profile,
    uri: profile,
    display_name: user.name,
    note: textToHtml(user.bio),
    avatar,
    avatar_static: avatar,
    header,
    header_static: header,
    locked: user.locked,
    bot: false,
    group: false,
    discoverable: true,
    indexable: true,
    noindex: false,
    hide_collections: false,
    // Mastodon gives the day the account was made, at midnight UTC.
    created_at: `${user.createdAt.slice(0, 10)}T00:00:00.000Z`,
    last_status_at: null,
    followers_count: user.followersCount,
    following_count: user.followingCount,
    statuses_count: user.postsCount,
    emojis: [],
    fields: [],
    roles: [],
    ...(user.suspended ? { suspended: true } : {}),
  };
}
export type Account = ReturnType<typeof toAccount>;

/** Mastodon's CredentialAccount: the person themselves, with what only they see (how many ask to follow them). */
export function toCredentialAccount(publicUrl: string, user: CurrentUser, followRequestsCount: number) {
  return {
    ...toAccount(publicUrl, user),
    source: {
      note: user.bio,
      fields: [],
      // The member's default visibility, as Mastodon names it (followers only: private).
      privacy: MASTODON_VISIBILITY[user.defaultVisibility],
      sensitive: false,
      language: null,
      follow_requests_count: followRequestsCount,
      indexable: true,
      hide_collections: false,
      discoverable: true,
      attribution_domains: [],
    },
    // Mastodon's "everyone" role (what an account without a role shows).
    role: { id: '-99', name: '', permissions: '65536', color: '', highlighted: false },
  };
}
