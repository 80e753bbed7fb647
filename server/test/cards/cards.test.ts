/**
 * Link cards (modules/cards) through HTTP on a real database: the first link of a post gets its card
 * from a page served on 127.0.0.1 (loopback allowed: the test setting), fetched by the background job,
 * which the tests run to its end with `jobs.drain()` — never a sleep.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LiveEvent, Post } from '@pipit/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { sql } from '../../src/db/client.ts';
import { authorizeApp, seedTrio, type TestClient, testConfig, useTestApp } from '../helpers/app.ts';
import { imageUpload } from '../helpers/multipart.ts';
import { rowsOf } from '../helpers/social.ts';
import { mastodonCall } from '../mastodon/openapi.ts';
import { photo } from '../media/fixtures.ts';
import { openStream, type Received } from '../stream/sse-client.ts';
import { html, type PageServer, redirect, startPageServer } from './page-server.ts';

const ARTICLE = `
  <meta property="og:title" content="Swifts &amp; swallows">
  <meta property="og:description" content="How to tell them apart in flight.">
  <meta property="og:site_name" content="Birding Weekly">
  <meta property="og:image" content="/pic.jpg">
  <meta name="author" content="Ana Ornis">
  <title>ignored when og:title is there</title>`;

let server: PageServer;
beforeAll(async () => {
  server = await startPageServer();
});
afterAll(() => server.close());

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'pipit-cards-'));
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

describe('link cards', () => {
  const ctx = useTestApp({
    mediaDir,
    cards: { ...testConfig().cards, enabled: true, allowLoopback: true, timeoutMs: 2_000 },
  });
  let picture: Buffer;
  beforeAll(async () => {
    picture = await photo(1200, 630);
  });
  beforeEach(() => {
    server.reset();
    server.route('/article', html(ARTICLE));
    server.route('/pic.jpg', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(picture);
    });
  });

  const drain = () => ctx.app.services.jobs.drain();
  async function post(client: TestClient, body: Record<string, unknown>): Promise<Post> {
    const res = await client.post('/api/posts', body);
    expect(res.statusCode).toBe(201);
    return res.json<Post>();
  }
  const cardOf = async (client: TestClient, id: string) => (await client.get(`/api/posts/${id}`)).json<Post>().card;

  it('gives the first link of a post its card once the job has run: title, description, site, picture', async () => {
    const { clients } = await seedTrio(ctx);
    const written = await post(clients.alice, {
      text: `Read this: ${server.origin}/article#flight. And https://example.invalid/`,
    });
    expect(written.card).toBeNull();
    await drain();
    const card = await cardOf(clients.bob, written.id);
    expect(card).toMatchObject({
      url: `${server.origin}/article`,
      title: 'Swifts & swallows',
      description: 'How to tell them apart in flight.',
      siteName: 'Birding Weekly',
      authorName: 'Ana Ornis',
      image: { url: expect.stringMatching(/^\/media\/[0-9a-f]{64}\.jpg$/), width: 640, height: 336 },
    });
    expect(card?.image?.blurhash).toMatch(/^.{20,}$/);
    // The picture is this server's copy, re-encoded.
    const file = await clients.visitor.get(card?.image?.url as string);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    // Visitors see it too, and only the first link was fetched.
    expect(await cardOf(clients.visitor, written.id)).toEqual(card);
    expect([...server.requests.keys()].sort()).toEqual(['/article', '/pic.jpg']);
  });

  it('never holds up the post: a page that does not answer leaves the post written and the card absent', async () => {
    const { clients } = await seedTrio(ctx);
    let asked!: () => void;
    const reached = new Promise<void>((resolve) => {
      asked = resolve;
    });
    server.route('/silent', () => asked()); // never answers
    const written = await post(clients.alice, { text: `${server.origin}/silent` });
    expect(written.card).toBeNull();
    await reached; // the job is fetching while the post is already there
    expect((await clients.bob.get(`/api/posts/${written.id}`)).statusCode).toBe(200);
    await drain(); // the time limit ends it
    expect(await cardOf(clients.bob, written.id)).toBeNull();
  });

  it('fetches a URL once a day, however many posts (and jobs at once) have it', async () => {
    const { clients } = await seedTrio(ctx);
    const link = `${server.origin}/article`;
    const [a, b, c] = await Promise.all([
      post(clients.alice, { text: `first ${link}` }),
      post(clients.bob, { text: `same ${link}#again` }),
      post(clients.carol, { text: `also ${link}` }),
    ]);
    await drain();
    expect(server.hits('/article')).toBe(1);
    expect(server.hits('/pic.jpg')).toBe(1);
    for (const p of [a, b, c]) expect((await cardOf(clients.visitor, p.id))?.title).toBe('Swifts & swallows');

    const d = await post(clients.alice, { text: `later ${link}` });
    await drain();
    expect(server.hits('/article')).toBe(1);
    expect((await cardOf(clients.visitor, d.id))?.title).toBe('Swifts & swallows');

    // A day later the next post fetches it again, and the new title shows.
    await ctx.db.db.execute(sql`update preview_cards set fetched_at = now() - interval '25 hours'`);
    server.route('/article', html('<meta property="og:title" content="Swifts, revised">'));
    const e = await post(clients.bob, { text: `again ${link}` });
    await drain();
    expect(server.hits('/article')).toBe(2);
    expect((await cardOf(clients.visitor, e.id))?.title).toBe('Swifts, revised');
    expect((await cardOf(clients.visitor, e.id))?.image).toBeNull();
  });

  it('fetches again a card whose fetch was abandoned (its process died), and gives it to every post that waited', async () => {
    const { clients } = await seedTrio(ctx);
    const link = `${server.origin}/article`;
    // A claim whose process died before it fetched: the row is pending, the post linked to it.
    const waiting = await post(clients.alice, { text: `first ${link}` });
    await drain();
    await ctx.db.db.execute(
      sql`update preview_cards set state = 'pending', title = '', fetched_at = now() - interval '1 minute'`,
    );
    await ctx.db.db.execute(sql`delete from post_cards`);
    await ctx.db.db.execute(
      sql`insert into post_cards (post_id, card_id) select ${Number(waiting.id)}, id from preview_cards`,
    );
    // Still within the fetch's time: the next post waits for that fetch and nothing is fetched again.
    const second = await post(clients.bob, { text: `same ${link}` });
    await drain();
    expect(server.hits('/article')).toBe(1);
    expect(await cardOf(clients.visitor, second.id)).toBeNull();

    // Pending for longer than any fetch takes: abandoned, so the next post claims it and fetches.
    await ctx.db.db.execute(sql`update preview_cards set fetched_at = now() - interval '3 minutes'`);
    const third = await post(clients.carol, { text: `also ${link}` });
    await drain();
    expect(server.hits('/article')).toBe(2);
    for (const p of [waiting, second, third])
      expect((await cardOf(clients.visitor, p.id))?.title).toBe('Swifts & swallows');
  });

  it('gives a scheduled post its card once the timed job has published it', async () => {
    const { clients, alice } = await seedTrio(ctx);
    const link = `${server.origin}/article`;
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const res = await clients.alice.post('/api/scheduled-posts', { post: { text: `later ${link}` }, scheduledAt: at });
    expect(res.statusCode, res.body).toBe(201);
    await drain();
    expect(server.hits('/article')).toBe(0);
    await ctx.db.db.execute(sql`update scheduled_posts set scheduled_at = now() - interval '1 second'`);
    await ctx.db.db.execute(sql`update timed_jobs set run_at = now() - interval '1 second'`);
    expect(await ctx.app.services.timedJobs.runDue()).toBe(1);
    await drain();
    expect(server.hits('/article')).toBe(1);
    const mine = (await clients.visitor.get(`/api/users/${alice.id}/posts`)).json<{ items: Post[] }>().items;
    expect(mine.map((p) => p.card?.title)).toEqual(['Swifts & swallows']);
  });

  it('gives no card to a post with images (as Mastodon), and fetches nothing for it', async () => {
    const { clients } = await seedTrio(ctx);
    const uploaded = await clients.alice.upload(imageUpload(await photo(80, 60)));
    expect(uploaded.statusCode).toBe(201);
    const written = await post(clients.alice, {
      text: `With a picture ${server.origin}/article`,
      media: [{ id: uploaded.json<{ id: string }>().id }],
    });
    await drain();
    expect(server.connections).toBe(0);
    expect(await cardOf(clients.alice, written.id)).toBeNull();
  });

  it('follows an edit: another first link gets its card, the same link keeps it, pictures take it away', async () => {
    const { clients } = await seedTrio(ctx);
    server.route('/other', html('<meta property="og:title" content="Herons at dusk">'));
    const edit = async (id: string, body: object) => {
      const res = await clients.alice.patch(`/api/posts/${id}`, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Post>();
    };
    const written = await post(clients.alice, { text: `Read ${server.origin}/article` });
    await drain();
    expect((await cardOf(clients.bob, written.id))?.title).toBe('Swifts & swallows');

    // The same first link, other words: the card stays and nothing is fetched again.
    expect((await edit(written.id, { text: `Do read ${server.origin}/article#now` })).card?.title).toBe(
      'Swifts & swallows',
    );
    await drain();
    expect(server.hits('/article')).toBe(1);

    // Another first link: the old card goes with the edit, the new one comes once its page is read.
    // (The answer may already carry the new card: the page is read after the commit, on PostgreSQL
    // sometimes before the answer is written. It never carries the old one.)
    const relinked = await edit(written.id, { text: `Rather ${server.origin}/other, then ${server.origin}/article` });
    expect([undefined, 'Herons at dusk']).toContain(relinked.card?.title);
    await drain();
    expect((await cardOf(clients.bob, written.id))?.title).toBe('Herons at dusk');
    expect(server.hits('/other')).toBe(1);

    // No link any more: no card.
    expect((await edit(written.id, { text: 'No link now' })).card).toBeNull();
    await drain();
    expect(await cardOf(clients.visitor, written.id)).toBeNull();

    // A link back whose card is known: it shows at once after the job, with no fetch.
    await edit(written.id, { text: `Back to ${server.origin}/article` });
    await drain();
    expect((await cardOf(clients.visitor, written.id))?.title).toBe('Swifts & swallows');
    expect(server.hits('/article')).toBe(1);

    // Pictures added by an edit: no card (as Mastodon), and none fetched.
    const uploaded = await clients.alice.upload(imageUpload(await photo(81, 60)));
    expect(uploaded.statusCode).toBe(201);
    const pictured = await edit(written.id, {
      text: `Back to ${server.origin}/other`,
      media: [{ id: uploaded.json<{ id: string }>().id }],
    });
    expect(pictured.card).toBeNull();
    await drain();
    expect(await cardOf(clients.visitor, written.id)).toBeNull();
    expect(server.hits('/other')).toBe(1);
  });

  it('gives replies and quotes their cards too; links to this server, and text without links, get none', async () => {
    const { clients } = await seedTrio(ctx);
    const root = await post(clients.alice, { text: 'A root' });
    const reply = await post(clients.bob, { text: `Reply ${server.origin}/article`, parentId: root.id });
    const quote = await post(clients.carol, { text: `Quote ${server.origin}/article`, quoteOfId: root.id });
    const own = await post(clients.alice, { text: `${ctx.config.publicUrl}/posts/${root.id} #birds @bob` });
    await drain();
    expect((await cardOf(clients.alice, reply.id))?.title).toBe('Swifts & swallows');
    expect((await cardOf(clients.alice, quote.id))?.title).toBe('Swifts & swallows');
    expect(await cardOf(clients.alice, own.id)).toBeNull();
    expect(await cardOf(clients.alice, root.id)).toBeNull();
    expect(server.hits('/article')).toBe(1);
  });

  it('makes no card of a page without a title, of what is not HTML, or behind a redirect to a private address', async () => {
    const { clients } = await seedTrio(ctx);
    server.route('/untitled', html('<meta name="description" content="No title here">'));
    server.route('/json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"title":"no"}');
    });
    server.route('/to-metadata', redirect('http://169.254.169.254/latest/meta-data/'));
    server.route('/to-private', redirect('http://10.0.0.1/'));
    const ids = [];
    for (const page of ['/untitled', '/json', '/to-metadata', '/to-private']) {
      ids.push((await post(clients.alice, { text: `${server.origin}${page}` })).id);
    }
    await drain();
    for (const id of ids) expect(await cardOf(clients.alice, id)).toBeNull();
    // Failed cards are not fetched again within the day.
    await post(clients.bob, { text: `${server.origin}/untitled` });
    await drain();
    expect(server.hits('/untitled')).toBe(1);
  });

  it('keeps the card but drops a picture that is not one (not decoded), an HTML page, or at a private address', async () => {
    const { clients } = await seedTrio(ctx);
    server.route('/fake', html('<title>Fake picture</title><meta property="og:image" content="/fake.jpg">'));
    server.route('/fake.jpg', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<script>alert(1)</script>');
    });
    server.route('/html-pic', html('<title>Not a picture</title><meta property="og:image" content="/article">'));
    server.route(
      '/private-pic',
      html('<title>Private picture</title><meta property="og:image" content="http://10.0.0.1/a.jpg">'),
    );
    const ids = [];
    for (const page of ['/fake', '/html-pic', '/private-pic']) {
      ids.push((await post(clients.alice, { text: `${server.origin}${page}` })).id);
    }
    await drain();
    const cards = await Promise.all(ids.map((id) => cardOf(clients.alice, id)));
    expect(cards.map((c) => [c?.title, c?.image])).toEqual([
      ['Fake picture', null],
      ['Not a picture', null],
      ['Private picture', null],
    ]);
    expect(server.hits('/fake.jpg')).toBe(1);
  });

  it('links nothing to a post deleted while its page was fetched, and keeps the card for the next post', async () => {
    const { clients } = await seedTrio(ctx);
    let asked!: () => void;
    const reached = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.route('/held', (req, res) => {
      asked();
      void answered.then(() => html('<title>Held</title>')(req, res));
    });
    const written = await post(clients.alice, { text: `${server.origin}/held` });
    await reached;
    expect((await clients.alice.delete(`/api/posts/${written.id}`)).statusCode).toBe(204);
    answer();
    await drain();
    const rows = await ctx.db.db.execute(
      sql`select (select count(*)::int from post_cards) as links, (select state from preview_cards) as state`,
    );
    expect(rowsOf(rows)).toEqual([{ links: 0, state: 'ready' }]);
    const next = await post(clients.bob, { text: `${server.origin}/held` });
    await drain();
    expect((await cardOf(clients.bob, next.id))?.title).toBe('Held');
    expect(server.hits('/held')).toBe(1);
  });

  it('answers the card on Mastodon statuses (PreviewCard), null without one', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const withCard = await post(clients.alice, { text: `${server.origin}/article` });
    const plain = await post(clients.alice, { text: 'No link' });
    await drain();
    const { token } = await authorizeApp(ctx.app, alice.id);
    const status = async (id: string) =>
      (
        await mastodonCall(ctx.app, {
          method: 'GET',
          url: `/api/v1/statuses/${id}`,
          headers: { authorization: `Bearer ${token}` },
        })
      ).json<{ card: Record<string, unknown> | null }>();
    expect((await status(plain.id)).card).toBeNull();
    expect((await status(withCard.id)).card).toMatchObject({
      url: `${server.origin}/article`,
      title: 'Swifts & swallows',
      description: 'How to tell them apart in flight.',
      type: 'link',
      author_name: 'Ana Ornis',
      provider_name: 'Birding Weekly',
      html: '',
      embed_url: '',
      width: 640,
      height: 336,
      image: expect.stringMatching(new RegExp(`^${ctx.config.publicUrl}/media/[0-9a-f]{64}\\.jpg$`)),
      blurhash: expect.any(String),
    });
  });

  describe('when the card arrives after the post', () => {
    let address: Promise<string> | null = null;
    let addressOf: App | null = null;
    const baseUrl = (app: App) => {
      if (addressOf !== app) {
        addressOf = app;
        address = app.listen({ port: 0, host: '127.0.0.1' });
      }
      return address as Promise<string>;
    };
    const open: Awaited<ReturnType<typeof openStream>>[] = [];
    afterEach(async () => {
      await Promise.all(open.splice(0).map((s) => s.close()));
    });
    async function stream(client?: TestClient) {
      const cookie: Record<string, string> =
        client && client.cookies.size > 0 ? { cookie: client.cookies.header() } : {};
      const s = await openStream(`${await baseUrl(ctx.app)}/api/stream`, cookie);
      open.push(s);
      return s;
    }
    const isCard = (id: string) => (r: Received) => r.data.type === 'post.card' && r.data.post.id === id;
    const cardEvents = (s: Awaited<ReturnType<typeof stream>>, id: string) =>
      s.received.filter(isCard(id)).map((r) => r.data as Extract<LiveEvent, { type: 'post.card' }>);

    it('sends it live to those who may see the post (its audience), with the post as it now is', async () => {
      const { alice, clients } = await seedTrio(ctx);
      expect((await clients.bob.put(`/api/users/${alice.id}/follow`)).statusCode).toBe(200);
      const [visitor, bob, carol] = [await stream(), await stream(clients.bob), await stream(clients.carol)];
      const open = await post(clients.alice, { text: `${server.origin}/article` });
      const followersOnly = await post(clients.alice, {
        text: `For followers ${server.origin}/article`,
        visibility: 'followers',
      });
      await drain();
      await ctx.app.services.stream.idle();

      const seen = (await visitor.next(isCard(open.id))).data as Extract<LiveEvent, { type: 'post.card' }>;
      expect(seen.post.card?.title).toBe('Swifts & swallows');
      expect(seen.timelines).toEqual(['everyone']);
      expect(seen.post).toMatchObject({ likedByMe: false, bookmarkedByMe: false, repostedByMe: false });
      expect((await carol.next(isCard(open.id))).data.type).toBe('post.card');
      const toBob = (await bob.next(isCard(followersOnly.id))).data as Extract<LiveEvent, { type: 'post.card' }>;
      expect(toBob.timelines).toEqual(['following']);
      // The next thing each stream gets says nothing of the followers-only post to those outside its audience.
      const marker = await post(clients.alice, { text: 'marker' });
      for (const s of [visitor, carol])
        await s.next((r) => r.data.type === 'post.created' && r.data.post.id === marker.id);
      expect(cardEvents(visitor, followersOnly.id)).toEqual([]);
      expect(cardEvents(carol, followersOnly.id)).toEqual([]);
    });
  });
});

describe('link cards turned off', () => {
  const ctx = useTestApp({ cards: { ...testConfig().cards, enabled: false, allowLoopback: true } });

  it('fetches nothing', async () => {
    server.reset();
    server.route('/article', html(ARTICLE));
    const { clients } = await seedTrio(ctx);
    const res = await clients.alice.post('/api/posts', { text: `${server.origin}/article` });
    expect(res.statusCode).toBe(201);
    await ctx.app.services.jobs.drain();
    expect(server.connections).toBe(0);
    expect((await clients.alice.get(`/api/posts/${res.json<Post>().id}`)).json<Post>().card).toBeNull();
  });
});
