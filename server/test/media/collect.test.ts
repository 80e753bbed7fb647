/**
 * Replaced and removed avatars and covers are deleted once nothing references them (a background
 * job after the edit commits), so storage stays flat however often someone changes their picture;
 * a file that another person uses, or that a concurrent upload of the same bytes is referencing, stays.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { insertUser, TestClient, useTestApp } from '../helpers/app.ts';
import { dataUrl, filesUnder } from './fixtures.ts';

/** A distinct small PNG per seed: every upload is new content. */
const picture = async (seed: number) =>
  dataUrl(
    await sharp({
      create: { width: 16, height: 16, channels: 3, background: { r: seed % 256, g: (seed >> 8) % 256, b: 99 } },
    })
      .png()
      .toBuffer(),
  );

describe('collecting media nothing references', () => {
  const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'pipit-media-collect-'));
  const ctx = useTestApp({ mediaDir });
  afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

  const fileOf = (url: string) =>
    path.join(mediaDir, url.slice('/media/'.length, '/media/'.length + 2), url.slice('/media/'.length));
  async function member(username: string) {
    const row = await insertUser(ctx.db, { username, email: `${username}@example.com` });
    return new TestClient(ctx).signInAs(row.id);
  }
  async function edit(client: TestClient, body: Record<string, unknown>) {
    const res = await client.patch('/api/edit', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { profileImage: string | null; coverImage: string | null };
  }

  it('storage stays flat over 100 avatar replacements: only the current file is left', async () => {
    rmSync(mediaDir, { recursive: true, force: true });
    const alice = await member('alice');
    let current = '';
    for (let i = 0; i < 100; i++) current = (await edit(alice, { profileImage: await picture(i + 1) })).profileImage!;
    await ctx.app.services.jobs.drain();
    expect(filesUnder(mediaDir).filter((f) => !f.endsWith('.tmp'))).toEqual([fileOf(current)]);
    // And the current one is served.
    expect((await alice.get(current)).statusCode).toBe(200);
  });

  it('removing an image (null) deletes its file; a cover and an avatar are collected alike', async () => {
    const bob = await member('bob');
    const set = await edit(bob, { profileImage: await picture(500), coverImage: await picture(501) });
    await edit(bob, { profileImage: null, coverImage: null });
    await ctx.app.services.jobs.drain();
    expect(existsSync(fileOf(set.profileImage!))).toBe(false);
    expect(existsSync(fileOf(set.coverImage!))).toBe(false);
  });

  it('a file another person still uses is kept until nobody does', async () => {
    const carol = await member('carol');
    const dave = await member('dave');
    const shared = await picture(600);
    const url = (await edit(carol, { profileImage: shared })).profileImage!;
    expect((await edit(dave, { profileImage: shared })).profileImage).toBe(url); // same bytes → same file
    await edit(carol, { profileImage: await picture(601) });
    await ctx.app.services.jobs.drain();
    expect(existsSync(fileOf(url))).toBe(true);
    await edit(dave, { profileImage: null });
    await ctx.app.services.jobs.drain();
    expect(existsSync(fileOf(url))).toBe(false);
  });

  it('replacing an image while someone else uploads the same bytes never leaves a reference to a missing file', async () => {
    const erin = await member('erin');
    const frank = await member('frank');
    for (let round = 0; round < 15; round++) {
      const contested = await picture(700 + round);
      await edit(erin, { profileImage: contested });
      // Erin moves on (collecting `contested`) while Frank uploads the very same bytes.
      await Promise.all([
        edit(erin, { profileImage: await picture(800 + round) }),
        edit(frank, { profileImage: contested }),
      ]);
      await ctx.app.services.jobs.drain();
      const frankNow = (await frank.get('/api/current')).json() as { profileImage: string };
      expect(existsSync(fileOf(frankNow.profileImage)), `round ${round}`).toBe(true);
    }
  });

  it('an edit that fails after storing its image (username taken) leaves no file behind', async () => {
    await member('grace');
    const heidi = await member('heidi');
    const image = await picture(900);
    const before = filesUnder(mediaDir).length;
    const res = await heidi.patch('/api/edit', { username: 'grace', profileImage: image });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'USERNAME_TAKEN' });
    await ctx.app.services.jobs.drain();
    expect(filesUnder(mediaDir).length).toBe(before);
  });
});
