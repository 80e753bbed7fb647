import { z } from 'zod';

/**
 * A link's preview (Open Graph / Twitter / the page's <title>), fetched in the background for the
 * first link of a post without images. `siteName` may be empty (the web shows the host then);
 * `image` is a picture re-encoded and stored by the server, or null.
 */
export const previewCard = z.object({
  /** The link as the post has it (normalized: the WHATWG URL parser's form, without its #fragment). */
  url: z.string(),
  title: z.string(),
  description: z.string(),
  siteName: z.string(),
  authorName: z.string(),
  image: z
    .object({
      url: z.string(),
      width: z.number().int(),
      height: z.number().int(),
      blurhash: z.string().nullable(),
    })
    .nullable(),
});
export type PreviewCard = z.infer<typeof previewCard>;
