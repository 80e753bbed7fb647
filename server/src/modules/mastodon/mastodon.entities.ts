/**
 * Pipit's people and things as Mastodon's entities (docs.joinmastodon.org/entities; the community
 * OpenAPI description in the tests checks them): string ids, absolute URLs, HTML made from the text.
 */
import { LIMITS } from '@pipit/contract';
import type { UserRow } from '../users/users.pack.ts';

/** What an Account is made from: a person's row (userColumns). */
type AccountRow = Pick<
  UserRow,
  | 'id'
  | 'name'
  | 'username'
  | 'profileImage'
  | 'coverImage'
  | 'bio'
  | 'createdAt'
  | 'followersCount'
  | 'followingCount'
  | 'postsCount'
>;

/** The version apps parse: Mastodon's, then ours (GoToSocial, Hollo and others do the same). */
export const mastodonVersion = (pipitVersion: string) => `4.3.0 (compatible; Pipit ${pipitVersion})`;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** Plain text as Mastodon's HTML: escaped, paragraphs on blank lines, <br> on single ones. */
export function textToHtml(text: string): string {
  if (text.trim() === '') return '';
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** An absolute URL for a stored image (the app stores `/media/…`), or the placeholder. */
export function absolute(publicUrl: string, url: string | null, fallback = '/images/placeholder.png'): string {
  const path = url ?? fallback;
  return path.startsWith('http://') || path.startsWith('https://') ? path : `${publicUrl}${path}`;
}

/** Mastodon's Account: a person. */
export function toAccount(publicUrl: string, row: AccountRow & { lastPostAt?: Date | null }) {
  const profile = `${publicUrl}/users/${row.id}`;
  const avatar = absolute(publicUrl, row.profileImage);
  const header = absolute(publicUrl, row.coverImage);
  return {
    id: String(row.id),
    username: row.username,
    acct: row.username,
    url: profile,
    uri: profile,
    display_name: row.name,
    note: textToHtml(row.bio),
    avatar,
    avatar_static: avatar,
    header,
    header_static: header,
    locked: false,
    bot: false,
    group: false,
    discoverable: true,
    indexable: true,
    noindex: false,
    hide_collections: false,
    // Mastodon gives the day the account was made, at midnight UTC.
    created_at: `${row.createdAt.toISOString().slice(0, 10)}T00:00:00.000Z`,
    last_status_at: row.lastPostAt ? row.lastPostAt.toISOString().slice(0, 10) : null,
    followers_count: row.followersCount,
    following_count: row.followingCount,
    statuses_count: row.postsCount,
    emojis: [],
    fields: [],
    roles: [],
  };
}

/** Mastodon's CredentialAccount: the person themselves, with what only they see. */
export function toCredentialAccount(publicUrl: string, row: AccountRow) {
  return {
    ...toAccount(publicUrl, row),
    source: {
      note: row.bio,
      fields: [],
      privacy: 'public' as const,
      sensitive: false,
      language: null,
      follow_requests_count: 0,
      indexable: true,
      hide_collections: false,
      discoverable: true,
      attribution_domains: [],
    },
    // Mastodon's "everyone" role (what an account without a role shows).
    role: { id: '-99', name: '', permissions: '65536', color: '', highlighted: false },
  };
}

/** The limits apps read from the instance: Pipit's own (contract LIMITS). */
export function configuration(publicUrl: string) {
  return {
    urls: {
      streaming: publicUrl.replace(/^http/, 'ws'),
      status: null,
      about: `${publicUrl}/`,
      privacy_policy: null,
      terms_of_service: null,
    },
    vapid: { public_key: '' },
    accounts: {
      max_featured_tags: 0,
      max_pinned_statuses: 0,
      max_display_name_length: LIMITS.nameMax,
      max_note_length: LIMITS.bioMax,
      max_profile_fields: 0,
    },
    statuses: {
      max_characters: LIMITS.postMax,
      max_media_attachments: LIMITS.postImagesMax,
      characters_reserved_per_url: 0,
    },
    media_attachments: {
      supported_mime_types: ['image/jpeg', 'image/png', 'image/webp'],
      description_limit: LIMITS.altTextMax,
      image_size_limit: LIMITS.postImageMaxBytes,
      image_matrix_limit: LIMITS.imageMaxPixels,
      video_size_limit: 0,
      video_frame_rate_limit: 0,
      video_matrix_limit: 0,
    },
    polls: { max_options: 0, max_characters_per_option: 0, min_expiration: 0, max_expiration: 0 },
    translation: { enabled: false },
  };
}
