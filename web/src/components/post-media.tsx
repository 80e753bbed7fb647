import type { MediaAttachment } from '@pipit/contract';
import { lazy, Suspense } from 'react';
import { cn } from '../lib/cn.ts';

// On demand: most posts have no images, and a first visit should not pay for the grid, the
// blurhash decoder or the viewer. The frame below holds the grid's place meanwhile.
const MediaGrid = lazy(() => import('./media-grid.tsx').then((m) => ({ default: m.MediaGrid })));

/** One image keeps its own shape between 3:4 and 2:1; several share a 16:9 frame. */
function frameRatio(media: readonly MediaAttachment[]): number {
  const [only] = media;
  if (media.length === 1 && only) return Math.min(2, Math.max(0.75, only.width / only.height));
  return 16 / 9;
}

/**
 * A post's images (media-grid.tsx) in a frame sized before anything loads, so the layout never
 * jumps.
 */
export function PostMedia({ media, className }: { media: readonly MediaAttachment[]; className?: string }) {
  if (media.length === 0) return null;
  return (
    <div
      className={cn(
        'grid grid-cols-2 grid-rows-2 gap-0.5 overflow-hidden rounded-2xl border border-line bg-surface',
        className,
      )}
      style={{ aspectRatio: frameRatio(media) }}
    >
      <Suspense fallback={null}>
        <MediaGrid media={media} />
      </Suspense>
    </div>
  );
}
