// npm run bench:live [-- --scale full|smoke] [--connections 2000] [--rate 20] [--seconds 30] [--seed 1]
//
// Live delivery: N members hold GET /api/stream open on one server process (production build
// mode, PostgreSQL, the seeded data set) while members post `rate` times a second. Every post goes
// to every stream (Everyone; Following too for its author's followers). Measured: POST sent →
// event received, for every (post, stream) pair — an upper bound of commit → client, since it also
// holds the POST's own time, reported beside it — the server's resident memory with the streams
// open and its peak while posting, and any delivery missing at the end.
//
// Streams and posters are members 1..N of the data set; their sessions are added for the run and
// removed after it. Everything targets 127.0.0.1; the run is bounded by --seconds plus a 15 s grace.

import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { api } from '@pipit/contract';
import pg from 'pg';
import { memberHeaders, memberToken, tokenHash } from './lib/auth.ts';
import { percentile } from './lib/load.ts';
import { datasetSpec, parseArgs, pgUrl, RESULTS_DIR, resolveScale, resolveSeed } from './lib/options.ts';
import { processMemory, startServer } from './lib/server.ts';

const args = parseArgs(process.argv.slice(2));
const scale = resolveScale(args);
const seed = resolveSeed(args);
const connections = Number(args.get('connections') ?? 2_000);
const rate = Number(args.get('rate') ?? 20);
const seconds = Number(args.get('seconds') ?? 30);
const GRACE_MS = 15_000;
const TOKEN_BASE = 1_000_000; // Session tokens of this run, apart from the seed's members.

const spec = datasetSpec(scale, seed, 'main');
const databaseUrl = pgUrl(spec.name);
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect().catch((error) => {
  throw new Error(`no seeded database at ${databaseUrl}: run npm run bench:seed -- --target pg (${error})`);
});
const users = Number((await db.query('select count(*)::int as n from users')).rows[0].n);
if (users < connections) throw new Error(`the data set has ${users} people, fewer than ${connections} streams`);

// Members 1..N, each with a session of this run.
const tokens = Array.from({ length: connections }, (_, i) => memberToken(seed, TOKEN_BASE + i));
const expires = new Date(Date.now() + 86_400_000).toISOString();
await db.query(
  `insert into sessions (token_hash, user_id, expires_at)
   select unnest($1::text[]), generate_series(1, $2::int), $3::timestamptz
   on conflict (token_hash) do nothing`,
  [tokens.map(tokenHash), connections, expires],
);

const authSecret = randomBytes(32).toString('hex');
const server = await startServer({ databaseUrl, dataDir: '/nonexistent-bench-data', authSecret });
const { port } = new URL(server.url);
const headersOf = (i: number) => memberHeaders(tokens[i] as string, authSecret, seed);

// ---------------------------------------------------------------------------------------------
// The streams: raw http, one socket each, frames split on blank lines; only the post's marker is read.

const sentAt: number[] = [];
const latencies: number[] = [];
let received = 0;
let opened = 0;
let failedToOpen = 0;
const sockets: http.ClientRequest[] = [];
const MARKER = /"text":"live-bench (\d+)"/;

function openStream(i: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: api.stream,
        agent: false,
        headers: { ...headersOf(i), accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) {
          failedToOpen++;
          res.resume();
          resolve();
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        let ready = false;
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let split = buffer.indexOf('\n\n');
          while (split !== -1) {
            const frame = buffer.slice(0, split);
            buffer = buffer.slice(split + 2);
            split = buffer.indexOf('\n\n');
            if (!ready) {
              ready = true;
              opened++;
              resolve();
            }
            if (!frame.includes('event: post.created')) continue;
            const k = MARKER.exec(frame)?.[1];
            if (k === undefined) continue;
            received++;
            latencies.push(performance.now() - (sentAt[Number(k)] as number));
          }
        });
        res.on('error', () => {});
      },
    );
    req.on('error', () => {
      failedToOpen++;
      resolve();
    });
    sockets.push(req);
  });
}

const openStarted = performance.now();
for (let i = 0; i < connections; i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, connections - i) }, (_, j) => openStream(i + j)));
}
const openMs = performance.now() - openStarted;
const idle = processMemory(server.pid);
console.log(
  `${opened} streams open in ${(openMs / 1000).toFixed(1)} s (${failedToOpen} refused); server RSS ${idle?.rssMb.toFixed(0)} MB`,
);

// ---------------------------------------------------------------------------------------------
// The posters: `rate` posts a second by members chosen in turn, for `seconds`.

const postLatencies: number[] = [];
let postErrors = 0;
server.memory.reset();
const total = Math.round(rate * seconds);
const posting: Promise<void>[] = [];
const startedAt = performance.now();
for (let k = 0; k < total; k++) {
  const due = startedAt + (k * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const author = (k * 7919) % connections;
  const body = JSON.stringify({ text: `live-bench ${k}` });
  sentAt[k] = performance.now();
  posting.push(
    fetch(`${server.url}${api.posts}`, {
      method: 'POST',
      headers: { ...headersOf(author), 'content-type': 'application/json' },
      body,
    })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 201) postErrors++;
        else postLatencies.push(performance.now() - (sentAt[k] as number));
      })
      .catch(() => {
        postErrors++;
      }),
  );
}
await Promise.all(posting);
const expected = (total - postErrors) * opened;
const graceEnd = Date.now() + GRACE_MS;
while (received < expected && Date.now() < graceEnd) await new Promise((r) => setTimeout(r, 100));
const peakMb = server.memory.peak();

for (const req of sockets) req.destroy();
await server.stop();
await db.query('delete from sessions where token_hash = any($1::text[])', [tokens.map(tokenHash)]);
await db.query(`delete from posts where text like 'live-bench %'`);
await db.end();

// ---------------------------------------------------------------------------------------------

const sorted = (xs: number[]) => Float64Array.from(xs).sort();
const delivery = sorted(latencies);
const posts = sorted(postLatencies);
const result = {
  at: new Date().toISOString(),
  scale: scale.name,
  connections: { asked: connections, opened, refused: failedToOpen, openSeconds: openMs / 1000 },
  posting: { rate, seconds, posts: total, errors: postErrors, p50: percentile(posts, 50), p99: percentile(posts, 99) },
  delivery: {
    expected,
    received,
    missing: expected - received,
    p50: percentile(delivery, 50),
    p99: percentile(delivery, 99),
    max: delivery[delivery.length - 1] ?? 0,
  },
  serverRssMb: { streamsOpen: idle?.rssMb ?? 0, peakWhilePosting: peakMb },
};
mkdirSync(RESULTS_DIR, { recursive: true });
const file = path.join(RESULTS_DIR, `live-${scale.name}-${result.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(path.join(RESULTS_DIR, `latest-live-${scale.name}.json`), `${JSON.stringify(result, null, 2)}\n`);

const ms = (x: number) => `${x.toFixed(1)} ms`;
console.log(`
live delivery, ${scale.name} data set, one server process
  streams                ${opened} open (${failedToOpen} refused)
  posts                  ${total} at ${rate}/s (${postErrors} failed); POST p50 ${ms(result.posting.p50)}, p99 ${ms(result.posting.p99)}
  POST sent → event      p50 ${ms(result.delivery.p50)}, p99 ${ms(result.delivery.p99)}, max ${ms(result.delivery.max)}
  deliveries             ${received} of ${expected} (${result.delivery.missing} missing)
  server RSS             ${result.serverRssMb.streamsOpen.toFixed(0)} MB with the streams open, peak ${peakMb.toFixed(0)} MB while posting
  → ${path.relative(process.cwd(), file)}`);
