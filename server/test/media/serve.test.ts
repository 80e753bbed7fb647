import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FsMediaStore } from '../../src/modules/media/media.store.ts';
import { seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { dataUrl, filesUnder, photo } from './fixtures.ts';

describe('GET /media/<hash>.<ext>', () => {
  const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'pipit-media-serve-'));
  const ctx = useTestApp({ mediaDir });
  const get = (url: string, headers: Record<string, string> = {}) => new TestClient(ctx).get(url, { headers });

  async function uploaded(): Promise<string> {
    const { clients } = await seedTrio(ctx);
    const res = await clients.alice.patch('/api/edit', { profileImage: dataUrl(await photo(300, 300), 'image/jpeg') });
    return res.json().profileImage;
  }

  it.each([
    `/media/${'0'.repeat(64)}.jpg`,
    `/media/${'0'.repeat(64)}.png`,
    `/media/${'0'.repeat(64)}.gif`,
    '/media/nope.jpg',
    '/media/..%2F..%2F..%2Fetc%2Fpasswd',
    '/media/%2e%2e%2fauth-secret',
    '/media/',
  ])('404 NOT_FOUND as JSON for %s', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('answers the bytes that are stored, byte for byte, and HEAD without a body', async () => {
    const url = await uploaded();
    const file = filesUnder(mediaDir).find((f) => f.endsWith(url.slice(7)))!;
    const res = await get(url);
    expect(res.rawPayload.equals(readFileSync(file))).toBe(true);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");

    const head = await ctx.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/jpeg');
    expect(head.rawPayload.length).toBe(0);
  });

  it('lets Mastodon web apps on other origins load an avatar in CORS mode (crossorigin), without credentials', async () => {
    const url = await uploaded();
    const res = await get(url, { origin: 'https://phanpy.social', 'sec-fetch-mode': 'cors' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // A revalidation in CORS mode must be readable too.
    const again = await get(url, { origin: 'https://elk.zone', 'if-none-match': res.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.headers['access-control-allow-origin']).toBe('*');
  });

  it('304 Not Modified when the ETag matches', async () => {
    const url = await uploaded();
    const etag = (await get(url)).headers.etag as string;
    const again = await get(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect((await get(url, { 'if-none-match': `W/${etag}, "other"` })).statusCode).toBe(304);
    expect((await get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });
});

describe('FsMediaStore', () => {
  const key = `${'ab'.repeat(32)}.png`;

  it('puts once, reads back, and ignores a second put of the same key', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'pipit-media-store-'));
    const store = new FsMediaStore(root);
    await store.put(key, Buffer.from('first'));
    await store.put(key, Buffer.from('second'));
    const stored = await store.open(key);
    expect(stored!.size).toBe(5);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('first');
    expect(filesUnder(root)).toEqual([path.join(root, 'ab', key)]);
  });

  it('answers null for unknown or malformed keys and refuses to write outside its root', async () => {
    const store = new FsMediaStore(mkdtempSync(path.join(os.tmpdir(), 'pipit-media-store-')));
    expect(await store.open(key)).toBeNull();
    expect(await store.open('../../etc/passwd')).toBeNull();
    await expect(store.put('../escape.png', Buffer.from('x'))).rejects.toThrow(/invalid media key/);
  });
});
