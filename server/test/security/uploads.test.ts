/**
 * Item 5, the gaps left by test/media/images.test.ts (which proves each fake image — HTML renamed
 * .png, PNG header + junk, SVG, GIF, WebP, truncated JPEG — is refused with its code, 5 MB and
 * pixel floods are 413 from the header, and EXIF/GPS are stripped from one JPEG):
 * - the whole hostile batch is refused before any pixel is decoded (image pipelines counted) and
 *   the server's memory does not jump (peak RSS sampled while each request runs, from a collected heap);
 * - more than one file in a field (arrays, two data URLs in one string, objects, multipart with two
 *   files) is refused and stores nothing;
 * - after uploads carrying EXIF, GPS, XMP, ICC, comments and PNG text chunks, no file in the media
 *   directory carries any of it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { sharpRuns } from '../helpers/counted-sharp.ts';
import { dataUrl, jpegWithGps, PNG_SIGNATURE, photo } from '../media/fixtures.ts';
import { expectCodedClientError, fingerprint } from './support.ts';

vi.mock('sharp', () => import('../helpers/counted-sharp.ts'));

const mediaDir = mkdtempSync(path.join(tmpdir(), 'pipit-security-media-'));

/** A PNG whose IHDR claims width × height (valid CRC), followed by a tiny IDAT. */
function pngHeaderClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 3, 0, 0, 0, 0, 1])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A baseline JPEG whose SOF0 claims width × height, with no real scan data. */
function jpegHeaderClaiming(width: number, height: number): Buffer {
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.from([0xff, 0xd9])]);
}

/** global.gc, from --expose-gc (vitest.config.ts): a measure of memory starts from a collected heap. */
const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Runs `task` from a collected heap, sampling this process's RSS meanwhile: answers the peak growth
 * and how many image pipelines ran. Sampling can only miss a peak (a busy machine makes the bound
 * looser, never failing); collecting first keeps the last case's garbage out of this one's growth.
 */
async function measured<T>(task: () => Promise<T>): Promise<{ result: T; growthMb: number; runs: number }> {
  if (!gc) throw new Error('run with --expose-gc (vitest.config.ts execArgv)');
  gc();
  const base = process.memoryUsage().rss;
  const runsBefore = sharpRuns.count;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  try {
    const result = await task();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - base) / 1024 / 1024, runs: sharpRuns.count - runsBefore };
  } finally {
    clearInterval(timer);
  }
}

