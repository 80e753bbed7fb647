import { createHash } from 'node:crypto';
import { LIMITS, type MediaAttachment } from '@pipit/contract';
import { encode as encodeBlurhash } from 'blurhash';
import sharp, { type Metadata } from 'sharp';
import type { Database, Tx } from '../../db/client.ts';
import { AppError, invalid, notFound } from '../../lib/errors.ts';
import * as repo from './media.repository.ts';
import { MEDIA_KEY_PATTERN, type MediaStore, type StoredMedia } from './media.store.ts';

// Every upload is decoded once: libvips' operation cache would only keep untrusted pixels in memory.
sharp.cache(false);

/** Images are served from `/media/<sha256>.<ext>`; user objects carry this path. */
export const MEDIA_PATH = '/media/';

export type ImageKind = 'avatar' | 'cover';

/** docs/spec/product.md §2: avatars 400×400, covers 1500×500, both cropped to fill (and enlarged when smaller). */
export const IMAGE_SIZES: Record<ImageKind, { width: number; height: number }> = {
  avatar: { width: 400, height: 400 },
  cover: { width: 1500, height: 500 },
};

export const CONTENT_TYPES = { jpg: 'image/jpeg', png: 'image/png' } as const;
type Ext = keyof typeof CONTENT_TYPES;

/** Photos leave as JPEG; PNG only when the picture really uses transparency. */
const JPEG_OPTIONS = { quality: 82, progressive: true, mozjpeg: true } as const;
const PNG_OPTIONS = { compressionLevel: 9, adaptiveFiltering: true } as const;

/** Decoding is CPU and memory heavy: at most this many images are processed at once per process. */
const MAX_CONCURRENT_JOBS = 2;

/** The longest `data:<type>;base64,` prefix looked at; real ones are ~25 characters. */
const MAX_DATA_URL_HEADER = 200;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

export const isDataUrl = (value: string) => value.slice(0, 5).toLowerCase() === 'data:';

/** What an upload may be, by its bytes: profile images take JPEG and PNG, post images WebP too. */
export type ImageFormat = 'jpeg' | 'png' | 'webp';
const PROFILE_FORMATS: readonly ImageFormat[] = ['jpeg', 'png'];
const POST_FORMATS: readonly ImageFormat[] = ['jpeg', 'png', 'webp'];
const FORMAT_NAMES = { jpeg: 'JPEG', png: 'PNG', webp: 'WebP' } as const;

const unsupported = (field: string, formats: readonly ImageFormat[] = PROFILE_FORMATS) =>
  new AppError(
    'UNSUPPORTED_IMAGE',
    `${field} must be a ${formats
      .map((f) => FORMAT_NAMES[f])
      .join(', ')
      .replace(/, (\w+)$/, ' or $1')} image (checked by its bytes).`,
    field,
  );
const tooLarge = (field: string, message: string) => new AppError('IMAGE_TOO_LARGE', message, field);

/**
 * The bytes of a base64 data URL. The declared type is ignored (the bytes decide); the decoded size
 * is computed from the string's length and refused before any buffer is allocated.
 */
export function decodeDataUrl(value: string, field: string): Buffer {
  const comma = value.indexOf(',', 0);
  if (!isDataUrl(value) || comma < 0 || comma > MAX_DATA_URL_HEADER) {
    throw invalid(field, `${field} must be a data URL, the current image URL or null.`);
  }
  const header = value.slice(5, comma).toLowerCase();
  if (!header.endsWith(';base64')) throw invalid(field, `${field} must be a base64 data URL.`);
  const length = value.length - comma - 1;
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  const decodedBytes = Math.floor(((length - padding) * 3) / 4);
  if (decodedBytes > LIMITS.imageMaxBytes) {
    throw tooLarge(field, `${field} is larger than ${LIMITS.imageMaxBytes} bytes.`);
  }
  if (decodedBytes === 0) throw unsupported(field);
  // Node's decoder skips what is not base64 (and stops at inner padding): a short result means the
  // string was not clean base64. Cheaper than a regex over megabytes on the event loop.
  const bytes = Buffer.from(value.slice(comma + 1), 'base64');
  if (length % 4 === 1 || bytes.length !== decodedBytes) throw invalid(field, `${field} is not valid base64.`);
  return bytes;
}

/** The format by magic number (GIF too, to refuse it by name), or null. */
export function sniffImage(bytes: Buffer): ImageFormat | 'gif' | null {
  if (bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) return 'png';
  if (bytes.subarray(0, JPEG_MAGIC.length).equals(JPEG_MAGIC)) return 'jpeg';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (/^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) return 'gif';
  return null;
}

