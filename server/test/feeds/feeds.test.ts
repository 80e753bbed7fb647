/**
 * Home feeds written ahead (modules/feeds), on PostgreSQL and Redis: the Following pages they answer
 * are the pages the per-followee query answers, whatever happened — posts, replies, follows,
 * unfollows, deletes, accounts pulled for their follower count, feeds cold or past their window.
 * Runs with PIPIT_TEST_DB=pg and TEST_REDIS_URL (CI's PostgreSQL run); skipped elsewhere.
 */

import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type Post, postPage } from '@pipit/contract';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import type { FeedsService } from '../../src/modules/feeds/feeds.service.ts';
import {
  authorizeApp,
  insertUser,
  resetDb,
  TestClient,
  testConfig,
  testDatabaseUrl,
  testDb,
  testRedisUrl,
  usingPostgres,
} from '../helpers/app.ts';
import { fanOutDone } from '../helpers/feeds.ts';

const PREFIX = `pipit-test-feeds-${process.pid}:`;
const SIZE = 5;
const PULL_ABOVE = 2;
const PAGE = 3;

interface Page {
  items: Post[];
  nextCursor: string | null;
}

describe.skipIf(!usingPostgres || !testRedisUrl)('home feeds on PostgreSQL and Redis', () => {
  // Two apps on one database: `feeds` answers from the feeds, `query` (feeds off) is the reference.
  let feedsApp: App;
  let queryApp: App;
  let feedsConfig: Config;
  let queryConfig: Config;
  let redis: Redis;
  let feeds: FeedsService;

  beforeAll(async () => {
    const db = await testDb();
    const base = { databaseUrl: testDatabaseUrl(), redisUrl: testRedisUrl, redisPrefix: PREFIX };
    feedsConfig = testConfig({
      ...base,
      feeds: {
        enabled: true,
        size: SIZE,
        activeDays: 1,
        pullAboveFollowers: PULL_ABOVE,
        jobExpireSeconds: 60,
        jobMaintenanceSeconds: 30,
      },
    });
    queryConfig = testConfig({ redisPrefix: `${PREFIX}query:` });
    feedsApp = await buildApp(feedsConfig, { db });
    queryApp = await buildApp(queryConfig, { db });
    await Promise.all([feedsApp.ready(), queryApp.ready()]);
    feeds = feedsApp.services.feeds as FeedsService;
    redis = new Redis(testRedisUrl as string);
  });
  afterAll(async () => {
    await feedsApp?.close();
    await queryApp?.close();
    await redis?.quit();
  });

  async function reset() {
    await drain();
    await resetDb(await testDb());
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    // The data changed without events: what the apps kept from events is stale.
    feedsApp.services.events.resync();
    queryApp.services.events.resync();
  }

  /** Waits until every fan-out and rebuild job has run (a bounded wait on the queue's own count). */
  const drain = () => fanOutDone(feeds);

  async function member(username: string) {
    const user = await insertUser(await testDb(), { username });
    return {
      id: user.id,
      viaFeeds: await new TestClient({ app: feedsApp, config: feedsConfig }).signInAs(user.id),
      viaQuery: await new TestClient({ app: queryApp, config: queryConfig }).signInAs(user.id),
    };
  }

  /** Every Following page of a member, from one app. */
  async function allPages(client: TestClient): Promise<Page[]> {
    const pages: Page[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 50; i++) {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const res = await client.get(`/api/timeline/following?limit=${PAGE}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<Page>();
      pages.push(page);
      cursor = page.nextCursor;
      if (!cursor) return pages;
    }
    throw new Error('more than 50 pages');
  }

  const ids = (pages: Page[]) => pages.map((p) => p.items.map((post) => post.id));

  it('answer the same pages as the per-followee query, through random posts, replies, reposts, follows, unfollows, deletes, blocks, mutes, exclusive lists and followed hashtags', async () => {
    type Op =
      | { kind: 'post'; by: number }
      | { kind: 'reply'; by: number; to: number }
      | { kind: 'follow' | 'unfollow'; by: number; whom: number }
      | { kind: 'delete'; by: number; which: number }
      | { kind: 'like' | 'unlike' | 'bookmark' | 'unbookmark' | 'repost' | 'unrepost'; by: number; which: number }
      | { kind: 'rename'; by: number }
      | { kind: 'read'; by: number }
      | { kind: 'block' | 'unblock' | 'mute' | 'unmute'; by: number; whom: number }
      | { kind: 'muteWord'; by: number; word: number }
      | { kind: 'followTag' | 'unfollowTag'; by: number; tag: number }
      | { kind: 'exclusive' | 'unexclusive'; by: number; whom: number };
    const WORDS = ['kite', 'rain', 'moss'];
    // Every other post carries one of these; followed tags' posts are merged at read (never fanned out).
    const TAGS = ['birds', 'owls'];
    const MEMBERS = 4;
    const who = fc.integer({ min: 0, max: MEMBERS - 1 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 5, arbitrary: who.map((by) => ({ kind: 'post' as const, by })) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('reply' as const), by: who, to: fc.nat() }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('follow' as const), by: who, whom: who }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('unfollow' as const), by: who, whom: who }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), by: who, which: fc.nat() }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('like' as const), by: who, which: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('unlike' as const), by: who, which: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('bookmark' as const), by: who, which: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('unbookmark' as const), by: who, which: fc.nat() }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('repost' as const), by: who, which: fc.nat() }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('unrepost' as const), by: who, which: fc.nat() }) },
      { weight: 1, arbitrary: who.map((by) => ({ kind: 'rename' as const, by })) },
      { weight: 2, arbitrary: who.map((by) => ({ kind: 'read' as const, by })) },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constantFrom('block' as const, 'unblock' as const, 'mute' as const, 'unmute' as const),
          by: who,
          whom: who,
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('muteWord' as const), by: who, word: fc.nat(WORDS.length - 1) }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constantFrom('followTag' as const, 'unfollowTag' as const),
          by: who,
          tag: fc.nat(TAGS.length - 1),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constantFrom('exclusive' as const, 'unexclusive' as const),
          by: who,
          whom: who,
        }),
      },
    );

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 35 }), async (ops) => {
        await reset();
        const people = [];
        for (let i = 0; i < MEMBERS; i++) people.push(await member(`m${i}`));
        // Each has an exclusive list (modules/lists): its members leave their Home.
        const exclusive: string[] = [];
        for (const p of people) {
          const res = await p.viaFeeds.post('/api/lists', { title: 'exclusive', exclusive: true });
          exclusive.push(res.json<{ id: string }>().id);
        }
        // Everyone reads once first, so their feeds exist (are built) while the ops happen.
        for (const p of people) await p.viaFeeds.get('/api/timeline/following');
        await drain();
        const posts: { id: string; by: number }[] = [];
        let n = 0;
        for (const o of ops) {
          const me = people[o.by] as (typeof people)[number];
          if (o.kind === 'post' || (o.kind === 'reply' && posts.length === 0)) {
            const tag = n % 2 === 0 ? ` #${TAGS[(n / 2) % TAGS.length]}` : '';
            const res = await me.viaFeeds.post('/api/posts', { text: `post ${n} ${WORDS[n++ % WORDS.length]}${tag}` });
            posts.push({ id: res.json<Post>().id, by: o.by });
          } else if (o.kind === 'reply') {
            const parent = posts[o.to % posts.length] as { id: string };
            const res = await me.viaFeeds.post('/api/posts', { text: `reply ${n++}`, parentId: parent.id });
            if (res.statusCode === 201) posts.push({ id: res.json<Post>().id, by: o.by });
          } else if (o.kind === 'follow' || o.kind === 'unfollow') {
            if (o.by === o.whom) continue;
            const them = people[o.whom] as (typeof people)[number];
            const res = await (o.kind === 'follow'
              ? me.viaFeeds.put(`/api/users/${them.id}/follow`)
              : me.viaFeeds.delete(`/api/users/${them.id}/follow`));
            // 403: a block between them.
            expect([200, 403]).toContain(res.statusCode);
          } else if (o.kind === 'block' || o.kind === 'unblock' || o.kind === 'mute' || o.kind === 'unmute') {
            if (o.by === o.whom) continue;
            const them = people[o.whom] as (typeof people)[number];
            const url = `/api/users/${them.id}/${o.kind.replace('un', '')}`;
            const adds = !o.kind.startsWith('un');
            const res = await (adds
              ? me.viaFeeds.put(url, o.kind === 'mute' ? {} : undefined)
              : me.viaFeeds.delete(url));
            expect(res.statusCode, res.body).toBe(200);
            // Their feed was dropped: read it (queues its rebuild) and let it be built, so the posts
            // that follow are fanned out into it (where the fan-out must leave out what is hidden).
            await me.viaFeeds.get(`/api/timeline/following?limit=${PAGE}`);
            await drain();
          } else if (o.kind === 'exclusive' || o.kind === 'unexclusive') {
            if (o.by === o.whom) continue;
            const them = people[o.whom] as (typeof people)[number];
            const url = `/api/lists/${exclusive[o.by]}/members/${them.id}`;
            const res = await (o.kind === 'exclusive' ? me.viaFeeds.put(url) : me.viaFeeds.delete(url));
            // 409: not following them (only people one follows go on a list).
            expect([200, 409], res.body).toContain(res.statusCode);
            await me.viaFeeds.get(`/api/timeline/following?limit=${PAGE}`);
            await drain();
          } else if (o.kind === 'muteWord') {
            const res = await me.viaFeeds.post('/api/muted-words', { phrase: WORDS[o.word] });
            expect(res.statusCode, res.body).toBe(201);
            await me.viaFeeds.get(`/api/timeline/following?limit=${PAGE}`);
            await drain();
          } else if (o.kind === 'followTag' || o.kind === 'unfollowTag') {
            const url = `/api/hashtags/${TAGS[o.tag]}/follow`;
            const res = await (o.kind === 'followTag' ? me.viaFeeds.put(url) : me.viaFeeds.delete(url));
            expect(res.statusCode, res.body).toBe(200);
          } else if (o.kind === 'delete') {
            const mine = posts.filter((p) => p.by === o.by);
            if (mine.length === 0) continue;
            const victim = mine[o.which % mine.length] as { id: string };
            expect((await me.viaFeeds.delete(`/api/posts/${victim.id}`)).statusCode).toBe(204);
            posts.splice(posts.indexOf(victim as (typeof posts)[number]), 1);
          } else if (o.kind === 'like' || o.kind === 'unlike') {
            if (posts.length === 0) continue;
            const target = posts[o.which % posts.length] as { id: string };
            const path = `/api/posts/${target.id}/like`;
            const res = await (o.kind === 'like' ? me.viaFeeds.put(path) : me.viaFeeds.delete(path));
            // 404: hidden by a block.
            expect([200, 404], res.body).toContain(res.statusCode);
          } else if (o.kind === 'repost' || o.kind === 'unrepost') {
            if (posts.length === 0) continue;
            const target = posts[o.which % posts.length] as { id: string };
            const path = `/api/posts/${target.id}/repost`;
            const res = await (o.kind === 'repost' ? me.viaFeeds.put(path) : me.viaFeeds.delete(path));
            expect([200, 404], res.body).toContain(res.statusCode);
          } else if (o.kind === 'bookmark' || o.kind === 'unbookmark') {
            if (posts.length === 0) continue;
            const target = posts[o.which % posts.length] as { id: string };
            const path = `/api/posts/${target.id}/bookmark`;
            const res = await (o.kind === 'bookmark' ? me.viaFeeds.put(path) : me.viaFeeds.delete(path));
            expect([200, 404], res.body).toContain(res.statusCode);
          } else if (o.kind === 'rename') {
            expect((await me.viaFeeds.patch('/api/edit', { name: `Name ${n++}` })).statusCode).toBe(200);
          } else {
            await me.viaFeeds.get(`/api/timeline/following?limit=${PAGE}`);
          }
        }
        await drain();
        // Read twice: the first read of a dropped feed comes from the query and queues its rebuild.
        for (const p of people) await allPages(p.viaFeeds);
        await drain();
        for (const p of people) {
          const fromFeeds = await allPages(p.viaFeeds);
          const fromQuery = await allPages(p.viaQuery);
          expect(ids(fromFeeds), `member ${p.id}`).toEqual(ids(fromQuery));
          // Whole posts: counts, likedByMe and authors' names too (the feeds' pages come from cached views).
          expect(
            fromFeeds.map((page) => page.items),
            `member ${p.id}`,
          ).toEqual(fromQuery.map((page) => page.items));
          expect(fromFeeds.map((page) => page.nextCursor)).toEqual(fromQuery.map((page) => page.nextCursor));
        }
      }),
      { numRuns: Number(process.env.FEED_RUNS ?? 25) },
    );
    // The feeds answered (not only the fallback), and pages past their window came from the query.
    expect(feeds.stats.errors).toBe(0);
    expect(feeds.stats.fromFeed).toBeGreaterThan(0);
    expect(feeds.stats.fallback).toBeGreaterThan(0);
  }, 600_000);

  it('merge the posts of an account with too many followers (pulled) into each page, before and after it crossed the line', async () => {
    await reset();
    const [ana, ben, cal, dan] = [await member('ana'), await member('ben'), await member('cal'), await member('dan')];
    for (const p of [ben, cal]) await p.viaFeeds.put(`/api/users/${ana.id}/follow`);
    for (const p of [ben, cal, dan]) await p.viaFeeds.get('/api/timeline/following');
    await drain();
    await ana.viaFeeds.post('/api/posts', { text: 'fanned out (2 followers)' });
    await drain();
    // A third follower: more than PULL_ABOVE, so the next post is not fanned out but read with the page.
    await dan.viaFeeds.put(`/api/users/${ana.id}/follow`);
    await ana.viaFeeds.post('/api/posts', { text: 'pulled (3 followers)' });
    await ben.viaFeeds.post('/api/posts', { text: 'ben, fanned out' });
    await drain();
    expect(await redis.smembers(`${PREFIX}feed-pulled`)).toEqual([String(ana.id)]);
    for (const p of [ben, cal, dan]) {
      await allPages(p.viaFeeds); // dan's feed was dropped by his follow: rebuilt now
      await drain();
      const before = feeds.stats.fromFeed;
      const fromFeeds = await allPages(p.viaFeeds);
      expect(feeds.stats.fromFeed, `member ${p.id}`).toBeGreaterThan(before);
      expect(ids(fromFeeds)).toEqual(ids(await allPages(p.viaQuery)));
    }
    const texts = (await allPages(ben.viaFeeds)).flatMap((p) => p.items.map((post) => post.text));
    expect(texts).toEqual(['ben, fanned out', 'pulled (3 followers)', 'fanned out (2 followers)']);
    expect(feeds.stats.errors).toBe(0);
  });

  it('merge the public posts of a followed hashtag into each page (never fanned out), keep a repost of one out, and drop them on unfollow', async () => {
    await reset();
    const [ana, ben, cal] = [await member('ana'), await member('ben'), await member('cal')];
    await ben.viaFeeds.put(`/api/users/${cal.id}/follow`);
    await ben.viaFeeds.get('/api/timeline/following');
    await drain();
    const tagged = (await ana.viaFeeds.post('/api/posts', { text: 'ana #birds' })).json<Post>();
    await cal.viaFeeds.post('/api/posts', { text: 'cal untagged' });
    await drain();
    const texts = async (client: TestClient) =>
      (await allPages(client)).flatMap((p) => p.items.map((post) => [post.text, post.repostedBy?.username ?? null]));

    expect(await texts(ben.viaFeeds)).toEqual([['cal untagged', null]]);
    // Following the tag: at the next read (the feed was dropped: the query answers, then the feed).
    expect((await ben.viaFeeds.put('/api/hashtags/birds/follow')).statusCode).toBe(200);
    expect(await texts(ben.viaFeeds)).toEqual([
      ['cal untagged', null],
      ['ana #birds', null],
    ]);
    await drain();
    const before = feeds.stats.fromFeed;
    // A repost of the tagged post by someone followed: the post is already in ben's home, at its own time.
    expect((await cal.viaFeeds.put(`/api/posts/${tagged.id}/repost`)).statusCode).toBe(200);
    await ana.viaFeeds.post('/api/posts', { text: 'ana again #Birds' });
    await drain();
    for (const p of [ben, cal]) {
      const fromFeeds = await allPages(p.viaFeeds);
      expect(ids(fromFeeds), `member ${p.id}`).toEqual(ids(await allPages(p.viaQuery)));
    }
    expect(await texts(ben.viaFeeds)).toEqual([
      ['ana again #Birds', null],
      ['cal untagged', null],
      ['ana #birds', null],
    ]);
    expect(feeds.stats.fromFeed).toBeGreaterThan(before);
    // Ben's feed holds cal's post only: the tag's posts were merged at read, never fanned out (and
    // cal's repost of one was left out, as the post is already in ben's home).
    const feed = (await redis.zrange(`${PREFIX}feed:${ben.id}`, 0, -1)).map(Number);
    expect(feed).toHaveLength(1);

    // Unfollowed: the tag's posts leave, and cal's repost is the entry again.
    expect((await ben.viaFeeds.delete('/api/hashtags/birds/follow')).statusCode).toBe(200);
    expect(await texts(ben.viaFeeds)).toEqual([
      ['ana #birds', 'cal'],
      ['cal untagged', null],
    ]);
    await drain();
    expect(await texts(ben.viaFeeds)).toEqual([
      ['ana #birds', 'cal'],
      ['cal untagged', null],
    ]);
    expect(feeds.stats.errors).toBe(0);
  });

  it('answer a cold feed from the query and build it in the background', async () => {
    await reset();
    const [ana, ben] = [await member('ana'), await member('ben')];
    await ben.viaFeeds.put(`/api/users/${ana.id}/follow`);
    await ana.viaFeeds.post('/api/posts', { text: 'before the feed existed' });
    await drain();
    const before = { ...feeds.stats };
    const first = await allPages(ben.viaFeeds);
    expect(first[0]?.items.map((p) => p.text)).toEqual(['before the feed existed']);
    expect(feeds.stats.fallback).toBe(before.fallback + 1);
    await drain();
    await allPages(ben.viaFeeds);
    expect(feeds.stats.fromFeed).toBe(before.fromFeed + 1);
  });

  it("keep a member's first page in memory until something on it changes, and send the contract's shape", async () => {
    await reset();
    const [ana, ben, cal] = [await member('ana'), await member('ben'), await member('cal')];
    await ben.viaFeeds.put(`/api/users/${ana.id}/follow`);
    await ben.viaFeeds.get('/api/timeline/following');
    await drain();
    const root = (await ana.viaFeeds.post('/api/posts', { text: 'root' })).json<Post>();
    await drain();

    /** Ben's first page from the feeds: whether it was the kept one, and that it is the query's page. */
    async function firstPage() {
      const kept = feeds.stats.kept;
      const res = await ben.viaFeeds.get('/api/timeline/following');
      expect(res.statusCode, res.body).toBe(200);
      // Sent as serialized, not through the response schema: it must be exactly what the schema makes of it.
      expect(res.body).toBe(JSON.stringify(postPage.parse(JSON.parse(res.body))));
      expect(res.json<Page>()).toEqual((await ben.viaQuery.get('/api/timeline/following')).json<Page>());
      return { kept: feeds.stats.kept > kept, page: res.json<Page>() };
    }
    const texts = (page: Page) => page.items.map((post) => post.text);

    expect((await firstPage()).kept).toBe(false);
    expect(await firstPage()).toMatchObject({ kept: true });

    // Each change drops the kept page, and the next read shows it.
    const changes: [string, () => Promise<unknown>, (page: Page) => void][] = [
      [
        'a post by someone followed (after its fan-out)',
        async () => {
          await ana.viaFeeds.post('/api/posts', { text: 'second' });
          await drain();
        },
        (page) => expect(texts(page)).toEqual(['second', 'root']),
      ],
      [
        'a like by someone else',
        () => cal.viaFeeds.put(`/api/posts/${root.id}/like`),
        (page) => expect(page.items[1]?.likeCount).toBe(1),
      ],
      [
        'a like by the member',
        () => ben.viaFeeds.put(`/api/posts/${root.id}/like`),
        (page) => expect(page.items[1]).toMatchObject({ likeCount: 2, likedByMe: true }),
      ],
      [
        'a bookmark by the member',
        () => ben.viaFeeds.put(`/api/posts/${root.id}/bookmark`),
        (page) => expect(page.items[1]).toMatchObject({ bookmarkedByMe: true }),
      ],
      [
        'a reply by someone not followed',
        () => cal.viaFeeds.post('/api/posts', { text: 'a reply', parentId: root.id }),
        (page) => expect(page.items[1]?.replyCount).toBe(1),
      ],
      [
        "a rename of a shown post's author",
        () => ana.viaFeeds.patch('/api/edit', { name: 'Ana Renamed' }),
        (page) => expect(page.items[0]?.author.name).toBe('Ana Renamed'),
      ],
      [
        'a follow by the member',
        async () => {
          await ben.viaFeeds.put(`/api/users/${cal.id}/follow`);
          await drain();
        },
        (page) => expect(texts(page)).toEqual(['a reply', 'second', 'root']),
      ],
      [
        'a delete',
        () => ana.viaFeeds.delete(`/api/posts/${root.id}`),
        (page) => expect(texts(page)).toEqual(['a reply', 'second']),
      ],
    ];
    for (const [what, change, check] of changes) {
      await change();
      const after = await firstPage();
      expect(after.kept, `${what}: the kept page was dropped`).toBe(false);
      check(after.page);
      await drain(); // a dropped feed is rebuilt: the next read is from the feed again, and kept
      await firstPage();
      expect((await firstPage()).kept, `${what}: kept again`).toBe(true);
    }
    expect(feeds.stats.errors).toBe(0);
  });

  it('take a deleted post and an unfollowed person off the page, and bring a newly followed one in', async () => {
    await reset();
    const [ana, ben, cal] = [await member('ana'), await member('ben'), await member('cal')];
    await ben.viaFeeds.put(`/api/users/${ana.id}/follow`);
    await ben.viaFeeds.get('/api/timeline/following');
    await drain();
    const kept = (await ana.viaFeeds.post('/api/posts', { text: 'kept' })).json<Post>();
    const gone = (await ana.viaFeeds.post('/api/posts', { text: 'deleted' })).json<Post>();
    await cal.viaFeeds.post('/api/posts', { text: 'by cal' });
    await drain();
    const texts = async () => (await allPages(ben.viaFeeds)).flatMap((p) => p.items.map((post) => post.text));
    expect(await texts()).toEqual(['deleted', 'kept']);

    await ana.viaFeeds.delete(`/api/posts/${gone.id}`);
    expect(await texts()).toEqual(['kept']);

    await ben.viaFeeds.put(`/api/users/${cal.id}/follow`);
    expect(await texts()).toEqual(['by cal', 'kept']);
    await ben.viaFeeds.delete(`/api/users/${ana.id}/follow`);
    expect(await texts()).toEqual(['by cal']);
    expect(kept.id).toBeTruthy();
  });

  it("bring a locked account's posts in when its owner approves a request, and when she turns approving off", async () => {
    await reset();
    const [lena, ben, cal] = [await member('lena'), await member('ben'), await member('cal')];
    await lena.viaFeeds.patch('/api/edit', { locked: true });
    await lena.viaFeeds.post('/api/posts', { text: 'by lena' });
    for (const asker of [ben, cal]) {
      expect((await asker.viaFeeds.put(`/api/users/${lena.id}/follow`)).json()).toMatchObject({
        followRequested: true,
      });
      // A feed kept while the request waits: the approval must reach it.
      await asker.viaFeeds.get('/api/timeline/following');
    }
    await drain();
    const texts = async (who: typeof ben) =>
      (await allPages(who.viaFeeds)).flatMap((p) => p.items.map((post) => post.text));
    expect(await texts(ben)).toEqual([]);

    expect((await lena.viaFeeds.post(`/api/follow-requests/${ben.id}/approve`)).statusCode).toBe(200);
    await drain();
    expect(await texts(ben)).toEqual(['by lena']);
    expect(ids(await allPages(ben.viaFeeds))).toEqual(ids(await allPages(ben.viaQuery)));
    expect(await texts(cal)).toEqual([]);

    expect((await lena.viaFeeds.patch('/api/edit', { locked: false })).statusCode).toBe(200);
    await drain();
    expect(await texts(cal)).toEqual(['by lena']);
    expect(ids(await allPages(cal.viaFeeds))).toEqual(ids(await allPages(cal.viaQuery)));
  });

  it('leave out of the feed, as it is written, posts hidden by a mute, a muted word or a block', async () => {
    await reset();
    const [ana, ben, cal] = [await member('ana'), await member('ben'), await member('cal')];
    for (const p of [ben, cal]) await ana.viaFeeds.put(`/api/users/${p.id}/follow`);
    await ana.viaFeeds.post('/api/muted-words', { phrase: 'spoiler' });
    await ana.viaFeeds.put(`/api/users/${ben.id}/mute`, {});
    // Built after the rules changed, so the posts below reach it by fan-out.
    await ana.viaFeeds.get('/api/timeline/following');
    await drain();
    const before = feeds.stats.fromFeed;
    const bens = (await ben.viaFeeds.post('/api/posts', { text: 'muted ben' })).json<Post>();
    await cal.viaFeeds.post('/api/posts', { text: 'a spoiler from cal' });
    await cal.viaFeeds.post('/api/posts', { text: 'fine from cal' });
    // Cal reposts Ben: still hidden (the reposted post's author is muted).
    await cal.viaFeeds.put(`/api/posts/${bens.id}/repost`);
    await drain();
    const texts = async () => (await allPages(ana.viaFeeds)).flatMap((p) => p.items.map((post) => post.text));
    expect(await texts()).toEqual(['fine from cal']);
    expect(feeds.stats.fromFeed).toBeGreaterThan(before);
    // A block of Cal hides him too.
    await ana.viaFeeds.put(`/api/users/${cal.id}/block`);
    expect(await texts()).toEqual([]);
  });

  it("take a suspended person's posts, and reposts of them, off the feed (quotes of them stay, quote unavailable); bring them back when the suspension is lifted", async () => {
    await reset();
    const [ana, ben, cal] = [await member('ana'), await member('ben'), await member('cal')];
    const mod = await insertUser(await testDb(), { username: 'mod', role: 'moderator' });
    const moderator = await new TestClient({ app: feedsApp, config: feedsConfig }).signInAs(mod.id);
    // Ana follows Cal, who reposts and quotes Ben; Dee follows Ben.
    const dee = await member('dee');
    await ana.viaFeeds.put(`/api/users/${cal.id}/follow`);
    await dee.viaFeeds.put(`/api/users/${ben.id}/follow`);
    for (const p of [ana, dee]) await p.viaFeeds.get('/api/timeline/following');
    await drain();
    const bens = (await ben.viaFeeds.post('/api/posts', { text: 'by ben' })).json<Post>();
    await cal.viaFeeds.post('/api/posts', { text: 'by cal' });
    await cal.viaFeeds.put(`/api/posts/${bens.id}/repost`);
    await cal.viaFeeds.post('/api/posts', { text: 'cal quotes ben', quoteOfId: bens.id });
    await drain();
    const shown = async (client: TestClient) =>
      (await allPages(client)).flatMap((p) => p.items.map((post) => `${post.repostedBy?.username ?? ''}:${post.text}`));
    const anaSees = [':cal quotes ben', 'cal:by ben', ':by cal'];
    expect(await shown(ana.viaFeeds)).toEqual(anaSees);
    expect(await shown(dee.viaFeeds)).toEqual([':by ben']);

    expect((await moderator.put(`/api/moderation/users/${ben.id}/suspension`)).statusCode).toBe(200);
    // Cal's quote is Cal's: it stays, its quote part unavailable.
    expect(await shown(ana.viaFeeds)).toEqual([':cal quotes ben', ':by cal']);
    const quoteOf = async (client: TestClient) =>
      (await allPages(client)).flatMap((p) => p.items).find((post) => post.text === 'cal quotes ben')?.quote;
    expect(await quoteOf(ana.viaFeeds)).toEqual({ state: 'unavailable' });
    expect(await shown(dee.viaFeeds)).toEqual([]);
    // Pruned: the next read is the feed's again, and agrees with the query.
    const before = feeds.stats.fromFeed;
    expect(await shown(ana.viaFeeds)).toEqual(await shown(ana.viaQuery));
    expect(feeds.stats.fromFeed).toBeGreaterThan(before);

    expect((await moderator.delete(`/api/moderation/users/${ben.id}/suspension`)).statusCode).toBe(200);
    await drain();
    expect(await shown(ana.viaFeeds)).toEqual(anaSees);
    expect(await quoteOf(ana.viaFeeds)).toMatchObject({ state: 'shown', post: { text: 'by ben' } });
    expect(await shown(dee.viaFeeds)).toEqual([':by ben']);
    expect(await shown(ana.viaFeeds)).toEqual(await shown(ana.viaQuery));
  });

  it('show a quote with its quoted post only to readers it is not hidden from, though its view is kept for all', async () => {
    await reset();
    const [ana, ben, cal, dee] = [await member('ana'), await member('ben'), await member('cal'), await member('dee')];
    for (const p of [ana, dee]) await p.viaFeeds.put(`/api/users/${cal.id}/follow`);
    expect((await ana.viaFeeds.put(`/api/users/${ben.id}/block`)).statusCode).toBe(200);
    for (const p of [ana, dee]) await p.viaFeeds.get('/api/timeline/following');
    await drain();
    const bens = (await ben.viaFeeds.post('/api/posts', { text: 'by ben' })).json<Post>();
    await cal.viaFeeds.post('/api/posts', { text: 'cal quotes ben', quoteOfId: bens.id });
    await drain();
    const quoteOf = async (client: TestClient) =>
      (await allPages(client)).flatMap((p) => p.items).find((post) => post.text === 'cal quotes ben')?.quote;
    // Dee reads first: the quote's view is kept, quoted post and all; Ana's copy still hides it.
    expect(await quoteOf(dee.viaFeeds)).toMatchObject({ state: 'shown', post: { text: 'by ben' } });
    expect(await quoteOf(ana.viaFeeds)).toEqual({ state: 'unavailable' });
    expect(await quoteOf(ana.viaFeeds)).toEqual(await quoteOf(ana.viaQuery));
    // Unblocked: shown to Ana from then on; blocked again: hidden again (her kept facts go with each change).
    expect((await ana.viaFeeds.delete(`/api/users/${ben.id}/block`)).statusCode).toBe(200);
    expect(await quoteOf(ana.viaFeeds)).toMatchObject({ state: 'shown' });
    expect((await ana.viaFeeds.put(`/api/users/${ben.id}/block`)).statusCode).toBe(200);
    expect(await quoteOf(ana.viaFeeds)).toEqual({ state: 'unavailable' });
    expect(await quoteOf(dee.viaFeeds)).toMatchObject({ state: 'shown' });
  });

  it('show a reposted quote unavailable at once when its quoted post is deleted, kept pages and views included', async () => {
    await reset();
    const [ana, ben, cal] = [await member('ana'), await member('ben'), await member('cal')];
    await ana.viaFeeds.put(`/api/users/${cal.id}/follow`);
    await ana.viaFeeds.get('/api/timeline/following');
    await drain();
    const bens = (await ben.viaFeeds.post('/api/posts', { text: 'soon gone' })).json<Post>();
    const quote = (
      await ben.viaFeeds.post('/api/posts', { text: 'ben quotes himself', quoteOfId: bens.id })
    ).json<Post>();
    expect((await cal.viaFeeds.put(`/api/posts/${quote.id}/repost`)).statusCode).toBe(200);
    await drain();
    const quoteOf = async (client: TestClient) =>
      (await allPages(client)).flatMap((p) => p.items).find((post) => post.id === quote.id)?.quote;
    // Read twice: the page and the views are kept.
    expect(await quoteOf(ana.viaFeeds)).toMatchObject({ state: 'shown', post: { text: 'soon gone' } });
    expect(await quoteOf(ana.viaFeeds)).toMatchObject({ state: 'shown' });
    expect((await ben.viaFeeds.delete(`/api/posts/${bens.id}`)).statusCode).toBe(204);
    expect(await quoteOf(ana.viaFeeds)).toEqual({ state: 'unavailable' });
    const first = await ana.viaFeeds.get('/api/timeline/following');
    expect(first.body).not.toContain('soon gone');
  });

  it('send a kept first page compressed when asked, compressed once', async () => {
    await reset();
    const [ana, ben] = [await member('ana'), await member('ben')];
    await ben.viaFeeds.put(`/api/users/${ana.id}/follow`);
    await ben.viaFeeds.get('/api/timeline/following');
    await drain();
    for (let i = 0; i < 4; i++)
      await ana.viaFeeds.post('/api/posts', { text: `Post ${i}: ${'a long line '.repeat(20)}` });
    await drain();
    const plain = (await ben.viaFeeds.get('/api/timeline/following')).body;
    expect(Buffer.byteLength(plain)).toBeGreaterThan(1024);
    const kept = feeds.stats.kept;
    // As browsers ask: br, from the kept page (the same bytes each time), saying what the plain page says.
    const asked = () => ben.viaFeeds.get('/api/timeline/following', { headers: { 'accept-encoding': 'gzip, br' } });
    const [first, again] = [await asked(), await asked()];
    expect(feeds.stats.kept).toBe(kept + 2);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toContain('accept-encoding');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(brotliDecompressSync(first.rawPayload).toString('utf8')).toBe(plain);
  });

  it("keep a Mastodon app's first home page too, apart from the web's, and drop it when something on it changes", async () => {
    await reset();
    const [ana, ben] = [await member('ana'), await member('ben')];
    await ana.viaFeeds.put(`/api/users/${ben.id}/follow`);
    await ana.viaFeeds.get('/api/timeline/following');
    await drain();
    const { token: access_token } = await authorizeApp(feedsApp, ana.id, 'read');
    const home = async () => {
      const res = await feedsApp.inject({
        url: '/api/v1/timelines/home',
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { content: string }[]).map((s) => s.content);
    };
    await ben.viaFeeds.post('/api/posts', { text: 'one' });
    await drain();
    expect(await home()).toEqual(['<p>one</p>']);
    const kept = feeds.stats.kept;
    expect(await home()).toEqual(['<p>one</p>']);
    expect(feeds.stats.kept).toBe(kept + 1);
    // Compressed for an app that asks (they all do) from the kept page, once: the same bytes each time.
    const asked = () =>
      feedsApp.inject({
        url: '/api/v1/timelines/home',
        headers: { authorization: `Bearer ${access_token}`, 'accept-encoding': 'gzip' },
      });
    const plain = await feedsApp.inject({
      url: '/api/v1/timelines/home',
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(Buffer.byteLength(plain.body)).toBeGreaterThan(1024);
    const [first, again] = [await asked(), await asked()];
    expect(feeds.stats.kept).toBe(kept + 4);
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.headers.link).toBe(plain.headers.link);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(gunzipSync(first.rawPayload).toString('utf8')).toBe(plain.body);
    // The web's page is its own, in its own shape.
    const web = (await ana.viaFeeds.get('/api/timeline/following')).json<Page>();
    expect(web.items.map((p) => p.text)).toEqual(['one']);
    await ben.viaFeeds.post('/api/posts', { text: 'two' });
    await drain();
    expect(await home()).toEqual(['<p>two</p>', '<p>one</p>']);
  });
});
