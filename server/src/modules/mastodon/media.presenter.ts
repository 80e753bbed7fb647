import type { MediaAttachment } from '@pipit/contract';
import { absolute } from './html.ts';

/** Mastodon's MediaAttachment of an image. */
export function toMedia(publicUrl: string, m: MediaAttachment) {
  const ratio = m.height > 0 ? Math.round((m.width / m.height) * 1000) / 1000 : 1;
  return {
    id: m.id,
    type: 'image' as const,
    url: absolute(publicUrl, m.url),
    preview_url: absolute(publicUrl, m.previewUrl),
    remote_url: null,
    preview_remote_url: null,
    text_url: null,
    meta: { original: { width: m.width, height: m.height, size: `${m.width}x${m.height}`, aspect: ratio } },
    description: m.alt === '' ? null : m.alt,
    blurhash: m.blurhash,
  };
}
