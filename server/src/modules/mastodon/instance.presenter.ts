import { LIMITS, POLL_LIMITS } from '@pipit/contract';
import type { Config } from '../../config.ts';

/** The version apps parse: Mastodon's, then ours (GoToSocial, Hollo and others do the same). */
export const mastodonVersion = (pipitVersion: string) => `4.3.0 (compatible; Pipit ${pipitVersion})`;

/**
 * The limits apps read from the instance: Pipit's own (contract LIMITS, POLL_LIMITS). What Pipit does
 * not have yet says so where Mastodon has a place for it (POST /api/v1/statuses refuses it by name).
 */
export function configuration(publicUrl: string, vapidKey: string) {
  return {
    urls: {
      streaming: publicUrl.replace(/^http/, 'ws'),
      status: null,
      about: `${publicUrl}/`,
      privacy_policy: null,
      terms_of_service: null,
    },
    // Web Push's VAPID public key (modules/push): apps subscribe with it.
    vapid: { public_key: vapidKey },
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
    polls: {
      max_options: POLL_LIMITS.maxOptions,
      max_characters_per_option: POLL_LIMITS.optionMax,
      min_expiration: POLL_LIMITS.minExpiresIn,
      max_expiration: POLL_LIMITS.maxExpiresIn,
    },
    translation: { enabled: false },
  };
}

const DESCRIPTION = 'Pipit: short messages, among people.';

/** Mastodon's Instance (v2) and its v1 form. */
export function toInstance(config: Config, pipitVersion: string, vapidKey: string) {
  const domain = new URL(config.publicUrl).host;
  // Who to write to: the first admin's email, else the address mail comes from.
  const contactEmail = config.adminEmails[0] ?? /<([^>]+)>/.exec(config.mail.from)?.[1] ?? config.mail.from;
  const version = mastodonVersion(pipitVersion);
  return {
    v2: {
      domain,
      title: 'Pipit',
      version,
      source_url: 'https://github.com/pipit-social/pipit',
      description: DESCRIPTION,
      usage: { users: { active_month: 0 } },
      thumbnail: { url: `${config.publicUrl}/images/instance.png`, blurhash: null, versions: {} },
      icon: [],
      languages: ['en'],
      configuration: configuration(config.publicUrl, vapidKey),
      registrations: { enabled: true, approval_required: false, message: null, min_age: null, reason_required: false },
      api_versions: { mastodon: 2 },
      contact: { email: contactEmail, account: null },
      rules: [],
    },
    v1: {
      uri: domain,
      title: 'Pipit',
      short_description: DESCRIPTION,
      description: DESCRIPTION,
      email: contactEmail,
      version,
      urls: { streaming_api: config.publicUrl.replace(/^http/, 'ws') },
      stats: { user_count: 0, status_count: 0, domain_count: 0 },
      thumbnail: null,
      languages: ['en'],
      registrations: true,
      approval_required: false,
      invites_enabled: false,
      configuration: configuration(config.publicUrl, vapidKey),
      contact_account: null,
      rules: [],
    },
  };
}