/** A counting semaphore: `run` waits for a free slot. */
class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.max) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // the finisher hands its slot over
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
const gate = new Gate(MAX_CONCURRENT_JOBS);

export interface ProcessedImage {
  bytes: Buffer;
  ext: Ext;
}

/**
 * Checks an upload before any pixel is decoded: one of `formats` by its magic number and by its
 * header (which sharp reads without decoding), a single frame, at most LIMITS.imageMaxPixels.
 */
async function checkHeader(input: Buffer, field: string, formats: readonly ImageFormat[]): Promise<Metadata> {
  const sniffed = sniffImage(input);
  if (sniffed === 'gif' && formats !== PROFILE_FORMATS) {
    // docs/product-decisions.md: no animation yet, and a still GIF is better sent as PNG.
    throw new AppError(
      'UNSUPPORTED_IMAGE',
      `${field} is a GIF: GIF and animated images are not accepted yet. Upload a JPEG, PNG or WebP image.`,
      field,
    );
  }
  if (!sniffed || sniffed === 'gif' || !formats.includes(sniffed)) throw unsupported(field, formats);

  let meta: Metadata;
  try {
    // Header only: no pixel is decoded here, so a pixel flood costs nothing yet.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw unsupported(field, formats);
  }
  if (meta.format !== sniffed || !meta.width || !meta.height) throw unsupported(field, formats);
  if ((meta.pages ?? 1) > 1) {
    throw new AppError(
      'UNSUPPORTED_IMAGE',
      `${field} is animated: animated images are not accepted yet. Upload a still image.`,
      field,
    );
  }
  if (meta.width * meta.height > LIMITS.imageMaxPixels) {
    throw tooLarge(
      field,
      `${field} is ${meta.width}×${meta.height} pixels; at most ${LIMITS.imageMaxPixels} pixels are accepted.`,
    );
  }
  return meta;
}

/** Decodes under the pixel limit, failing on truncated data; anything libvips refuses is UNSUPPORTED_IMAGE. */
async function decoding<T>(field: string, formats: readonly ImageFormat[], task: () => Promise<T>): Promise<T> {
  try {
    return await gate.run(task);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unsupported(field, formats);
  }
}

const decoder = (input: Buffer) => sharp(input, { limitInputPixels: LIMITS.imageMaxPixels, failOn: 'warning' });

