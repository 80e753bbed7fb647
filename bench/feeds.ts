// npm run bench:feeds [-- --scale full|smoke] [--posts 10] [--seed 1]
//
// Home feeds at the scale of the seeded data set (PostgreSQL + the local Redis, one server process):
// - every follower of the most-followed account (8,975 on the full set) gets a session, reads their
//   Following timeline once (so their feed is built by a job) — the time to build them all is reported;
// - Redis memory per feed (MEMORY USAGE of its two keys, over a sample);
// - that account posts `--posts` times, 2 s apart: for each post, the time from the POST leaving the
//   bench to each follower's feed holding it (Redis polled in rounds of pipelined ZSCOREs, so the
//   figure is rounded up to a round, ~10–30 ms), p50 / p99 / last over every (post, follower) pair.
// Sessions and posts of the run are removed after it. Everything targets 127.0.0.1.

import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { api } from '@pipit/contract';
import { Redis } from 'ioredis';
import pg from 'pg';
import { memberHeaders, memberToken, tokenHash } from './lib/auth.ts';
import { percentile } from './lib/load.ts';
import { datasetSpec, parseArgs, pgUrl, RESULTS_DIR, resolveScale, resolveSeed } from './lib/options.ts';
import { startServer } from './lib/server.ts';

const args = parseArgs(process.argv.slice(2));
const scale = resolveScale(args);
const seed = resolveSeed(args);
const postCount = Number(args.get('posts') ?? 10);
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
const PREFIX = 'pipit-bench-feeds:';
const TOKEN_BASE = 2_000_000;

const spec = datasetSpec(scale, seed, 'main');
const databaseUrl = pgUrl(spec.name);
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const redis = new Redis(REDIS_URL);
const stale = await redis.keys(`${PREFIX}*`);
for (let i = 0; i < stale.length; i += 1000) await redis.del(...stale.slice(i, i + 1000));

const top = (await db.query('select id, followers_count from users order by followers_count desc, id limit 1'))
  .rows[0] as { id: string; followers_count: number };
const topId = Number(top.id);
const followers = (await db.query('select follower_id from follows where followee_id = $1', [topId])).rows.map((r) =>
  Number(r.follower_id),
);
const people = [topId, ...followers];
const tokens = people.map((_, i) => memberToken(seed, TOKEN_BASE + i));
await db.query(
  `insert into sessions (token_hash, user_id, expires_at)
   select unnest($1::text[]), unnest($2::bigint[]), now() + interval '1 day' on conflict (token_hash) do nothing`,
  [tokens.map(tokenHash), people],
);

const authSecret = randomBytes(32).toString('hex');
const server = await startServer({
  databaseUrl,
  dataDir: '/nonexistent-bench-data',
  authSecret,
  env: { REDIS_URL, REDIS_PREFIX: PREFIX },
});
const headersOf = (i: number) => memberHeaders(tokens[i] as string, authSecret, seed);
const floorKey = (id: number) => `${PREFIX}feed:${id}:floor`;
const feedKey = (id: number) => `${PREFIX}feed:${id}`;

