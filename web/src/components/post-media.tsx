import type { MediaAttachment } from '@pipit/contract';
import { lazy, type MouseEvent, type ReactNode, Suspense } from 'react';
import { t } from '../i18n/i18n.ts';
import { cn } from '../lib/cn.ts';
import { setRevealed, useRevealed } from '../lib/spoilers.ts';

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
 * jumps. `sensitive` pictures are covered (blurred) until the reader shows them ("Sensitive content —
 * show"), remembered per post while the page lives (lib/spoilers.ts); "Hide" covers them again.
 */
export function PostMedia({
  media,
  className,
  sensitive = false,
  postId,
}: {
  media: readonly MediaAttachment[];
  className?: string;
  sensitive?: boolean;
  /** The post they belong to: the reader's choice to show them is kept per post. */
  postId?: string;
}) {
  if (media.length === 0) return null;
  const frame = (
    <div
      className={cn(
        'grid grid-cols-2 grid-rows-2 gap-0.5 overflow-hidden rounded-2xl border border-line bg-surface',
        !sensitive && className,
      )}
      style={{ aspectRatio: frameRatio(media) }}
    >
      <Suspense fallback={null}>
        <MediaGrid media={media} />
      </Suspense>
    </div>
  );
  if (!sensitive) return frame;
  return (
    <SensitiveCover postId={postId ?? media.map((m) => m.id).join(',')} className={className}>
      {frame}
    </SensitiveCover>
  );
}

function SensitiveCover({ postId, className, children }: { postId: string; className?: string; children: ReactNode }) {
  const shown = useRevealed('media', postId, false);
  const stop = (event: MouseEvent) => event.stopPropagation();
  return (
    <div className={cn('relative', className)}>
      {children}
      {shown ? (
        <button
          type="button"
          onClick={(event) => {
            stop(event);
            setRevealed('media', postId, false);
          }}
          className="absolute top-2 start-2 rounded-full bg-black/70 px-3 py-1 text-[13px] font-bold text-white hover:bg-black/85"
        >
          {t('Hide')}
        </button>
      ) : (
        <div className="absolute inset-0 grid place-items-center rounded-2xl bg-neutral-800/60 backdrop-blur-2xl">
          <button
            type="button"
            onClick={(event) => {
              stop(event);
              setRevealed('media', postId, true);
            }}
            className="rounded-full bg-black/75 px-4 py-2 text-[15px] font-bold text-white hover:bg-black/90"
          >
            {t('Sensitive content — show')}
          </button>
        </div>
      )}
    </div>
  );
}
