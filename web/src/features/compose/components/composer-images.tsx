import { LIMITS, type MediaAttachment } from '@pipit/contract';
import { ImagePlus, LoaderCircle, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { t } from '../../../i18n/i18n.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { notifyError } from '../../../lib/toast.tsx';
import { uploadMedia } from '../api/upload-media.ts';

/** What the server takes (checked again there, by the bytes). */
const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp'];
const MB = 1024 * 1024;

export interface DraftImage {
  key: string;
  /** The picture as chosen, shown at once while it uploads. */
  localUrl: string;
  alt: string;
  /** The server's upload once it has answered. */
  uploaded: MediaAttachment | null;
  /** A picture the post being edited has already (its preview is the server's, not a local file). */
  existing?: boolean;
}

/** Why a chosen file cannot be sent, or null. */
function refusal(file: File): string | null {
  if (file.type === 'image/gif')
    return `${file.name}: GIF images are not supported yet. Choose a JPEG, PNG or WebP image.`;
  if (!ACCEPTED.includes(file.type)) return `${file.name} is not a JPEG, PNG or WebP image.`;
  if (file.size > LIMITS.postImageMaxBytes) return `${file.name} is larger than ${LIMITS.postImageMaxBytes / MB} MB.`;
  return null;
}

let nextKey = 0;

/**
 * The composer's images: each uploads as soon as it is chosen (so posting is quick), shows at once
 * from the file itself, can be described ("Alt text") and removed. At most LIMITS.postImagesMax.
 */
export function useComposerImages(initial: readonly MediaAttachment[] = []) {
  // A post's pictures (an edit) or a resumed draft's are uploads already: shown from their previews
  // (`existing`: no object URL to revoke).
  const [images, setImages] = useState<DraftImage[]>(() =>
    initial.map((m) => ({
      key: `image-${++nextKey}`,
      localUrl: m.previewUrl,
      alt: m.alt,
      uploaded: m,
      existing: true,
    })),
  );
  const live = useRef(images);
  live.current = images;

  // Object URLs hold the files in memory until revoked.
  useEffect(
    () => () => {
      for (const image of live.current) if (!image.existing) URL.revokeObjectURL(image.localUrl);
    },
    [],
  );

  const update = (key: string, change: (image: DraftImage) => DraftImage) =>
    setImages((all) => all.map((image) => (image.key === key ? change(image) : image)));
  const remove = (key: string) =>
    setImages((all) => {
      const gone = all.find((image) => image.key === key);
      if (gone && !gone.existing) URL.revokeObjectURL(gone.localUrl);
      return all.filter((image) => image.key !== key);
    });

  const add = (files: readonly File[]) => {
    const room = LIMITS.postImagesMax - live.current.length;
    if (files.length > room)
      notifyError(t('You can add up to {postImagesMax} images to a post.', { postImagesMax: LIMITS.postImagesMax }));
    for (const file of files.slice(0, Math.max(0, room))) {
      const refused = refusal(file);
      if (refused) {
        notifyError(refused);
        continue;
      }
      const key = `image-${++nextKey}`;
      setImages((all) => [...all, { key, localUrl: URL.createObjectURL(file), alt: '', uploaded: null }]);
      uploadMedia(file).then(
        (uploaded) => update(key, (image) => ({ ...image, uploaded })),
        (error: unknown) => {
          remove(key);
          notifyError(
            error instanceof ApiRequestError && error.status < 500
              ? error.message
              : t('Couldn’t upload {name}. Try again.', { name: file.name }),
          );
        },
      );
    }
  };

  return {
    images,
    add,
    remove,
    setAlt: (key: string, alt: string) => update(key, (image) => ({ ...image, alt })),
    clear: () => {
      for (const image of live.current) if (!image.existing) URL.revokeObjectURL(image.localUrl);
      setImages([]);
    },
    uploading: images.some((image) => image.uploaded === null),
    /** The post's `media`: the uploads in order, with their alt text. */
    media: images.flatMap((image) => (image.uploaded ? [{ id: image.uploaded.id, alt: image.alt.trim() }] : [])),
  };
}

export type ComposerImages = ReturnType<typeof useComposerImages>;

/** The "Add images" button (a hidden file input behind it). */
export function AddImagesButton({ images, disabled }: { images: ComposerImages; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const full = images.images.length >= LIMITS.postImagesMax;
  return (
    <>
      <button
        type="button"
        aria-label={t('Add images')}
        title={full ? t('Up to {postImagesMax} images', { postImagesMax: LIMITS.postImagesMax }) : t('Add images')}
        disabled={disabled || full}
        onClick={() => input.current?.click()}
        className="-ms-2 grid size-9 place-items-center rounded-full text-accent hover:bg-accent/10 disabled:cursor-not-allowed disabled:opacity-50"
      >
        <ImagePlus aria-hidden="true" className="size-5" />
      </button>
      <input
        ref={input}
        type="file"
        accept={ACCEPTED.join(',')}
        multiple
        tabIndex={-1}
        aria-hidden="true"
        className="hidden"
        onChange={(event) => {
          images.add([...(event.target.files ?? [])]);
          // The same file can be chosen again after being removed.
          event.target.value = '';
        }}
      />
    </>
  );
}

/** The chosen images, each with its alt text field and a remove button. */
export function ComposerImageList({ images, disabled }: { images: ComposerImages; disabled?: boolean }) {
  if (images.images.length === 0) return null;
  return (
    <ul aria-label={t('Images')} className="grid grid-cols-2 gap-2 pb-3">
      {images.images.map((image, index) => (
        <li key={image.key} className="flex min-w-0 flex-col gap-1.5">
          <div className="relative aspect-video overflow-hidden rounded-xl bg-surface">
            <img src={image.localUrl} alt="" className="size-full object-cover" />
            {image.uploaded === null && (
              <div className="absolute inset-0 grid place-items-center bg-black/50">
                <LoaderCircle
                  aria-label={t('Uploading image {index}', { index: index + 1 })}
                  className="size-6 animate-spin text-white"
                />
              </div>
            )}
            <button
              type="button"
              aria-label={t('Remove image {index}', { index: index + 1 })}
              disabled={disabled}
              onClick={() => images.remove(image.key)}
              className="absolute top-1.5 end-1.5 grid size-8 place-items-center rounded-full bg-black/75 text-white hover:bg-black/90"
            >
              <X aria-hidden="true" className="size-4" />
            </button>
          </div>
          <input
            type="text"
            aria-label={t('Alt text')}
            placeholder={t('Alt text: describe the image')}
            maxLength={LIMITS.altTextMax}
            value={image.alt}
            disabled={disabled}
            onChange={(event) => images.setAlt(image.key, event.target.value)}
            className="h-9 w-full min-w-0 rounded-md border border-line-strong bg-transparent px-2 text-[14px] text-fg outline-none placeholder:text-muted focus:border-accent"
          />
        </li>
      ))}
    </ul>
  );
}