try {
  // 1. Every follower reads Following once (10 at a time): a rebuild job each; wait for all feeds.
  const buildStarted = performance.now();
  let next = 1;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < people.length) {
        const i = next++;
        await (await fetch(`${server.url}${api.timelineFollowing}`, { headers: headersOf(i) })).arrayBuffer();
      }
    }),
  );
  const readsMs = performance.now() - buildStarted;
  // Bounded (BENCH_FEEDS_BUILD_S, default 120 s): the fan-out is then measured to the feeds built by then.
  const buildBound = buildStarted + Number(process.env.BENCH_FEEDS_BUILD_S ?? 120) * 1000;
  let active: number[] = [];
  for (;;) {
    const pipeline = redis.pipeline();
    for (const id of followers) pipeline.exists(floorKey(id));
    const exists = (await pipeline.exec()) ?? [];
    active = followers.filter((_, i) => exists[i]?.[1] === 1);
    if (active.length === followers.length || performance.now() > buildBound) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const built = active.length;
  const buildMs = performance.now() - buildStarted;
  console.log(
    `${built} of ${followers.length} feeds built in ${(buildMs / 1000).toFixed(1)} s (reads ${(readsMs / 1000).toFixed(1)} s)`,
  );

  // 2. Memory per feed, over a sample.
  const sample = active.filter((_, i) => i % Math.ceil(active.length / 200) === 0);
  let bytes = 0;
  const sizes: number[] = [];
  for (const id of sample) {
    bytes += ((await redis.memory('USAGE', feedKey(id))) ?? 0) + ((await redis.memory('USAGE', floorKey(id))) ?? 0);
    sizes.push(await redis.zcard(feedKey(id)));
  }
  const bytesPerFeed = bytes / sample.length;
  const meanEntries = sizes.reduce((a, b) => a + b, 0) / sizes.length;
  console.log(
    `Redis per feed: ${bytesPerFeed.toFixed(0)} B (mean ${meanEntries.toFixed(0)} ids), sample ${sample.length}`,
  );

  // 3. Posts by the top account: time until each follower's feed holds each post.
  const latencies: number[] = [];
  const lastPerPost: number[] = [];
  for (let k = 0; k < postCount; k++) {
    const sent = performance.now();
    const res = await fetch(`${server.url}${api.posts}`, {
      method: 'POST',
      headers: { ...headersOf(0), 'content-type': 'application/json' },
      body: JSON.stringify({ text: `fan-out bench ${k}` }),
    });
    const { id } = (await res.json()) as { id: string };
    const member = id.padStart(16, '0');
    // The feeds that existed before the post (a feed built meanwhile holds it from its rebuild).
    let waiting = active;
    let last = 0;
    for (let round = 0; round < 1000 && waiting.length > 0; round++) {
      const pipeline = redis.pipeline();
      for (const f of waiting) pipeline.zscore(feedKey(f), member);
      const results = (await pipeline.exec()) ?? [];
      const now = performance.now() - sent;
      const still: number[] = [];
      results.forEach(([, score], i) => {
        if (score === null) still.push(waiting[i] as number);
        else latencies.push(now);
      });
      if (still.length < waiting.length) last = now;
      waiting = still;
    }
    lastPerPost.push(last);
    console.log(`post ${k + 1}: ${active.length - waiting.length} of ${active.length} feeds in ${last.toFixed(0)} ms`);
    await new Promise((r) => setTimeout(r, 2000));
  }
  const sorted = Float64Array.from(latencies).sort();
  const result = {
    at: new Date().toISOString(),
    scale: scale.name,
    account: { id: topId, followers: followers.length },
    build: { feeds: built, seconds: buildMs / 1000 },
    redis: { bytesPerFeed, meanEntries },
    fanOut: {
      posts: postCount,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      lastMedian: percentile(Float64Array.from(lastPerPost).sort(), 50),
    },
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, `latest-feeds-${scale.name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`
home feeds, ${scale.name} data set, one server process
  fan-out of a post by an account with ${followers.length} followers, to the ${built} feeds built: p50 ${result.fanOut.p50.toFixed(0)} ms, p99 ${result.fanOut.p99.toFixed(0)} ms (every feed: median ${result.fanOut.lastMedian.toFixed(0)} ms)
  Redis per active member's feed: ${bytesPerFeed.toFixed(0)} B (${meanEntries.toFixed(0)} ids)
  building feeds from cold: ${built} of ${followers.length} in ${(buildMs / 1000).toFixed(1)} s (${((built / buildMs) * 1000).toFixed(1)}/s)`);
} finally {
  await server.stop();
  await db.query('delete from sessions where token_hash = any($1::text[])', [tokens.map(tokenHash)]);
  await db.query(`delete from posts where text like 'fan-out bench %'`);
  await db.query(
    'update users set posts_count = (select count(*) from posts where author_id = $1 and repost_of_id is null) where id = $1',
    [topId],
  );
  const keys = await redis.keys(`${PREFIX}*`);
  for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
  await redis.quit();
  await db.end();
}
