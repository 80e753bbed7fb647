import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../../config.ts';

/** `<sha256 hex>.<jpg|png>`: the only names a store holds, so a key can never walk out of it. */
export const MEDIA_KEY_PATTERN = /^[0-9a-f]{64}\.(jpg|png)$/;

export interface StoredMedia {
  body: Readable;
  size: number;
}

/**
 * Where image bytes live. Keys are content hashes, so a key always names the same bytes: `put` of a
 * key already stored is a no-op, and nothing is ever overwritten. An S3-compatible store can replace
 * the filesystem one by implementing these two calls.
 */
export interface MediaStore {
  put(key: string, bytes: Buffer): Promise<void>;
  /** The stored bytes as a stream, or null when the key is unknown. */
  open(key: string): Promise<StoredMedia | null>;
  /** Removes the bytes; an unknown key is not an error. */
  delete(key: string): Promise<void>;
}

/** Files under `root/<first two hex digits>/<key>`, so no directory grows past a few thousand entries. */
export class FsMediaStore implements MediaStore {
  constructor(private readonly root: string) {}

  private fileOf(key: string): string {
    if (!MEDIA_KEY_PATTERN.test(key)) throw new Error(`invalid media key: ${key}`);
    return path.join(this.root, key.slice(0, 2), key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.fileOf(key);
    if (await exists(file)) return;
    await mkdir(path.dirname(file), { recursive: true });
    // Write aside, then rename: a reader never sees half a file, and two writers of the same key
    // both rename identical bytes into place.
    const temp = `${file}.${randomUUID()}.tmp`;
    try {
      await writeFile(temp, bytes, { mode: 0o644 });
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.fileOf(key), { force: true });
  }

  async open(key: string): Promise<StoredMedia | null> {
    if (!MEDIA_KEY_PATTERN.test(key)) return null;
    const file = this.fileOf(key);
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      return { body: createReadStream(file), size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The store the config names (files under MEDIA_DIR today). */
export function createMediaStore(config: Pick<Config, 'mediaDir'>): MediaStore {
  return new FsMediaStore(config.mediaDir);
}
