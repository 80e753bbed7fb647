import { z } from 'zod';
import { CONTROL_CHARS_NO_NEWLINE, fitsGraphemes, hasTooManyMarks, idSchema, MAX_COMBINING_MARKS } from './common.ts';
import { LIMITS } from './users.ts';

/**
 * Alt text of an image: what a screen reader says instead of it. Trimmed; empty means none; at most
 * LIMITS.altTextMax user-perceived characters; newlines allowed, other control characters not.
 */
export const altText = z
  .string()
  .max(LIMITS.altTextMax * 16, `Alt text must be at most ${LIMITS.altTextMax} characters`)
  .transform((t) => t.trim())
  .refine((t) => fitsGraphemes(t, LIMITS.altTextMax), `Alt text must be at most ${LIMITS.altTextMax} characters`)
  .refine(
    (t) => !hasTooManyMarks(t),
    `Alt text has too many accent marks on one character (at most ${MAX_COMBINING_MARKS})`,
  )
  .refine(
    (t) => !CONTROL_CHARS_NO_NEWLINE.test(t.replace(/\r?\n/g, '')),
    'Alt text must not contain control characters',
  );

/**
 * An image uploaded for a post (POST /api/media, multipart: an optional `alt` field, then one `file`),
 * and one image of a post. `url` is the stored image (longest side ≤ LIMITS.postImageMaxSide),
 * `previewUrl` a small one for grids; `width`/`height` are the stored image's, so a page can hold
 * its place before it loads; `blurhash` paints a blurred placeholder meanwhile.
 */
export const mediaAttachment = z.object({
  id: idSchema,
  url: z.string(),
  previewUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  blurhash: z.string(),
  alt: z.string(),
});
export type MediaAttachment = z.infer<typeof mediaAttachment>;

/** The multipart field names of an upload. */
export const UPLOAD_FIELDS = { file: 'file', alt: 'alt' } as const;

/** The images a new post takes: uploads of the poster's not yet in a post, in grid order, each once. */
export const postMediaInput = z
  .array(z.strictObject({ id: idSchema, alt: altText.optional() }))
  .max(LIMITS.postImagesMax, `A post can have at most ${LIMITS.postImagesMax} images`)
  .refine((items) => new Set(items.map((m) => m.id)).size === items.length, 'Each image can be added once');
