import type { PreviewCard } from '@pipit/contract';
import { cn } from '../lib/cn.ts';

/** The host a link goes to, without `www.`: the card's site name when the page gives none. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** A picture at least this much wider than tall goes on top, full width; others sit on the left. */
const WIDE = 1.5;

/**
 * The preview of a post's first link (fetched by the server after the post: it may appear a moment
 * later): its picture, site, title and description, the whole card one link that opens the page in a
 * new tab. Nothing when the post has none.
 */
export function LinkCard({ card, className }: { card: PreviewCard | null; className?: string }) {
  if (!card) return null;
  const site = card.siteName || hostOf(card.url);
  const image = card.image;
  const wide = image !== null && image.height > 0 && image.width / image.height >= WIDE;
  return (
    <a
      href={card.url}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className={cn(
        'flex overflow-hidden rounded-2xl border border-line text-[15px] leading-5 hover:bg-fg/[0.03]',
        wide ? 'flex-col' : 'flex-row',
        className,
      )}
    >
      {image && (
        <img
          src={image.url}
          alt=""
          loading="lazy"
          width={image.width}
          height={image.height}
          className={cn(
            'shrink-0 bg-surface object-cover',
            wide ? 'aspect-[2/1] w-full border-b border-line' : 'w-24 self-stretch border-e border-line sm:w-32',
          )}
        />
      )}
      <span className="flex min-w-0 flex-col gap-0.5 px-3 py-2.5">
        <span className="truncate text-[13px] text-muted">{site}</span>
        <span className="line-clamp-2 font-bold">{card.title}</span>
        {card.description && <span className="line-clamp-2 text-muted">{card.description}</span>}
      </span>
    </a>
  );
}
