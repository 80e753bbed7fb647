import type { MediaAttachment } from '@pipit/contract';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import { isRightToLeft, t } from '../i18n/i18n.ts';
import { Modal } from './modal.tsx';

const NAV =
  'pointer-events-auto fixed top-1/2 grid size-11 -translate-y-1/2 place-items-center rounded-full bg-black/60 text-white ring-1 ring-white/40 hover:bg-black/80';

/**
 * A post's images one at a time, as large as the window allows: Previous/Next buttons and the
 * arrow keys move, Escape or Close (or a click beside the image) closes, focus returns to the image
 * that opened it. The alt text is shown under the image.
 */
export function MediaViewer({
  media,
  start,
  onClose,
}: {
  media: readonly MediaAttachment[];
  start: number;
  onClose: () => void;
}) {
  const [index, setIndex] = useState(start);
  const image = media[index];
  const count = media.length;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // The next image is the way the page reads: to the left in a right-to-left language.
      const [next, previous] = isRightToLeft() ? ['ArrowLeft', 'ArrowRight'] : ['ArrowRight', 'ArrowLeft'];
      if (event.key === next) setIndex((i) => Math.min(count - 1, i + 1));
      else if (event.key === previous) setIndex((i) => Math.max(0, i - 1));
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [count]);

  if (!image) return null;
  return (
    <Modal
      title={count > 1 ? t('Image {index} of {count}', { index: index + 1, count }) : t('Image')}
      hideTitle
      layout="fill"
      onClose={onClose}
    >
      <figure className="relative flex min-h-0 flex-1 flex-col items-center justify-center gap-3 px-4 pb-4">
        <img
          key={image.id}
          src={image.url}
          alt={image.alt}
          width={image.width}
          height={image.height}
          className="pointer-events-auto max-h-[calc(100dvh-140px)] w-auto max-w-full object-contain"
        />
        {image.alt && (
          <figcaption className="pointer-events-auto max-h-24 max-w-[600px] overflow-y-auto whitespace-pre-line rounded-lg bg-black/70 px-3 py-2 text-[15px] leading-5 text-white [overflow-wrap:anywhere]">
            {image.alt}
          </figcaption>
        )}
        {count > 1 && (
          <>
            <p aria-live="polite" className="pointer-events-auto text-[13px] text-white/80">
              {index + 1} / {count}
            </p>
            {index > 0 && (
              <button
                type="button"
                aria-label={t('Previous image')}
                onClick={() => setIndex(index - 1)}
                className={`${NAV} start-4`}
              >
                <ChevronLeft aria-hidden="true" className="size-6 rtl:-scale-x-100" />
              </button>
            )}
            {index < count - 1 && (
              <button
                type="button"
                aria-label={t('Next image')}
                onClick={() => setIndex(index + 1)}
                className={`${NAV} end-4`}
              >
                <ChevronRight aria-hidden="true" className="size-6 rtl:-scale-x-100" />
              </button>
            )}
          </>
        )}
      </figure>
    </Modal>
  );
}
