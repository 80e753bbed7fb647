/**
 * Images in posts: POST /api/media (multipart, one image, optional alt text) answers an upload that a
 * post then takes by id. Each refusal is proven with its code, the stored files are checked (size,
 * preview, no metadata), and the files' lives: a post's delete and the sweep of uploads no post took
 * both delete what nothing else uses.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decode as decodeBlurhash, isBlurhashValid } from 'blurhash';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { insertUser, TestClient, useTestApp } from '../helpers/app.ts';
import { imageUpload, multipart } from '../helpers/multipart.ts';
import { fingerprint, queryRows } from '../security/support.ts';
import { hasGpsPointer, jpegWithGps, photo, transparentPng } from './fixtures.ts';

interface Attachment {
  id: string;
  url: string;
  previewUrl: string;
  width: number;
  height: number;
  blurhash: string;
  alt: string;
}

describe('images in posts', () => {
  const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'pipit-post-images-'));
  const ctx = useTestApp({ mediaDir });
  afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

  const fileOf = (url: string) => {
    const key = url.slice('/media/'.length);
    return path.join(mediaDir, key.slice(0, 2), key);
  };
  async function member(username: string) {
    const row = await insertUser(ctx.db, { username, email: `${username}@example.com` });
    return new TestClient(ctx).signInAs(row.id);
  }
  async function upload(client: TestClient, file: Buffer, alt?: string): Promise<Attachment> {
    const res = await client.upload(imageUpload(file, alt));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Attachment;
  }
  async function refused(client: TestClient, body: ReturnType<typeof multipart>, status: number, code: string) {
    const before = await fingerprint(ctx.db, mediaDir);
    const res = await client.upload(body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().code).toBe(code);
    expect(await fingerprint(ctx.db, mediaDir)).toEqual(before);
    return res.json() as { message: string; field?: string };
  }
  async function imageAt(client: TestClient, url: string) {
    const res = await client.get(url);
    expect(res.statusCode).toBe(200);
    return { bytes: res.rawPayload, meta: await sharp(res.rawPayload).metadata() };
  }

  it('stores an upload scaled to 2048 px with a 640 px preview, a blurhash and no metadata', async () => {
    const alice = await member('alice');
    const wide = await sharp(await photo(3000, 1000))
      .withExif({ IFD0: { Make: 'PipitCam' } })
      .jpeg()
      .toBuffer();
    const image = await upload(alice, wide, '  A yellow sun on blue  ');
    expect(image).toMatchObject({ width: 2048, height: 683, alt: 'A yellow sun on blue' });
    expect(image.id).toMatch(/^\d+$/);
    const full = await imageAt(alice, image.url);
    expect([full.meta.format, full.meta.width, full.meta.height]).toEqual(['jpeg', 2048, 683]);
    expect(full.meta.exif).toBeUndefined();
    const preview = await imageAt(alice, image.previewUrl);
    expect([preview.meta.width, preview.meta.height]).toEqual([640, 213]);
    expect(isBlurhashValid(image.blurhash).result).toBe(true);
    // The placeholder is the picture's colours: mostly the blue background.
    const [r, g, b] = decodeBlurhash(image.blurhash, 4, 4).slice(0, 3);
    expect(b).toBeGreaterThan(r as number);
    expect(b).toBeGreaterThan((g as number) - 40);

    // GPS gone too, and a small image is not enlarged.
    const gps = await upload(alice, await jpegWithGps(800, 600));
    expect([gps.width, gps.height]).toEqual([800, 600]);
    const stored = await imageAt(alice, gps.url);
    expect(hasGpsPointer(stored.meta.exif)).toBe(false);
    expect(stored.meta.exif).toBeUndefined();
  });

  it('takes WebP and PNG; transparency stays PNG, opaque pictures leave as JPEG', async () => {
    const alice = await member('alice');
    const webp = await upload(alice, await photo(400, 300, 'webp'));
    expect(webp.url).toMatch(/\.jpg$/);
    const clear = await upload(alice, await transparentPng(300, 200));
    expect(clear.url).toMatch(/\.png$/);
    expect(clear.previewUrl).toMatch(/\.png$/);
    const opaquePng = await upload(alice, await photo(300, 200, 'png'));
    expect(opaquePng.url).toMatch(/\.jpg$/);
  });

  it('refuses what is not a JPEG, PNG or WebP image, by its bytes, and says so', async () => {
    const alice = await member('alice');
    const gif = await refused(alice, imageUpload(await photo(40, 40, 'gif')), 400, 'UNSUPPORTED_IMAGE');
    expect(gif.message).toMatch(/GIF/);
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const fake = await refused(alice, imageUpload(html, undefined, 'cat.jpg'), 400, 'UNSUPPORTED_IMAGE');
    expect(fake.message).toMatch(/JPEG, PNG or WebP/);
    // A JPEG header on junk: decoding fails, nothing is stored.
    const junk = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);
    await refused(alice, imageUpload(junk), 400, 'UNSUPPORTED_IMAGE');
    // Truncated: the first half of a real JPEG.
    const real = await photo(200, 200);
    await refused(alice, imageUpload(real.subarray(0, real.length / 2)), 400, 'UNSUPPORTED_IMAGE');
  });

  it('refuses an animated image by name', async () => {
    const alice = await member('alice');
    const frame = (colour: string) =>
      sharp({ create: { width: 16, height: 16, channels: 3, background: colour } })
        .png()
        .toBuffer();
    const animated = await sharp([await frame('#f00'), await frame('#00f')], { join: { animated: true } })
      .webp({ loop: 0 })
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);
    const res = await refused(alice, imageUpload(animated), 400, 'UNSUPPORTED_IMAGE');
    expect(res.message).toMatch(/animated/);
  });

  it('refuses files past 10 MB and pixel floods before decoding them (413 IMAGE_TOO_LARGE)', async () => {
    const alice = await member('alice');
    const big = Buffer.concat([await photo(100, 100), Buffer.alloc(10 * 1024 * 1024)]);
    const tooBig = await refused(alice, imageUpload(big), 413, 'IMAGE_TOO_LARGE');
    expect(tooBig.message).toMatch(/10 MB/);
    // 5000 × 5000 = 25 M pixels, a few kilobytes of PNG: refused from its header.
    const flood = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const res = await refused(alice, imageUpload(flood), 413, 'IMAGE_TOO_LARGE');
    expect(res.message).toMatch(/5000×5000/);
  });

  it('refuses malformed uploads with a coded 4xx and stores nothing', async () => {
    const alice = await member('alice');
    const jpeg = await photo(50, 50);
    const noFile = await refused(alice, multipart([{ name: 'alt', value: 'nothing' }]), 400, 'INVALID_INPUT');
    expect(noFile.field).toBe('file');
    await refused(
      alice,
      multipart([
        { name: 'file', file: jpeg },
        { name: 'file', file: jpeg },
      ]),
      400,
      'INVALID_INPUT',
    );
    await refused(alice, multipart([{ name: 'picture', file: jpeg }]), 400, 'INVALID_INPUT');
    await refused(
      alice,
      multipart([
        { name: 'isAdmin', value: 'true' },
        { name: 'file', file: jpeg },
      ]),
      400,
      'INVALID_INPUT',
    );
    const longAlt = await refused(alice, imageUpload(jpeg, 'a'.repeat(1501)), 400, 'INVALID_INPUT');
    expect(longAlt.field).toBe('alt');
    expect(longAlt.message).toMatch(/1500/);
    await refused(alice, imageUpload(jpeg, 'bell\u0007'), 400, 'INVALID_INPUT');
    // Not multipart at all.
    const json = await alice.post('/api/media', { file: 'data:image/png;base64,AAAA' });
    expect(json.statusCode).toBe(415);
    expect(json.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    // A broken multipart body.
    const broken = await alice.request('POST', '/api/media', '--x\r\nContent-Disposition: form-data; name="file"', {
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe('INVALID_INPUT');
    // Visitors cannot upload.
    const visitor = await new TestClient(ctx).withCsrf().upload(imageUpload(jpeg));
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().code).toBe('UNAUTHENTICATED');
  });

  it('a post takes up to four uploads in order, with alt text, and shows them everywhere', async () => {
    const alice = await member('alice');
    const first = await upload(alice, await photo(300, 200), 'first');
    const second = await upload(alice, await photo(200, 300, 'png'));
    const res = await alice.post('/api/posts', {
      text: 'two pictures',
      media: [{ id: second.id, alt: 'second, described when posting' }, { id: first.id }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const post = res.json();
    expect(post.media.map((m: Attachment) => [m.id, m.alt])).toEqual([
      [second.id, 'second, described when posting'],
      [first.id, 'first'],
    ]);
    for (const url of [`/api/posts/${post.id}`, '/api/timeline/everyone', `/api/users/${post.author.id}/posts`]) {
      const body = (await alice.get(url)).json();
      const seen = 'items' in body ? body.items[0] : body;
      expect(seen.media, url).toEqual(post.media);
    }
    // A post without images has none.
    const plain = (await alice.post('/api/posts', { text: 'words only' })).json();
    expect(plain.media).toEqual([]);
    expect((await alice.get(`/api/posts/${plain.id}`)).json().media).toEqual([]);
  });

  it('a post may be images only, but not empty', async () => {
    const alice = await member('alice');
    const image = await upload(alice, await photo(100, 100));
    const res = await alice.post('/api/posts', { text: '   ', media: [{ id: image.id }] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ text: '', media: [{ id: image.id }] });
    const empty = await alice.post('/api/posts', { text: '', media: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'text',
      message: 'text: Post must not be empty',
    });
  });

  it("refuses a fifth image, a repeated one, someone else's, one already posted and an unknown id; nothing is written", async () => {
    const alice = await member('alice');
    const bob = await member('bob');
    const uploads: Attachment[] = [];
    for (let i = 0; i < 5; i++) uploads.push(await upload(alice, await photo(40 + i, 40)));
    const bobs = await upload(bob, await photo(30, 30));
    const posted = await upload(alice, await photo(31, 31));
    expect((await alice.post('/api/posts', { text: 'once', media: [{ id: posted.id }] })).statusCode).toBe(201);

    const cases: [string, unknown, RegExp][] = [
      ['five images', uploads.map((u) => ({ id: u.id })), /at most 4 images/],
      ['the same image twice', [{ id: uploads[0]!.id }, { id: uploads[0]!.id }], /once/],
      ["bob's upload", [{ id: uploads[0]!.id }, { id: bobs.id }], /Image 2 is not an upload of yours/],
      ['an image already in a post', [{ id: posted.id }], /Image 1 is not an upload of yours/],
      ['an unknown id', [{ id: '999999' }], /not an upload of yours/],
      ['alt text too long', [{ id: uploads[0]!.id, alt: 'x'.repeat(1501) }], /1500/],
      ['an extra field', [{ id: uploads[0]!.id, url: '/media/x' }], /./],
    ];
    for (const [what, media, message] of cases) {
      const before = await fingerprint(ctx.db, mediaDir);
      const res = await alice.post('/api/posts', { text: 'hi', media });
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json().code, what).toBe('INVALID_INPUT');
      expect(res.json().message, what).toMatch(message);
      expect(await fingerprint(ctx.db, mediaDir), what).toEqual(before);
    }
    // The uploads are still there for a post that gets it right.
    const ok = await alice.post('/api/posts', { text: 'four', media: uploads.slice(0, 4).map((u) => ({ id: u.id })) });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('deleting a post deletes its images and the files nothing else uses', async () => {
    const alice = await member('alice');
    const bob = await member('bob');
    const picture = await photo(120, 80);
    const hers = await upload(alice, picture);
    const his = await upload(bob, picture); // the same bytes: the same files
    expect(his.url).toBe(hers.url);
    const other = await upload(alice, await photo(90, 60));
    const post = (await alice.post('/api/posts', { text: 'x', media: [{ id: hers.id }, { id: other.id }] })).json();
    expect((await alice.delete(`/api/posts/${post.id}`)).statusCode).toBe(204);
    await ctx.app.services.jobs.drain();
    expect(await queryRows(ctx.db, `SELECT id FROM media_attachments WHERE id IN (${hers.id}, ${other.id})`)).toEqual(
      [],
    );
    // Bob's upload still uses the shared files; the other picture's are gone.
    expect(existsSync(fileOf(hers.url))).toBe(true);
    expect(existsSync(fileOf(hers.previewUrl))).toBe(true);
    expect(existsSync(fileOf(other.url))).toBe(false);
    expect(existsSync(fileOf(other.previewUrl))).toBe(false);
  });

  it('uploads no post took are deleted after a day, with their files; the rest stay', async () => {
    const alice = await member('alice');
    const stale = await upload(alice, await photo(70, 70));
    const fresh = await upload(alice, await photo(71, 71));
    const usedEarly = await upload(alice, await photo(72, 72));
    await alice.post('/api/posts', { text: 'posted', media: [{ id: usedEarly.id }] });
    await queryRows(
      ctx.db,
      `UPDATE media_attachments SET created_at = now() - interval '25 hours' WHERE id IN (${stale.id}, ${usedEarly.id})`,
    );
    expect(await ctx.app.services.media.expireUploads()).toBe(1);
    const left = await queryRows(ctx.db, 'SELECT id::text AS id FROM media_attachments ORDER BY id');
    expect(left.map((r) => r.id)).toEqual([fresh.id, usedEarly.id]);
    expect(existsSync(fileOf(stale.url))).toBe(false);
    expect(existsSync(fileOf(stale.previewUrl))).toBe(false);
    expect(existsSync(fileOf(fresh.url))).toBe(true);
    // An expired upload can no longer be posted.
    const late = await alice.post('/api/posts', { text: 'late', media: [{ id: stale.id }] });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toMatch(/expire/);
  });
});
