import { createHash } from 'node:crypto';
import { LIMITS } from '@pipit/contract';
import sharp, { type Metadata } from 'sharp';
import type { Database, Tx } from '../../db/client.ts';
import { AppError, invalid } from '../../lib/errors.ts';
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

const unsupported = (field: string) =>
  new AppError('UNSUPPORTED_IMAGE', `${field} must be a JPEG or PNG image (checked by its bytes).`, field);
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

/** JPEG or PNG by magic number, or null. */
export function sniffImage(bytes: Buffer): Ext | null {
  if (bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) return 'png';
  if (bytes.subarray(0, JPEG_MAGIC.length).equals(JPEG_MAGIC)) return 'jpg';
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
 * Checks and re-encodes one uploaded image: JPEG or PNG by its bytes, at most
 * LIMITS.imageMaxPixels as its header declares (read before any pixel is decoded), auto-rotated,
 * cropped to the kind's size, and written anew without any metadata (EXIF, GPS, XMP, ICC).
 */
export async function processImage(input: Buffer, kind: ImageKind, field: string): Promise<ProcessedImage> {
  const sniffed = sniffImage(input);
  if (!sniffed) throw unsupported(field);

  let meta: Metadata;
  try {
    // Header only: no pixel is decoded here, so a pixel flood costs nothing yet.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw unsupported(field);
  }
  if (meta.format !== (sniffed === 'png' ? 'png' : 'jpeg') || !meta.width || !meta.height) throw unsupported(field);
  if (meta.width * meta.height > LIMITS.imageMaxPixels) {
    throw tooLarge(
      field,
      `${field} is ${meta.width}×${meta.height} pixels; at most ${LIMITS.imageMaxPixels} pixels are accepted.`,
    );
  }

  const { width, height } = IMAGE_SIZES[kind];
  try {
    return await gate.run(async () => {
      const resized = sharp(input, { limitInputPixels: LIMITS.imageMaxPixels, failOn: 'warning' })
        .rotate() // applies the EXIF orientation, which is dropped with the rest of the metadata
        .resize(width, height, { fit: 'cover', position: 'centre' })
        .toColourspace('srgb');
      if (!meta.hasAlpha) return { bytes: await resized.jpeg(JPEG_OPTIONS).toBuffer(), ext: 'jpg' as const };

      // Decode once to raw RGBA, then keep PNG only if some pixel is not fully opaque.
      const { data, info } = await resized.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
      if (info.channels === 4 && isOpaque(data)) {
        return { bytes: await sharp(data, raw).removeAlpha().jpeg(JPEG_OPTIONS).toBuffer(), ext: 'jpg' as const };
      }
      return { bytes: await sharp(data, raw).png(PNG_OPTIONS).toBuffer(), ext: 'png' as const };
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Truncated or corrupt pixel data, or anything libvips refuses to decode.
    throw unsupported(field);
  }
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
    const image = await processImage(decodeDataUrl(dataUrl, field), kind, field);
    const key = `${createHash('sha256').update(image.bytes).digest('hex')}.${image.ext}`;
    return { key, url: mediaUrl(key), bytes: image.bytes };
  }

  /** Stores prepared images within `tx`, which must then commit the rows that reference them. */
  async storeWithin(tx: Tx, images: PreparedImage[]): Promise<void> {
    for (const image of images) {
      await repo.lockMediaKey(tx, image.key);
      await this.store.put(image.key, image.bytes);
    }
  }

  /** Deletes the files behind these /media URLs that no row references any more. Idempotent. */
  async collect(urls: string[]): Promise<void> {
    for (const url of new Set(urls)) {
      const key = url.startsWith(MEDIA_PATH) ? url.slice(MEDIA_PATH.length) : '';
      if (!MEDIA_KEY_PATTERN.test(key)) continue;
      await this.db.transaction(async (tx) => {
        await repo.lockMediaKey(tx, key);
        if (!(await repo.isMediaReferenced(tx, url))) await this.store.delete(key);
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