/** Raw pixels, 8 bits per channel. */
interface Pixels {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

/** JPEG, or PNG when some pixel of `pixels` (RGBA) is not fully opaque; no metadata. */
async function encode(pixels: Pixels, resize?: { side: number }): Promise<ProcessedImage> {
  const raw = { raw: pixels.info };
  let image = sharp(pixels.data, raw);
  if (resize) image = image.resize(resize.side, resize.side, { fit: 'inside', withoutEnlargement: true });
  if (pixels.info.channels === 4 && !isOpaque(pixels.data)) {
    return { bytes: await image.png(PNG_OPTIONS).toBuffer(), ext: 'png' };
  }
  return { bytes: await image.removeAlpha().jpeg(JPEG_OPTIONS).toBuffer(), ext: 'jpg' };
}

/**
 * Checks and re-encodes one uploaded image: JPEG or PNG by its bytes, at most
 * LIMITS.imageMaxPixels as its header declares (read before any pixel is decoded), auto-rotated,
 * cropped to the kind's size, and written anew without any metadata (EXIF, GPS, XMP, ICC).
 */
export async function processImage(input: Buffer, kind: ImageKind, field: string): Promise<ProcessedImage> {
  const meta = await checkHeader(input, field, PROFILE_FORMATS);
  const { width, height } = IMAGE_SIZES[kind];
  return decoding(field, PROFILE_FORMATS, async () => {
    const resized = decoder(input)
      .rotate() // applies the EXIF orientation, which is dropped with the rest of the metadata
      .resize(width, height, { fit: 'cover', position: 'centre' })
      .toColourspace('srgb');
    if (!meta.hasAlpha) return { bytes: await resized.jpeg(JPEG_OPTIONS).toBuffer(), ext: 'jpg' as const };
    // Decode once to raw RGBA, then keep PNG only if some pixel is not fully opaque.
    return encode(await resized.ensureAlpha().raw().toBuffer({ resolveWithObject: true }));
  });
}

/** A post image ready to store: the image, its preview and its placeholder. */
export interface ProcessedPostImage {
  full: ProcessedImage;
  preview: ProcessedImage;
  width: number;
  height: number;
  blurhash: string;
}

/** Blurhash components (x, y): 4×3 is what Mastodon sends and what its apps expect. */
const BLURHASH_COMPONENTS = [4, 3] as const;
const BLURHASH_SOURCE_SIDE = 32;

/**
 * Checks and re-encodes an image for a post: JPEG, PNG or WebP by its bytes (a GIF or an animated
 * image refused by name), at most LIMITS.imageMaxPixels as its header declares, auto-rotated, the
 * longest side scaled down to LIMITS.postImageMaxSide, written anew without any metadata; plus a
 * preview (longest side LIMITS.postImagePreviewSide) and a blurhash. Decoded once.
 */
export async function processPostImage(input: Buffer, field: string): Promise<ProcessedPostImage> {
  await checkHeader(input, field, POST_FORMATS);
  return decoding(field, POST_FORMATS, async () => {
    const side = LIMITS.postImageMaxSide;
    const pixels = (await decoder(input)
      .rotate()
      .resize(side, side, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })) as Pixels;
    const small = await sharp(pixels.data, { raw: pixels.info })
      .resize(BLURHASH_SOURCE_SIDE, BLURHASH_SOURCE_SIDE, { fit: 'inside' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const [full, preview] = await Promise.all([encode(pixels), encode(pixels, { side: LIMITS.postImagePreviewSide })]);
    return {
      full,
      preview,
      width: pixels.info.width,
      height: pixels.info.height,
      blurhash: encodeBlurhash(
        new Uint8ClampedArray(small.data.buffer, small.data.byteOffset, small.data.length),
        small.info.width,
        small.info.height,
        ...BLURHASH_COMPONENTS,
      ),
    };
  });
}

function isOpaque(rgba: Buffer): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}

export const mediaUrl = (key: string) => `${MEDIA_PATH}${key}`;

export interface MediaFile extends StoredMedia {
  contentType: string;
  /** The content hash: a strong ETag. */
  hash: string;
}

/** An image checked and re-encoded, not stored yet. */
export interface PreparedImage {
  key: string;
  url: string;
  bytes: Buffer;
}

/** How long an upload waits for a post before it is deleted, and how often the sweep runs. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
export const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 500;

function prepared(image: ProcessedImage): PreparedImage {
  const key = `${createHash('sha256').update(image.bytes).digest('hex')}.${image.ext}`;
  return { key, url: mediaUrl(key), bytes: image.bytes };
}

/** What an attachment is built from: its row, or the JSON a post view selects (posts.repository `MediaJson`). */
export interface AttachmentFields {
  id: number | string;
  key: string;
  previewKey: string;
  width: number;
  height: number;
  blurhash: string;
  alt: string;
}

/** An attachment row as the API shows it. */
export function toMediaAttachment(row: AttachmentFields): MediaAttachment {
  return {
    id: String(row.id),
    url: mediaUrl(row.key),
    previewUrl: mediaUrl(row.previewKey),
    width: row.width,
    height: row.height,
    blurhash: row.blurhash,
    alt: row.alt,
  };
}

/**
 * Upload checks, re-encoding and content-addressed storage of images, and the collection of files
 * nothing references any more. Storing (inside the transaction that references the file) and
 * collecting take the same per-key lock, so a file being referenced again is never deleted.
 */
export class MediaService {
  constructor(
    private readonly store: MediaStore,
    private readonly db: Database,
  ) {}

  /** Checks and re-encodes the image a data URL carries as the given kind (the CPU work, outside any transaction). */
  async prepareImage(dataUrl: string, kind: ImageKind, field: string): Promise<PreparedImage> {
    return this.prepareImageBytes(decodeDataUrl(dataUrl, field), kind, field);
  }

  /** As prepareImage, from the image's bytes (someone elsewhere's avatar, fetched by modules/federation). */
  async prepareImageBytes(bytes: Buffer, kind: ImageKind, field: string): Promise<PreparedImage> {
    return prepared(await processImage(bytes, kind, field));
  }

  /** Stores prepared images within `tx`, which must then commit the rows that reference them. */
  async storeWithin(tx: Tx, images: PreparedImage[]): Promise<void> {
    for (const image of images) {
      await repo.lockMediaKey(tx, image.key);
      await this.store.put(image.key, image.bytes);
    }
  }

