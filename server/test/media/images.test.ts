import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { sharpRuns } from '../helpers/counted-sharp.ts';
import {
  dataUrl,
  filesUnder,
  hasGpsPointer,
  jpegClaiming,
  jpegWithGps,
  PNG_SIGNATURE,
  photo,
  pngClaiming,
  transparentPng,
} from './fixtures.ts';

vi.mock('sharp', () => import('../helpers/counted-sharp.ts'));

const MEDIA_URL = /^\/media\/[0-9a-f]{64}\.(jpg|png)$/;
const FIVE_MB = 5 * 1024 * 1024;

describe('profile and cover images', () => {
  const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'pipit-media-test-'));
  const ctx = useTestApp({ mediaDir });

  /** GETs a /media URL and answers the response with its bytes. */
  const fetchMedia = (url: string) => new TestClient(ctx).get(url);

  it('stores an avatar as a 400×400 JPEG and serves it with immutable caching', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const res = await clients.alice.patch('/api/edit', { profileImage: dataUrl(await photo(900, 600), 'image/jpeg') });
    expect(res.statusCode).toBe(200);
    const url = res.json().profileImage as string;
    expect(url).toMatch(MEDIA_URL);
    expect(url.endsWith('.jpg')).toBe(true);

    const image = await fetchMedia(url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Public pictures: Mastodon web apps on other origins (Elk, Phanpy) show them too.
    expect(image.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(image.headers.etag).toBe(`"${url.slice(7, 71)}"`);
    expect(Number(image.headers['content-length'])).toBe(image.rawPayload.length);
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 400, 400]);

    // User objects carry the /media URL, never a data URL.
    for (const body of [
      (await clients.alice.get('/api/current')).json(),
      (await new TestClient(ctx).get(`/api/users/${alice.id}`)).json(),
      (await clients.bob.get('/api/users')).json().find((u: { id: string }) => u.id === String(alice.id)),
    ]) {
      expect(body.profileImage).toBe(url);
    }
  });

  it('stores a cover as 1500×500, cropped to fill', async () => {
    const { clients } = await seedTrio(ctx);
    const res = await clients.alice.patch('/api/edit', { coverImage: dataUrl(await photo(600, 600, 'png')) });
    expect(res.statusCode).toBe(200);
    const cover = res.json().coverImage as string;
    expect(cover).toMatch(MEDIA_URL);
    const meta = await sharp((await fetchMedia(cover)).rawPayload).metadata();
    // An opaque PNG is a photo like any other: it leaves as JPEG.
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1500, 500]);
  });

  it('keeps transparency: a PNG that uses alpha stays PNG', async () => {
    const { clients } = await seedTrio(ctx);
    const res = await clients.alice.patch('/api/edit', { profileImage: dataUrl(await transparentPng(300, 300)) });
    const url = res.json().profileImage as string;
    expect(url.endsWith('.png')).toBe(true);
    const image = await fetchMedia(url);
    expect(image.headers['content-type']).toBe('image/png');
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 400, 400, true]);
  });

  it('strips EXIF, GPS included', async () => {
    const input = await jpegWithGps();
    const inputMeta = await sharp(input).metadata();
    expect(hasGpsPointer(inputMeta.exif)).toBe(true); // the fixture really carries a position

    const { clients } = await seedTrio(ctx);
    const res = await clients.alice.patch('/api/edit', { profileImage: dataUrl(input, 'image/jpeg') });
    const output = (await fetchMedia(res.json().profileImage)).rawPayload;
    const meta = await sharp(output).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(output.includes(Buffer.from('Exif'))).toBe(false);
    expect(output.includes(Buffer.from('PipitCam'))).toBe(false);
  });

  it('trusts the bytes, not the declared type', async () => {
    const { clients } = await seedTrio(ctx);
    const jpegAsPng = dataUrl(await photo(100, 100, 'jpeg'), 'image/png');
    const res = await clients.alice.patch('/api/edit', { profileImage: jpegAsPng });
    expect(res.statusCode).toBe(200);
    expect(res.json().profileImage).toMatch(/\.jpg$/);
  });

  it('stores one image once, whoever uploads it and however often', async () => {
    const { clients } = await seedTrio(ctx);
    const image = dataUrl(await photo(500, 500, 'jpeg'), 'image/jpeg');
    const a = (await clients.alice.patch('/api/edit', { profileImage: image })).json().profileImage as string;
    const b = (await clients.bob.patch('/api/edit', { profileImage: image })).json().profileImage as string;
    const c = (await clients.alice.patch('/api/edit', { profileImage: image })).json().profileImage as string;
    expect(b).toBe(a);
    expect(c).toBe(a);
    const hash = a.slice(7, 71);
    expect(filesUnder(mediaDir).filter((f) => f.includes(hash))).toHaveLength(1);
    expect(filesUnder(mediaDir).some((f) => f.endsWith('.tmp'))).toBe(false);
  });

  it('the current URL keeps the image (relative or absolute); null removes it', async () => {
    const { clients } = await seedTrio(ctx);
    const first = await clients.alice.patch('/api/edit', {
      profileImage: dataUrl(await photo(200, 200), 'image/jpeg'),
      coverImage: dataUrl(await photo(1600, 600), 'image/jpeg'),
    });
    const { profileImage, coverImage } = first.json();
    expect(profileImage).toMatch(MEDIA_URL);
    expect(coverImage).toMatch(MEDIA_URL);

    const same = await clients.alice.patch('/api/edit', { name: 'Alice', profileImage, coverImage });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ profileImage, coverImage });

    const absolute = await clients.alice.patch('/api/edit', { profileImage: `${ctx.config.publicUrl}${profileImage}` });
    expect(absolute.json().profileImage).toBe(profileImage);

    // Someone else's image URL is not "unchanged".
    const theft = await clients.bob.patch('/api/edit', { profileImage });
    expect(theft.statusCode).toBe(400);
    expect(theft.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'profileImage' });

    const removed = await clients.alice.patch('/api/edit', { profileImage: null });
    expect(removed.json()).toMatchObject({ profileImage: null, coverImage });
    const both = await clients.alice.patch('/api/edit', { coverImage: null, profileImage: null });
    expect(both.json()).toMatchObject({ profileImage: null, coverImage: null });
    // Nobody uses the removed images any more: their files are collected (test/media/collect.test.ts).
    await ctx.app.services.jobs.drain();
    expect((await fetchMedia(profileImage)).statusCode).toBe(404);
  });

  describe('refused images leave the profile as it was', () => {
    const html = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const cases: Array<[string, () => Promise<string> | string, string, string]> = [
      ['HTML bytes in a PNG data URL', () => dataUrl(html, 'image/png'), 'UNSUPPORTED_IMAGE', 'profileImage'],
      [
        'a PNG signature followed by junk',
        () => dataUrl(Buffer.concat([PNG_SIGNATURE, Buffer.from('junk'.repeat(100))])),
        'UNSUPPORTED_IMAGE',
        'profileImage',
      ],
      ['a GIF', async () => dataUrl(await photo(50, 50, 'gif'), 'image/gif'), 'UNSUPPORTED_IMAGE', 'profileImage'],
      ['a GIF declared as PNG', async () => dataUrl(await photo(50, 50, 'gif')), 'UNSUPPORTED_IMAGE', 'profileImage'],
      ['an SVG', () => dataUrl(svg, 'image/svg+xml'), 'UNSUPPORTED_IMAGE', 'profileImage'],
      ['a WebP', async () => dataUrl(await photo(50, 50, 'webp'), 'image/webp'), 'UNSUPPORTED_IMAGE', 'profileImage'],
      [
        'a truncated JPEG',
        async () => {
          const jpeg = await photo(800, 800, 'jpeg');
          return dataUrl(jpeg.subarray(0, jpeg.length >> 1), 'image/jpeg');
        },
        'UNSUPPORTED_IMAGE',
        'profileImage',
      ],
      ['an empty data URL', () => 'data:image/png;base64,', 'UNSUPPORTED_IMAGE', 'profileImage'],
      [
        'a data URL that is not base64',
        () => 'data:image/svg+xml,%3Csvg%3E%3C/svg%3E',
        'INVALID_INPUT',
        'profileImage',
      ],
      ['a data URL with invalid base64', () => 'data:image/png;base64,iVBO*w0K!!', 'INVALID_INPUT', 'profileImage'],
      ['a data URL without a comma', () => 'data:image/png;base64', 'INVALID_INPUT', 'profileImage'],
    ];
    it.each(cases)('%s → 400 %s', async (_label, make, code, field) => {
      const { clients } = await seedTrio(ctx);
      const res = await clients.alice.patch('/api/edit', { name: 'Not applied', profileImage: await make() });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code, field });
      expect((await clients.alice.get('/api/current')).json()).toMatchObject({ name: 'Alice', profileImage: null });
    });

    it('the cover field is checked the same way', async () => {
      const { clients } = await seedTrio(ctx);
      const res = await clients.alice.patch('/api/edit', { coverImage: dataUrl(html, 'image/jpeg') });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_IMAGE', field: 'coverImage' });
    });

    it('a bad cover keeps a good avatar from being applied', async () => {
      const { clients } = await seedTrio(ctx);
      const res = await clients.alice.patch('/api/edit', {
        profileImage: dataUrl(await photo(100, 100), 'image/jpeg'),
        coverImage: 'https://example.com/cover.png',
      });
      expect(res.statusCode).toBe(400);
      expect((await clients.alice.get('/api/current')).json().profileImage).toBeNull();
    });
  });

  describe('size limits', () => {
    it('413 IMAGE_TOO_LARGE past 5 MB decoded, before decoding', async () => {
      const { clients } = await seedTrio(ctx);
      const justOver = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(FIVE_MB + 1 - PNG_SIGNATURE.length, 7)]);
      const res = await clients.alice.patch('/api/edit', { profileImage: dataUrl(justOver) });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ code: 'IMAGE_TOO_LARGE', field: 'profileImage' });

      // Far over (a 10 MB data URL) is the same answer, not a schema error.
      const farOver = `data:image/jpeg;base64,${'A'.repeat(10 * 1024 * 1024)}`;
      const far = await clients.alice.patch('/api/edit', { coverImage: farOver });
      expect(far.statusCode).toBe(413);
      expect(far.json()).toMatchObject({ code: 'IMAGE_TOO_LARGE', field: 'coverImage' });
    });

    it('accepts a real photo just under 5 MB', async () => {
      // Noise does not compress: ~4.5 MB of PNG.
      const side = 1200;
      const noise = Buffer.alloc(side * side * 3);
      for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
      const png = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(png.length).toBeGreaterThan(4 * 1024 * 1024);
      expect(png.length).toBeLessThanOrEqual(FIVE_MB);
      const { clients } = await seedTrio(ctx);
      const runsBefore = sharpRuns.count;
      const res = await clients.alice.patch('/api/edit', { coverImage: dataUrl(png) });
      expect(res.statusCode).toBe(200);
      expect(res.json().coverImage).toMatch(MEDIA_URL);
      // The count the pixel-flood tests below rely on sees a real decode.
      expect(sharpRuns.count).toBeGreaterThan(runsBefore);
    });

    it.each([
      ['PNG', async () => dataUrl(pngClaiming(64_250, 64_250))],
      ['JPEG', async () => dataUrl(await jpegClaiming(64_250, 64_250), 'image/jpeg')],
      ['PNG of 4097×4096 (one row past the limit)', async () => dataUrl(pngClaiming(4097, 4096))],
    ])('413 IMAGE_TOO_LARGE for a pixel flood (%s), from the header alone, no pixel decoded', async (_label, make) => {
      const { clients } = await seedTrio(ctx);
      const body = { profileImage: await make() };
      const runsBefore = sharpRuns.count;
      const res = await clients.alice.patch('/api/edit', body);
      // Decoding 64,250² pixels would take minutes (or all memory): the header alone answers, so
      // not one image pipeline runs (counted, not timed).
      expect(sharpRuns.count - runsBefore).toBe(0);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ code: 'IMAGE_TOO_LARGE', field: 'profileImage' });
    });
  });
});
