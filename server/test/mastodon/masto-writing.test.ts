/**
 * Writing as people expect (issue 28), through a real Mastodon client library (masto.js, unmodified):
 * a content warning, a poll another member votes in, an edit with its history and source, a scheduled
 * status listed, moved and cancelled, and a link card. Every answer the library receives is validated
 * against the community OpenAPI description of the Mastodon API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRestAPIClient } from 'masto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { html, type PageServer, startPageServer } from '../cards/page-server.ts';
import { authorizeApp, seedTrio, testConfig, useTestApp } from '../helpers/app.ts';
import { expectValid, recordJsonAnswers, type SeenAnswer, templateOf } from './openapi.ts';

let pages: PageServer;
beforeAll(async () => {
  pages = await startPageServer();
});
afterAll(() => pages.close());
const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'pipit-masto-writing-'));
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

describe('masto.js writes to Pipit', () => {
  const ctx = useTestApp({
    mediaDir,
    cards: { ...testConfig().cards, enabled: true, allowLoopback: true, timeoutMs: 2_000 },
  });
  let base: string;
  const seen: SeenAnswer[] = [];

  beforeEach(async () => {
    if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    seen.length = 0;
    pages.reset();
    recordJsonAnswers(base, seen);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** masto.js signed in as `userId` (an app the member authorized). */
  async function clientOf(userId: number) {
    const { token } = await authorizeApp(ctx.app, userId, 'read write follow');
    return createRestAPIClient({ url: base, accessToken: token });
  }

  function expectEveryAnswerValid(least: number) {
    const checked = seen.filter((s) => s.status < 400);
    expect(checked.length).toBeGreaterThanOrEqual(least);
    for (const s of checked) {
      // Mastodon's DELETE of a scheduled status answers an empty object, which the description leaves unschemed.
      if (s.method === 'DELETE' && /\/scheduled_statuses\//.test(s.path)) expect(s.body).toEqual({});
      else expectValid(s.method, templateOf(s.path), s.status, s.body);
    }
  }

  it('a content warning and a poll; another member votes; the poll as both see it', async () => {
    const { alice, bob } = await seedTrio(ctx);
    const [asAlice, asBob] = [await clientOf(alice.id), await clientOf(bob.id)];

    const warned = await asAlice.v1.statuses.create({ status: 'The ending of the film', spoilerText: 'Spoilers' });
    expect(warned).toMatchObject({
      spoilerText: 'Spoilers',
      sensitive: true,
      content: '<p>The ending of the film</p>',
    });

    const asked = await asAlice.v1.statuses.create({
      status: 'Tea or coffee?',
      poll: { options: ['Tea', 'Coffee'], expiresIn: 3600, multiple: false },
    });
    expect(asked.poll).toMatchObject({
      expired: false,
      multiple: false,
      votesCount: 0,
      options: [
        { title: 'Tea', votesCount: 0 },
        { title: 'Coffee', votesCount: 0 },
      ],
    });
    const pollId = asked.poll!.id;
    const voted = await asBob.v1.polls.$select(pollId).votes.create({ choices: [1] });
    expect(voted).toMatchObject({ voted: true, ownVotes: [1], votesCount: 1, votersCount: 1 });
    // A second vote is refused, as Mastodon refuses it.
    await expect(asBob.v1.polls.$select(pollId).votes.create({ choices: [0] })).rejects.toThrow();
    const seenByAlice = await asAlice.v1.polls.$select(pollId).fetch();
    expect(seenByAlice.options.map((o) => o.votesCount)).toEqual([0, 1]);
    expect((await asBob.v1.statuses.$select(asked.id).fetch()).poll?.ownVotes).toEqual([1]);

    expectEveryAnswerValid(5);
  });

  it('edits a status: history oldest first, its source, edited_at', async () => {
    const { alice } = await seedTrio(ctx);
    const asAlice = await clientOf(alice.id);
    const first = await asAlice.v1.statuses.create({ status: 'Sparrows are small' });
    expect(first.editedAt).toBeNull();

    const edited = await asAlice.v1.statuses.$select(first.id).update({
      status: 'Sparrows are small and loud',
      spoilerText: 'Birds',
    });
    expect(edited).toMatchObject({ id: first.id, content: '<p>Sparrows are small and loud</p>', spoilerText: 'Birds' });
    expect(edited.editedAt).toEqual(expect.any(String));

    const history = await asAlice.v1.statuses.$select(first.id).history.list();
    expect(history.map((v) => [v.content, v.spoilerText])).toEqual([
      ['<p>Sparrows are small</p>', ''],
      ['<p>Sparrows are small and loud</p>', 'Birds'],
    ]);
    const source = await asAlice.v1.statuses.$select(first.id).source.fetch();
    expect(source).toEqual({ id: first.id, text: 'Sparrows are small and loud', spoilerText: 'Birds' });

    expectEveryAnswerValid(4);
  });

  it('schedules a status: listed, moved, cancelled; nothing is published before its time', async () => {
    const { alice } = await seedTrio(ctx);
    const asAlice = await clientOf(alice.id);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await asAlice.v1.statuses.create({ status: 'Good morning, later', scheduledAt: at });
    expect(scheduled).toMatchObject({ params: { text: 'Good morning, later' } });
    expect(new Date(scheduled.scheduledAt).getTime()).toBe(new Date(at).getTime());

    const listed = await asAlice.v1.scheduledStatuses.list();
    expect(listed.map((s) => s.id)).toEqual([scheduled.id]);
    const later = new Date(Date.now() + 7_200_000).toISOString();
    const moved = await asAlice.v1.scheduledStatuses.$select(scheduled.id).update({ scheduledAt: later });
    expect(new Date(moved.scheduledAt).getTime()).toBe(new Date(later).getTime());
    expect(await asAlice.v1.accounts.$select(String(alice.id)).statuses.list()).toEqual([]);

    await asAlice.v1.scheduledStatuses.$select(scheduled.id).remove();
    expect(await asAlice.v1.scheduledStatuses.list()).toEqual([]);
    // Too soon is refused (Mastodon: at least five minutes ahead).
    await expect(
      asAlice.v1.statuses.create({ status: 'now-ish', scheduledAt: new Date(Date.now() + 60_000).toISOString() }),
    ).rejects.toThrow();

    expectEveryAnswerValid(4);
  });

  it("gives a status its link's card once the background fetch has run", async () => {
    const { alice } = await seedTrio(ctx);
    const asAlice = await clientOf(alice.id);
    pages.route(
      '/swifts',
      html('<meta property="og:title" content="Swifts in June"><meta property="og:site_name" content="Birding">'),
    );
    const status = await asAlice.v1.statuses.create({ status: `Read this ${pages.origin}/swifts` });
    // Posting never waits for the card.
    expect(status.card).toBeNull();
    await ctx.app.services.jobs.drain();
    const fetched = await asAlice.v1.statuses.$select(status.id).fetch();
    expect(fetched.card).toMatchObject({ title: 'Swifts in June', providerName: 'Birding', type: 'link' });

    expectEveryAnswerValid(2);
  });
});