describe('uploads', () => {
  const ctx = useTestApp({ mediaDir });

  it('hostile images are refused with a clear code, no pixel decoded, without the memory jumping', async () => {
    const { clients } = await seedTrio(ctx);
    const html = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
    const cases: [string, string, number][] = [
      ['HTML renamed .png', dataUrl(html, 'image/png'), 400],
      ['a script renamed .png', dataUrl(Buffer.from('#!/bin/sh\nrm -rf /\n'), 'image/png'), 400],
      ['PNG signature + junk', dataUrl(Buffer.concat([PNG_SIGNATURE, Buffer.alloc(4096, 0x41)])), 400],
      ['SVG', dataUrl('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'image/svg+xml'), 400],
      ['GIF', dataUrl(await photo(40, 40, 'gif'), 'image/gif'), 400],
      ['JPEG claiming 64,250 × 64,250', dataUrl(jpegHeaderClaiming(64_250, 64_250), 'image/jpeg'), 413],
      ['PNG claiming 64,250 × 64,250', dataUrl(pngHeaderClaiming(64_250, 64_250)), 413],
      ['PNG claiming 2³¹ × 2³¹', dataUrl(pngHeaderClaiming(0x7fffffff, 0x7fffffff)), 400],
      ['over 5 MB', dataUrl(Buffer.concat([PNG_SIGNATURE, Buffer.alloc(5 * 1024 * 1024 + 1, 7)])), 413],
    ];
    const before = await fingerprint(ctx.db, mediaDir);
    for (const [what, image, status] of cases) {
      for (const field of ['profileImage', 'coverImage']) {
        const body = JSON.stringify({ [field]: image });
        const {
          result: res,
          growthMb,
          runs,
        } = await measured(() =>
          clients.alice.patch('/api/edit', body, { headers: { 'content-type': 'application/json' } }),
        );
        const where = `${what} as ${field}`;
        expect([status, 400, 413], `${where}: ${res.body}`).toContain(res.statusCode);
        const code = expectCodedClientError(res, where);
        expect(['UNSUPPORTED_IMAGE', 'IMAGE_TOO_LARGE', 'INVALID_INPUT'], where).toContain(code);
        expect(res.json().field, where).toBe(field);
        // Refused from the bytes or the header: not one image pipeline ran (counted, not timed).
        expect(runs, `${where}: image pipelines run`).toBe(0);
        // Decoding a pixel flood would take gigabytes; the request body itself is at most ~7 MB of text.
        expect(growthMb, `${where}: RSS grew ${growthMb.toFixed(0)} MB`).toBeLessThan(120);
      }
    }
    expect(await fingerprint(ctx.db, mediaDir)).toEqual(before);
  });

  it('more than one file is refused and nothing is stored', async () => {
    const { clients } = await seedTrio(ctx);
    const one = dataUrl(await photo(60, 60, 'jpeg'), 'image/jpeg');
    const before = await fingerprint(ctx.db, mediaDir);
    const bodies: [string, unknown][] = [
      ['an array of two', { profileImage: [one, one] }],
      ['an array of one', { profileImage: [one] }],
      ['two data URLs in one string', { profileImage: `${one}${one}` }],
      ['two data URLs separated by a comma', { profileImage: `${one},${one}` }],
      ['an object of files', { profileImage: { 0: one, 1: one } }],
    ];
    for (const [what, body] of bodies) {
      const res = await clients.alice.patch('/api/edit', body);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expectCodedClientError(res, what);
    }
    const boundary = 'pipitfiles';
    const part = (name: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n${one}\r\n`;
    const multipart = await clients.alice.patch(
      '/api/edit',
      `${part('profileImage')}${part('profileImage')}--${boundary}--\r\n`,
      {
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      },
    );
    expect(multipart.statusCode).toBe(415);
    expectCodedClientError(multipart, 'multipart with two files');
    expect(await fingerprint(ctx.db, mediaDir)).toEqual(before);
  });

  it('no stored image carries EXIF, GPS, XMP, IPTC, ICC, comments or text chunks', async () => {
    const xmp =
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>PipitSpy</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>';
    const exif = {
      IFD0: { Make: 'PipitCam', Model: 'Spy 1', ImageDescription: 'PipitSecret' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2412/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 4020/100',
      },
    };
    const base = () =>
      sharp({ create: { width: 640, height: 480, channels: 4, background: { r: 200, g: 30, b: 90, alpha: 0.5 } } });
    const uploads: [string, Buffer, string][] = [
      ['JPEG with EXIF and GPS', await jpegWithGps(), 'image/jpeg'],
      [
        'JPEG with EXIF, XMP and an ICC profile',
        await base().flatten().jpeg().withExif(exif).withXmp(xmp).withIccProfile('p3').toBuffer(),
        'image/jpeg',
      ],
      [
        'PNG with EXIF and XMP (transparent: stays PNG)',
        await base().png().withExif(exif).withXmp(xmp).toBuffer(),
        'image/png',
      ],
      ['opaque PNG with EXIF (becomes JPEG)', await base().flatten().png().withExif(exif).toBuffer(), 'image/png'],
    ];
    // Each upload goes to a person of its own, so no stored file is replaced (and collected) before it is read.
    const files: string[] = [];
    for (const [i, [what, bytes, type]] of uploads.entries()) {
      const carried = bytes.includes(Buffer.from('PipitCam')) || bytes.includes(Buffer.from('PipitSpy'));
      expect(carried, `${what}: the fixture really carries metadata`).toBe(true);
      const owner = await insertUser(ctx.db, { username: `meta${i}`, email: `meta${i}@example.com` });
      const client = await new TestClient(ctx).signInAs(owner.id);
      for (const field of ['profileImage', 'coverImage'] as const) {
        const res = await client.patch('/api/edit', { [field]: dataUrl(bytes, type) });
        expect(res.statusCode, `${what} as ${field}: ${res.body}`).toBe(200);
        const url = (res.json() as Record<typeof field, string>)[field];
        const key = url.slice('/media/'.length);
        files.push(path.join(mediaDir, key.slice(0, 2), key));
      }
    }
    for (const file of files) {
      const bytes = readFileSync(file);
      const meta = await sharp(bytes).metadata();
      expect(['jpeg', 'png'], file).toContain(meta.format);
      expect(meta.exif, `${file}: EXIF`).toBeUndefined();
      expect(meta.xmp, `${file}: XMP`).toBeUndefined();
      expect(meta.iptc, `${file}: IPTC`).toBeUndefined();
      expect(meta.icc, `${file}: ICC`).toBeUndefined();
      expect(meta.comments ?? [], `${file}: comments`).toEqual([]);
      for (const marker of [
        'Exif\0\0',
        'PipitCam',
        'PipitSpy',
        'PipitSecret',
        'http://ns.adobe.com/xap',
        'tEXt',
        'iTXt',
        'zTXt',
        'eXIf',
      ]) {
        expect(bytes.includes(Buffer.from(marker, 'latin1')), `${file} contains ${JSON.stringify(marker)}`).toBe(false);
      }
    }
  });
});
