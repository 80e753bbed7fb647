// npm run bench:live [-- --scale full|smoke] [--connections 2000] [--rate 20] [--seconds 30] [--seed 1]
//                    [--kind web|mastodon] [--clients N] [--cpu-prof]
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

import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { api } from '@pipit/contract';
import pg from 'pg';
import { memberHeaders, memberToken, tokenHash } from './lib/auth.ts';
import { BUCKET_MS, BUCKETS, type ChildMessage, type OpenMessage, type ParentMessage } from './lib/live-client.ts';
import { percentile } from './lib/load.ts';
import { datasetSpec, parseArgs, pgUrl, RESULTS_DIR, resolveScale, resolveSeed } from './lib/options.ts';
import { processMemory, startServer } from './lib/server.ts';

const args = parseArgs(process.argv.slice(2));
const scale = resolveScale(args);
const seed = resolveSeed(args);
const connections = Number(args.get('connections') ?? 2_000);
const rate = Number(args.get('rate') ?? 20);
const seconds = Number(args.get('seconds') ?? 30);
/** `web`: GET /api/stream (SSE); `mastodon`: /api/v1/streaming over WebSocket, subscribed to `public`. */
const kind = (args.get('kind') ?? 'web') as 'web' | 'mastodon';
if (kind !== 'web' && kind !== 'mastodon') throw new Error('--kind is web or mastodon');
/** Client processes holding the streams (one process cannot hold 20,000 sockets here, nor parse their frames). */
const clientProcesses = Number(args.get('clients') ?? Math.max(1, Math.ceil(connections / 5_000)));
const GRACE_MS = 15_000;
const TOKEN_BASE = 1_000_000; // Session tokens of this run, apart from the seed's members.

const spec = datasetSpec(scale, seed, 'main');
const databaseUrl = pgUrl(spec.name);
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect().catch((error) => {
  throw new Error(`no seeded database at ${databaseUrl}: run npm run bench:seed -- --target pg (${error})`);
});
const users = Number((await db.query('select count(*)::int as n from users')).rows[0].n);
/** Members 1..M hold the streams, several each when there are more streams than people. */
const holders = Math.min(users, connections);
const perMember = Math.ceil(connections / holders);

// Members 1..M, each with a session of this run.
const tokens = Array.from({ length: holders }, (_, i) => memberToken(seed, TOKEN_BASE + i));
const expires = new Date(Date.now() + 86_400_000).toISOString();
await db.query(
  `insert into sessions (token_hash, user_id, expires_at)
   select unnest($1::text[]), generate_series(1, $2::int), $3::timestamptz
   on conflict (token_hash) do nothing`,
  [tokens.map(tokenHash), holders, expires],
);

const authSecret = randomBytes(32).toString('hex');
const server = await startServer({
  databaseUrl,
  dataDir: '/nonexistent-bench-data',
  authSecret,
  cpuProfDir: args.get('cpu-prof') === 'true' ? path.join(RESULTS_DIR, `live-cpu-prof-${Date.now()}`) : undefined,
  // Every stream comes from 127.0.0.1, and members hold several when there are more streams than people.
  env: { STREAM_MAX_PER_ADDRESS: String(connections + 100), STREAM_MAX_PER_MEMBER: String(perMember + 1) },
});
const { port } = new URL(server.url);
const headersOf = (i: number) => memberHeaders(tokens[i % holders] as string, authSecret, seed);

// ---------------------------------------------------------------------------------------------
// The streams, held by forked client processes (bench/lib/live-client.ts).

const children = Array.from({ length: clientProcesses }, () =>
  fork(path.join(import.meta.dirname, 'lib/live-client.ts'), [], { execArgv: ['--import', 'tsx'] }),
);
const nextMessage = <T extends ChildMessage['type']>(child: ChildProcess, type: T) =>
  new Promise<Extract<ChildMessage, { type: T }>>((resolve, reject) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message as Extract<ChildMessage, { type: T }>);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`a client process exited (${code}) before answering ${type}`)));
  });

const serverBaseMb = processMemory(server.pid)?.rssMb ?? 0;
const openStarted = performance.now();
const openedEach = await Promise.all(
  children.map((child, c) => {
    const streams: { headers: Record<string, string> }[] = [];
    for (let i = c; i < connections; i += clientProcesses) {
      streams.push({
        headers:
          kind === 'web' ? { ...headersOf(i), accept: 'text/event-stream' } : { 'user-agent': 'pipit-live-bench' },
      });
    }
    const answer = nextMessage(child, 'opened');
    const message: OpenMessage = {
      type: 'open',
      port: Number(port),
      kind,
      path: kind === 'web' ? api.stream : '/api/v1/streaming',
      streams,
    };
    child.send(message);
    return answer;
  }),
);
const opened = openedEach.reduce((n, m) => n + m.opened, 0);
const failedToOpen = openedEach.reduce((n, m) => n + m.refused, 0);
const openMs = performance.now() - openStarted;
const idle = processMemory(server.pid);
console.log(
  `${opened} ${kind} streams open in ${(openMs / 1000).toFixed(1)} s (${failedToOpen} refused) by ${clientProcesses} client processes; server RSS ${idle?.rssMb.toFixed(0)} MB`,
);

