import type { PostVersion, VersionMedia } from '@pipit/contract';
import type { Account } from './account.presenter.ts';
import { absolute, textToHtml } from './html.ts';

/**
 * Mastodon's MediaAttachment of a picture as a version had it. A picture removed from the post since
 * has had its file deleted: its url and preview_url are null (the description allows it), its size,
 * blurhash and description stay.
 */
function toVersionMedia(publicUrl: string, m: VersionMedia) {
  const ratio = m.height > 0 ? Math.round((m.width / m.height) * 1000) / 1000 : 1;
  return {
    id: m.id,
    type: 'image' as const,
    url: m.url === null ? null : absolute(publicUrl, m.url),
    preview_url: m.previewUrl === null ? null : absolute(publicUrl, m.previewUrl),
    remote_url: null,
    preview_remote_url: null,
    text_url: null,
    meta: { original: { width: m.width, height: m.height, size: `${m.width}x${m.height}`, aspect: ratio } },
    description: m.alt === '' ? null : m.alt,
    blurhash: m.blurhash,
  };
}

/** Mastodon's StatusEdit: one version of a status (GET /api/v1/statuses/:id/history), by its author. */
export function toStatusEdit(publicUrl: string, version: PostVersion, account: Account) {
  return {
    content: textToHtml(version.text),
    spoiler_text: version.spoilerText,
    sensitive: version.sensitive,
    created_at: version.createdAt,
    account,
    media_attachments: version.media.map((m) => toVersionMedia(publicUrl, m)),
    // Its poll's options then (Mastodon keeps no votes per version), or none.
    poll: version.poll === null ? null : { options: version.poll.options.map((title) => ({ title })) },
    emojis: [],
  };
}