  /**
   * An image for a post: checked, re-encoded (with its preview and blurhash) and stored as an upload
   * of `ownerId`'s that waits for a post (`attachWithin`) for UPLOAD_TTL_MS.
   */
  async upload(ownerId: number, bytes: Buffer, alt: string, field: string): Promise<MediaAttachment> {
    const image = await processPostImage(bytes, field);
    const files = [prepared(image.full), prepared(image.preview)] as const;
    try {
      const row = await this.db.transaction(async (tx) => {
        await this.storeWithin(tx, [...files]);
        return repo.insertUpload(tx, {
          ownerId,
          key: files[0].key,
          previewKey: files[1].key,
          width: image.width,
          height: image.height,
          blurhash: image.blurhash,
          alt,
        });
      });
      return toMediaAttachment(row);
    } catch (error) {
      // Stored but not referenced (the owner was deleted meanwhile, the database failed): not kept.
      await this.collect(files.map((f) => f.url)).catch(() => {});
      throw error;
    }
  }

  /**
   * A link card's picture (modules/cards): checked and re-encoded as a post image is (JPEG, PNG or WebP
   * by its bytes, no metadata), kept at the preview's size (longest side LIMITS.postImagePreviewSide),
   * with its blurhash; stored with `storeWithin` in the transaction that gives the card it. Throws
   * AppError (UNSUPPORTED_IMAGE, IMAGE_TOO_LARGE) for what is not such an image.
   */
  async prepareCardImage(
    bytes: Buffer,
  ): Promise<{ image: PreparedImage; width: number; height: number; blurhash: string }> {
    const processed = await processPostImage(bytes, 'image');
    const meta = await sharp(processed.preview.bytes).metadata();
    return {
      image: prepared(processed.preview),
      width: meta.width ?? 0,
      height: meta.height ?? 0,
      blurhash: processed.blurhash,
    };
  }

  /** One of the member's uploads (the Mastodon API's media lookup, which apps poll after uploading). */
  async own(ownerId: number, id: number): Promise<MediaAttachment> {
    const row = await repo.findOwnUpload(this.db, ownerId, id);
    if (!row) throw notFound('No such upload.');
    return toMediaAttachment(row);
  }

  /** New alt text for an upload not yet in a post (the Mastodon API's media update). */
  async describe(ownerId: number, id: number, alt: string): Promise<MediaAttachment> {
    const row = await repo.describeUpload(this.db, ownerId, id, alt);
    if (!row) throw notFound('No such upload (or it is in a post already).');
    return toMediaAttachment(row);
  }

  /**
   * Puts uploads of `ownerId`'s into post `postId`, in this order, within the post's transaction.
   * An id that is not such an upload (unknown, someone else's, in a post already, expired) refuses
   * the whole post.
   */
  async attachWithin(
    tx: Tx,
    ownerId: number,
    postId: number,
    media: readonly { id: string; alt?: string | undefined }[],
  ): Promise<MediaAttachment[]> {
    const attached: MediaAttachment[] = [];
    for (const [position, item] of media.entries()) {
      const row = await repo.attachUpload(tx, { id: Number(item.id), ownerId, postId, position, alt: item.alt });
      if (!row) {
        throw invalid(
          'media',
          `Image ${position + 1} is not an upload of yours waiting for a post (uploads expire after a day): add it again.`,
        );
      }
      attached.push(toMediaAttachment(row));
    }
    return attached;
  }

  /** The files of a post's images, read before the post is deleted (its rows go with it) to `collect` after. */
  async postFilesWithin(tx: Tx, postId: number): Promise<string[]> {
    return (await repo.findPostFiles(tx, postId)).map(mediaUrl);
  }

  /** Deletes the uploads no post took within UPLOAD_TTL_MS of `now`, and their files; answers how many. */
  async expireUploads(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - UPLOAD_TTL_MS);
    let expired = 0;
    for (;;) {
      const files = await repo.deleteStaleUploads(this.db, before, SWEEP_BATCH);
      expired += files.length / 2;
      await this.collect(files.map(mediaUrl));
      if (files.length < SWEEP_BATCH * 2) return expired;
    }
  }

  /** Deletes the files behind these /media URLs that no row references any more. Idempotent. */
  async collect(urls: string[]): Promise<void> {
    for (const url of new Set(urls)) {
      const key = url.startsWith(MEDIA_PATH) ? url.slice(MEDIA_PATH.length) : '';
      if (!MEDIA_KEY_PATTERN.test(key)) continue;
      await this.db.transaction(async (tx) => {
        await repo.lockMediaKey(tx, key);
        if (!(await repo.isMediaReferenced(tx, key, url))) await this.store.delete(key);
      });
    }
  }

  /** A stored image by its file name (`<sha256>.<ext>`), or null. */
  async open(name: string): Promise<MediaFile | null> {
    if (!MEDIA_KEY_PATTERN.test(name)) return null;
    const stored = await this.store.open(name);
    if (!stored) return null;
    const [hash, ext] = name.split('.') as [string, Ext];
    return { ...stored, contentType: CONTENT_TYPES[ext], hash };
  }
}
