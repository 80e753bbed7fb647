import type { MediaAttachment } from '@pipit/contract';
import { lazy, Suspense, useState } from 'react';
import { t } from '../i18n/i18n.ts';
import { cn } from '../lib/cn.ts';
import { Blurhash } from './blurhash.tsx';

const MediaViewer = lazy(() => import('./media-viewer.tsx').then((m) => ({ default: m.MediaViewer })));

/** Grid cells: 2 side by side; 3 as one tall on the left and two stacked; 4 as 2 × 2. */
const CELLS: Record<number, string[]> = {
  1: ['col-span-2 row-span-2'],
  2: ['row-span-2', 'row-span-2'],
  3: ['row-span-2', '', ''],
  4: ['', '', '', ''],
};

/**
 * The cells of PostMedia's frame: each image's preview over a blurred placeholder painted from its
 * blurhash, "ALT" on images that are described, and a viewer that opens on click (keyboard: Enter
 * on an image, arrows to move, Escape to close).
 */
export function MediaGrid({ media }: { media: readonly MediaAttachment[] }) {
  const [open, setOpen] = useState<number | null>(null);
  const [loaded, setLoaded] = useState<ReadonlySet<string>>(() => new Set());
  const cells = CELLS[media.length] ?? CELLS[4]!;
  return (
    <>
      {media.map((image, index) => (
        <div key={image.id} className={cn('relative min-h-0 overflow-hidden bg-surface-2', cells[index])}>
          <button
            type="button"
            onClick={() => setOpen(index)}
            aria-label={
              image.alt
                ? t('Open image: {alt}', { alt: image.alt })
                : t('Open image {index} of {count}', { index: index + 1, count: media.length })
            }
            className="absolute inset-0 size-full"
          >
            {!loaded.has(image.id) && <Blurhash hash={image.blurhash} className="absolute inset-0 size-full" />}
            <img
              src={image.previewUrl}
              alt={image.alt}
              width={image.width}
              height={image.height}
              loading="lazy"
              decoding="async"
              onLoad={() => setLoaded((before) => new Set(before).add(image.id))}
              className="relative size-full object-cover"
            />
          </button>
          {/* Beside the button, not in it: the button is named by the alt text itself. */}
          {image.alt && (
            <span
              aria-hidden="true"
              className="pointer-events-none absolute bottom-2 start-2 rounded bg-black/75 px-1.5 py-0.5 text-[11px] font-bold leading-4 text-white"
            >
              {t('ALT')}
            </span>
          )}
        </div>
      ))}
      {open !== null && (
        <Suspense fallback={null}>
          <MediaViewer media={media} start={open} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </>
  );
}
