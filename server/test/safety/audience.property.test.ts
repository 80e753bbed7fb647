/**
 * Who sees a post, under random sequences: posts of every visibility (public, unlisted, followers
 * only, direct) with mentions and hashtags, replies (narrower or refused when wider), reposts (refused
 * for followers-only and direct posts), quotes (by their quote policy), follows, unfollows, blocks and
 * unblocks among four people, through HTTP. After each sequence every answer each person (and a
 * visitor) can get is compared with a model of the rule (modules/safety/visibility.ts): Home,
 * Everyone, every profile, every post page and its replies and ancestors, search, a hashtag page,
 * notifications. Every action's status is predicted by the model too (a post one may not see answers
 * as absent).
 *
 * On PostgreSQL with Redis (CI) the same answers are also read from a second app that keeps home
 * feeds in Redis (fan-out on write), after its fan-out has drained: the feeds must hold exactly what
 * the rule allows, and lose it at once on an unfollow or a block.
 */
import type { Notification, Post, Visibility } from '@pipit/contract';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import type { FeedsService } from '../../src/modules/feeds/feeds.service.ts';
import {
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
import { getAll } from '../helpers/social.ts';

const PEOPLE = 4;
const VISIBILITIES: Visibility[] = ['public', 'unlisted', 'followers', 'direct'];
const WORDS = ['kite', 'rain'] as const;
const withFeeds = usingPostgres && testRedisUrl !== null;
const PREFIX = `pipit-test-audience-${process.pid}:`;

type Op =
  | { kind: 'post'; by: number; vis: number; mention: number | null; tag: boolean; word: number }
  | { kind: 'reply'; by: number; which: number; vis: number | null }
  | { kind: 'quote'; by: number; which: number; vis: number }
  | { kind: 'repost' | 'like'; by: number; which: number }
  | { kind: 'follow' | 'unfollow' | 'block' | 'unblock'; by: number; whom: number }
  /** Reads one's home (on the feeds app: keeps the feed active, so fan-out writes to it). */
  | { kind: 'read'; by: number };

const person = fc.nat(PEOPLE - 1);
const vis = fc.nat(VISIBILITIES.length - 1);
const which = fc.nat(40);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('post' as const),
      by: person,
      vis,
      mention: fc.option(person),
      tag: fc.boolean(),
      word: fc.nat(WORDS.length - 1),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reply' as const), by: person, which, vis: fc.option(vis) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('quote' as const), by: person, which, vis }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constantFrom('repost' as const, 'like' as const), by: person, which }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constantFrom('follow' as const, 'unfollow' as const), by: person, whom: person }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constantFrom('block' as const, 'unblock' as const), by: person, whom: person }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('read' as const), by: person }) },
);

/** A post as the model knows it. */
interface Written {
  id: string;
  by: number;
  visibility: Visibility;
  /** Who it mentions (and for a reply, whom it answers), the author left out. */
  mentions: Set<number>;
  text: string;
  tag: boolean;
  parentId: string | null;
  /** For a repost's row: the post it reposts. */
  repostOf: string | null;
  quoteOf: string | null;
}

const widerThan = (a: Visibility, b: Visibility) => VISIBILITIES.indexOf(a) < VISIBILITIES.indexOf(b);