// ---------------------------------------------------------------------------------------------
// The posters: `rate` posts a second by members chosen in turn, for `seconds`.

const sentAt: number[] = [];
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
  const author = (k * 7919) % holders;
  const body = JSON.stringify({ text: `live-bench ${k}` });
  sentAt[k] = performance.now();
  const at = performance.timeOrigin + (sentAt[k] as number);
  for (const child of children) child.send({ type: 'sent', k, at } satisfies ParentMessage);
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
// The grace period: deliveries still on their way (bounded; the children count what arrived by then).
await new Promise((r) => setTimeout(r, Math.min(GRACE_MS, 2_000 + seconds * 100)));
const peakMb = server.memory.peak();

const results = await Promise.all(
  children.map((child) => {
    const answer = nextMessage(child, 'result');
    child.send({ type: 'finish' } satisfies ParentMessage);
    return answer;
  }),
);
const received = results.reduce((n, r) => n + r.received, 0);
const histogram = new Float64Array(BUCKETS);
for (const r of results) {
  r.histogram.forEach((count, i) => {
    histogram[i] = (histogram[i] as number) + count;
  });
}
/** The p-th percentile of the merged histogram, in ms (the bucket's upper edge). */
const histogramPercentile = (p: number) => {
  const rank = Math.ceil((p / 100) * received);
  let seen = 0;
  for (let i = 0; i < BUCKETS; i++) {
    seen += histogram[i] as number;
    if (seen >= rank && rank > 0) return (i + 1) * BUCKET_MS;
  }
  return 0;
};
let maxBucket = 0;
histogram.forEach((count, i) => {
  if (count > 0) maxBucket = i;
});
await server.stop();
await db.query('delete from sessions where token_hash = any($1::text[])', [tokens.map(tokenHash)]);
await db.query(`delete from posts where text like 'live-bench %'`);
await db.end();

// ---------------------------------------------------------------------------------------------

const sorted = (xs: number[]) => Float64Array.from(xs).sort();
const posts = sorted(postLatencies);
const result = {
  at: new Date().toISOString(),
  scale: scale.name,
  kind,
  connections: {
    asked: connections,
    opened,
    refused: failedToOpen,
    openSeconds: openMs / 1000,
    members: holders,
    clientProcesses,
  },
  posting: { rate, seconds, posts: total, errors: postErrors, p50: percentile(posts, 50), p99: percentile(posts, 99) },
  delivery: {
    expected,
    received,
    missing: expected - received,
    p50: histogramPercentile(50),
    p99: histogramPercentile(99),
    max: (maxBucket + 1) * BUCKET_MS,
  },
  serverRssMb: {
    streamsOpen: idle?.rssMb ?? 0,
    peakWhilePosting: peakMb,
    perStreamKb: opened > 0 && idle ? ((idle.rssMb - serverBaseMb) * 1024) / opened : 0,
  },
};
mkdirSync(RESULTS_DIR, { recursive: true });
const file = path.join(RESULTS_DIR, `live-${kind}-${scale.name}-${result.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(path.join(RESULTS_DIR, `latest-live-${kind}-${scale.name}.json`), `${JSON.stringify(result, null, 2)}\n`);

const ms = (x: number) => `${x.toFixed(1)} ms`;
console.log(`
live delivery, ${scale.name} data set, one server process
  streams                ${opened} open (${failedToOpen} refused)
  posts                  ${total} at ${rate}/s (${postErrors} failed); POST p50 ${ms(result.posting.p50)}, p99 ${ms(result.posting.p99)}
  POST sent → event      p50 ${ms(result.delivery.p50)}, p99 ${ms(result.delivery.p99)}, max ${ms(result.delivery.max)}
  deliveries             ${received} of ${expected} (${result.delivery.missing} missing)
  server RSS             ${serverBaseMb.toFixed(0)} MB before the streams, ${result.serverRssMb.streamsOpen.toFixed(0)} MB with them open (${result.serverRssMb.perStreamKb.toFixed(1)} KB a stream), peak ${peakMb.toFixed(0)} MB while posting
  → ${path.relative(process.cwd(), file)}`);
