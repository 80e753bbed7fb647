import type { PreviewCard } from '@pipit/contract';
import { mediaUrl } from '../media/media.service.ts';
import type { CardJson } from './cards.repository.ts';

/** A ready card (the post view's JSON) as the wire has it; null for none. */
export function toPreviewCard(value: CardJson | string | null): PreviewCard | null {
  const card = typeof value === 'string' ? (JSON.parse(value) as CardJson) : value;
  if (!card) return null;
  return {
    url: card.url,
    title: card.title,
    description: card.description,
    siteName: card.siteName,
    authorName: card.authorName,
    image:
      card.imageKey === null
        ? null
        : {
            url: mediaUrl(card.imageKey),
            width: card.imageWidth ?? 0,
            height: card.imageHeight ?? 0,
            blurhash: card.blurhash,
          },
  };
}