describe('who sees a post, under random sequences', () => {
  const apps: { name: string; app: App; config: Config }[] = [];
  let feeds: FeedsService | null = null;
  let redis: Redis | null = null;

  beforeAll(async () => {
    const db = await testDb();
    const base = usingPostgres ? { databaseUrl: testDatabaseUrl() } : {};
    const queryConfig = testConfig({ ...base, redisPrefix: `${PREFIX}query:` });
    const queryApp = await buildApp(queryConfig, { db });
    await queryApp.ready();
    apps.push({ name: 'query', app: queryApp, config: queryConfig });
    if (withFeeds) {
      const feedsConfig = testConfig({
        ...base,
        redisUrl: testRedisUrl,
        redisPrefix: PREFIX,
        feeds: {
          enabled: true,
          size: 400,
          activeDays: 1,
          pullAboveFollowers: 1_000,
          jobExpireSeconds: 60,
          jobMaintenanceSeconds: 30,
        },
      });
      const feedsApp = await buildApp(feedsConfig, { db });
      await feedsApp.ready();
      feeds = feedsApp.services.feeds as FeedsService;
      redis = new Redis(testRedisUrl as string);
      apps.push({ name: 'feeds', app: feedsApp, config: feedsConfig });
    }
  });
  afterAll(async () => {
    for (const { app } of apps) await app.close();
    await redis?.quit();
  });

  /** Waits until the feeds app has fanned out everything written (a bounded wait on its own count). */
  const drain = () => fanOutDone(feeds);

  it('answers every list, page and action exactly as the rule says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 8, maxLength: 35 }), async (ops) => {
        await drain();
        const db = await testDb();
        await resetDb(db);
        // Ids start again from 1: the feeds of the run before are nobody's now.
        const keys = redis ? await redis.keys(`${PREFIX}*`) : [];
        if (keys.length > 0) await redis?.del(...keys);
        for (const { app } of apps) app.services.events.resync();
        const ids: number[] = [];
        const clients: TestClient[][] = [];
        for (let i = 0; i < PEOPLE; i++) {
          const row = await insertUser(db, { username: `p${i}` });
          ids.push(row.id);
          clients.push([]);
        }
        for (const { app, config } of apps) {
          for (let i = 0; i < PEOPLE; i++) clients[i]!.push(await new TestClient({ app, config }).signInAs(ids[i]!));
        }
        // Actions go through the last app: with feeds, the one whose writes are fanned out.
        const act = (i: number) => clients[i]![apps.length - 1]!;
        /** Reads a member's home from every app (on the feeds app: their feed is built, then fanned out to). */
        const readHome = async (i: number) => {
          for (const client of clients[i]!) expect((await client.get('/api/timeline/following')).statusCode).toBe(200);
        };
        for (let i = 0; i < PEOPLE; i++) await readHome(i);
        await drain();

        // The model: follows, blocks, posts.
        const follows = new Set<string>();
        const blocks = new Set<string>();
        const pair = (a: number, b: number) => `${a}>${b}`;
        const blocked = (a: number, b: number) => blocks.has(pair(a, b)) || blocks.has(pair(b, a));
        const written: Written[] = [];
        const byId = new Map<string, Written>();
        let n = 0;

        /** The audience rule (visitor: v = null). */
        const inAudience = (v: number | null, p: Written) =>
          p.visibility === 'public' ||
          p.visibility === 'unlisted' ||
          (v !== null &&
            (p.by === v || p.mentions.has(v) || (p.visibility === 'followers' && follows.has(pair(v, p.by)))));
        /** May `v` see the post (its page's rule: blocks and audience; a repost: also the reposted post)? */
        const sees = (v: number | null, p: Written): boolean => {
          if (v !== null && p.by !== v && blocked(v, p.by)) return false;
          if (!inAudience(v, p)) return false;
          if (p.repostOf !== null) return sees(v, byId.get(p.repostOf)!);
          return true;
        };
        const record = (post: Written) => {
          written.push(post);
          byId.set(post.id, post);
        };

        for (const step of ops) {
          const o = step;
          const me = act(o.by);
          if (o.kind === 'read') {
            await readHome(o.by);
          } else if (o.kind === 'post') {
            const visibility = VISIBILITIES[o.vis]!;
            const mention = o.mention === null ? '' : ` @p${o.mention}`;
            const text = `${WORDS[o.word]} n${n++}${o.tag ? ' #topic' : ''}${mention}`;
            const res = await me.post('/api/posts', { text, visibility });
            expect(res.statusCode, res.body).toBe(201);
            const made = res.json<Post>();
            expect(made.visibility).toBe(visibility);
            const mentions = new Set(o.mention !== null && o.mention !== o.by ? [o.mention] : []);
            record({
              id: made.id,
              by: o.by,
              visibility,
              mentions,
              text,
              tag: o.tag,
              parentId: null,
              repostOf: null,
              quoteOf: null,
            });
          } else if ('whom' in o) {
            if (o.by === o.whom) continue;
            const path = o.kind === 'follow' || o.kind === 'unfollow' ? 'follow' : 'block';
            const url = `/api/users/${ids[o.whom]}/${path}`;
            const res = o.kind === 'follow' || o.kind === 'block' ? await me.put(url) : await me.delete(url);
            expect(res.statusCode, res.body).toBe(o.kind === 'follow' && blocked(o.by, o.whom) ? 403 : 200);
            if (o.kind === 'follow' && !blocked(o.by, o.whom)) follows.add(pair(o.by, o.whom));
            if (o.kind === 'unfollow') follows.delete(pair(o.by, o.whom));
            if (o.kind === 'block') {
              blocks.add(pair(o.by, o.whom));
              follows.delete(pair(o.by, o.whom));
              follows.delete(pair(o.whom, o.by));
            }
            if (o.kind === 'unblock') blocks.delete(pair(o.by, o.whom));
          } else {
            // What is left acts on a post (TypeScript does not narrow the union's unions of kinds).
            const o = step as Extract<Op, { which: number }>;
            const originals = written.filter((p) => p.repostOf === null);
            if (originals.length === 0) continue;
            const target = originals[o.which % originals.length]!;
            const visible = sees(o.by, target);
            if (o.kind === 'like') {
              const res = await me.put(`/api/posts/${target.id}/like`);
              expect(res.statusCode, `like of ${JSON.stringify(target)}: ${res.body}`).toBe(visible ? 200 : 404);
            } else if (o.kind === 'repost') {
              const res = await me.put(`/api/posts/${target.id}/repost`);
              const open = target.visibility === 'public' || target.visibility === 'unlisted';
              expect(res.statusCode, `repost of ${JSON.stringify(target)}: ${res.body}`).toBe(
                !visible ? 404 : open ? 200 : 403,
              );
              if (res.statusCode === 200 && !written.some((p) => p.repostOf === target.id && p.by === o.by)) {
                // The repost's own row: found on the reposter's profile.
                const mine = await getAll<Post>(me, `/api/users/${ids[o.by]}/posts`, 50);
                const entry = mine.find((p) => p.id === target.id && p.repostedBy !== null);
                expect(entry, 'the repost on its profile').toBeDefined();
                record({
                  id: entry!.entryId,
                  by: o.by,
                  visibility: target.visibility,
                  mentions: new Set(),
                  text: '',
                  tag: false,
                  parentId: null,
                  repostOf: target.id,
                  quoteOf: null,
                });
              }
            } else if (o.kind === 'reply') {
              const asked = o.vis === null ? undefined : VISIBILITIES[o.vis]!;
              const text = `re n${n++}`;
              const res = await me.post('/api/posts', {
                text,
                parentId: target.id,
                ...(asked ? { visibility: asked } : {}),
              });
              const wider = asked !== undefined && widerThan(asked, target.visibility);
              expect(res.statusCode, `reply to ${JSON.stringify(target)} as ${asked}: ${res.body}`).toBe(
                !visible ? 404 : wider ? 400 : 201,
              );
              if (res.statusCode === 201) {
                const made = res.json<Post>();
                expect(made.visibility).toBe(asked ?? target.visibility);
                record({
                  id: made.id,
                  by: o.by,
                  visibility: made.visibility,
                  mentions: new Set(target.by !== o.by ? [target.by] : []),
                  text,
                  tag: false,
                  parentId: target.id,
                  repostOf: null,
                  quoteOf: null,
                });
              }
            } else if (o.kind === 'quote') {
              const visibility = VISIBILITIES[o.vis]!;
              const text = `quote n${n++}`;
              const res = await me.post('/api/posts', { text, quoteOfId: target.id, visibility });
              const policy =
                target.visibility === 'direct' ? 'nobody' : target.visibility === 'followers' ? 'followers' : 'anyone';
              const allowed =
                target.by === o.by ||
                policy === 'anyone' ||
                (policy === 'followers' && follows.has(pair(o.by, target.by)));
              expect(res.statusCode, `quote of ${JSON.stringify(target)}: ${res.body}`).toBe(
                !visible ? 404 : allowed ? 201 : 403,
              );
              if (res.statusCode === 201) {
                record({
                  id: res.json<Post>().id,
                  by: o.by,
                  visibility,
                  mentions: new Set(),
                  text,
                  tag: false,
                  parentId: null,
                  repostOf: null,
                  quoteOf: target.id,
                });
              }
            }
          }
        }
        await drain();

        const found: string[] = [];
        const sameSet = (where: string, got: string[], want: string[]) => {
          const g = [...new Set(got)].sort();
          const w = [...new Set(want)].sort();
          if (JSON.stringify(g) !== JSON.stringify(w)) found.push(`${where}: got [${g}] want [${w}]`);
        };
        // A quote part is shown iff the quoted post is visible to the viewer.
        const checkQuote = (where: string, v: number | null, post: Post) => {
          const p = byId.get(post.id);
          if (!p?.quoteOf) return;
          const shown = post.quote?.state === 'shown';
          if (shown !== sees(v, byId.get(p.quoteOf)!))
            found.push(`${where}: quote part of ${post.id} is ${post.quote?.state}`);
        };
        const originals = written.filter((p) => p.repostOf === null);
        const visitorClients = apps.map(({ app, config }) => new TestClient({ app, config }).withCsrf());

        for (let a = 0; a < apps.length; a++) {
          const appName = apps[a]!.name;
          for (let v = 0; v <= PEOPLE; v++) {
            const viewer = v < PEOPLE ? v : null;
            const client = viewer === null ? visitorClients[a]! : clients[v]![a]!;
            const who = `${appName} ${viewer === null ? 'visitor' : `p${viewer}`}`;

            // Home: one's own and followed people's posts, and what followed people reposted, that one may see.
            if (viewer !== null) {
              const home = await getAll<Post>(client, '/api/timeline/following', 50);
              const followed = (by: number) => by === viewer || follows.has(pair(viewer, by));
              sameSet(
                `${who} home`,
                home.map((p) => p.id),
                written.filter((p) => followed(p.by) && sees(viewer, p)).map((p) => p.repostOf ?? p.id),
              );
              for (const p of home) checkQuote(`${who} home`, viewer, p);
            }
            // Everyone: public posts (no reposts) one may see.
            const everyone = await getAll<Post>(client, '/api/timeline/everyone', 50);
            sameSet(
              `${who} everyone`,
              everyone.map((p) => p.id),
              originals.filter((p) => p.visibility === 'public' && sees(viewer, p)).map((p) => p.id),
            );
            for (const p of everyone) checkQuote(`${who} everyone`, viewer, p);
            // A hashtag page: public posts with the tag.
            sameSet(
              `${who} #topic`,
              (await getAll<Post>(client, '/api/hashtags/topic/posts', 50)).map((p) => p.id),
              originals.filter((p) => p.tag && p.visibility === 'public' && sees(viewer, p)).map((p) => p.id),
            );
            // Search: public posts, and one's own of any visibility.
            for (const word of WORDS) {
              sameSet(
                `${who} search ${word}`,
                (await getAll<Post>(client, `/api/search/posts?q=${word}`, 50)).map((p) => p.id),
                originals
                  .filter(
                    (p) =>
                      p.text.startsWith(`${word} `) &&
                      (p.visibility === 'public' || p.by === viewer) &&
                      sees(viewer, p),
                  )
                  .map((p) => p.id),
              );
            }
            // Profiles: their posts and reposts one may see, a direct post to its author only.
            for (let o = 0; o < PEOPLE; o++) {
              const res = await client.get(`/api/users/${ids[o]}/posts?limit=50`);
              if (viewer !== null && viewer !== o && blocked(viewer, o)) {
                if (res.statusCode === 200 && res.json<{ items: Post[] }>().items.length > 0)
                  found.push(`${who} profile of p${o} shows posts across a block`);
                continue;
              }
              const profile = await getAll<Post>(client, `/api/users/${ids[o]}/posts`, 50);
              sameSet(
                `${who} profile of p${o}`,
                profile.map((p) => p.entryId),
                written
                  .filter((p) => p.by === o && sees(viewer, p) && (p.visibility !== 'direct' || p.by === viewer))
                  .map((p) => p.id),
              );
            }
            // Every post page, its replies and the conversation above it.
            for (const p of originals) {
              const page = await client.get(`/api/posts/${p.id}`);
              const visible = sees(viewer, p);
              if ((page.statusCode === 200) !== visible) {
                found.push(`${who} post page ${p.id} (${p.visibility} by p${p.by}) answers ${page.statusCode}`);
                continue;
              }
              if (!visible) {
                for (const sub of ['replies', 'ancestors']) {
                  const res = await client.get(`/api/posts/${p.id}/${sub}`);
                  if (res.statusCode !== 404) found.push(`${who} ${sub} of hidden ${p.id} answers ${res.statusCode}`);
                }
                continue;
              }
              checkQuote(`${who} post page`, viewer, page.json<Post>());
              sameSet(
                `${who} replies of ${p.id}`,
                (await getAll<Post>(client, `/api/posts/${p.id}/replies`, 50)).map((r) => r.id),
                originals.filter((r) => r.parentId === p.id && sees(viewer, r)).map((r) => r.id),
              );
              const above = (await client.get(`/api/posts/${p.id}/ancestors`)).json<{ items: Post[] }>().items;
              for (const q of above) {
                if (!sees(viewer, byId.get(q.id)!)) found.push(`${who} ancestors of ${p.id} show hidden ${q.id}`);
              }
            }
            // Notifications: never of a post one may not see.
            if (viewer !== null) {
              for (const note of await getAll<Notification>(client, '/api/notifications', 50)) {
                const p = note.post ? byId.get(note.post.id) : undefined;
                if (p && !sees(viewer, p)) found.push(`${who} notified of hidden ${p.id}`);
              }
            }
          }
        }
        expect(found, JSON.stringify(ops)).toEqual([]);
      }),
      {
        numRuns: Number(process.env.AUDIENCE_RUNS ?? 5),
        seed: Number(process.env.AUDIENCE_SEED ?? 20261126),
        endOnFailure: true,
      },
    );
    // The feeds app answered pages from its feeds, not only from the query it falls back to.
    if (feeds) expect(feeds.stats.fromFeed).toBeGreaterThan(0);
  }, 900_000);
});
