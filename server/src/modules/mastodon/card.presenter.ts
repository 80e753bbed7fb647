import type { PreviewCard } from '@pipit/contract';
import { absolute } from './html.ts';

/**
 * Mastodon's PreviewCard of a post's link card: always `type: "link"` (Pipit reads Open Graph, not
 * oEmbed, so no video or rich embeds: `html` and `embed_url` empty), the picture as an absolute URL of
 * this server's copy, `width`/`height` its size (0 without one).
 */
export function toCard(publicUrl: string, card: PreviewCard) {
  return {
    url: card.url,
    title: card.title,
    description: card.description,
    language: null,
    type: 'link' as const,
    author_name: card.authorName,
    author_url: '',
    authors: [] as unknown[],
    provider_name: card.siteName,
    provider_url: '',
    html: '',
    width: card.image?.width ?? 0,
    height: card.image?.height ?? 0,
    image: card.image ? absolute(publicUrl, card.image.url) : null,
    image_description: '',
    embed_url: '',
    blurhash: card.image?.blurhash ?? null,
    published_at: null,
  };
}
