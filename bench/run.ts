// npm run bench [-- --scale full|smoke] [--target pg|pglite|all] [--only a,b] [--no-web] [--no-curve] [--cpu-prof] [--no-redis]
//
// Runs the load scenarios against the real server (NODE_ENV=production, a child process on
// 127.0.0.1) on the seeded data sets, with their floors (a bare node:http server answering the same
// bytes, and the same statements replayed through the bare driver), the scale curve, and the web
// budget. Writes bench/results/*.json and *.md, and prints the tables.
// Env: BENCH_DURATION (s, full 10), BENCH_WARMUP (s, 2), BENCH_FLOOR_DURATION (s, 5), BENCH_CONNECTIONS (10),
// BENCH_LIGHTHOUSE_RUNS (3; 0 takes the file list from index.html alone), BENCH_WAIT_IDLE (load average).

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { api } from '@pipit/contract';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildWebIfStale } from '../scripts/web-build.mjs';
import { memberHeaders } from './lib/auth.ts';
import { ANCHOR_MS } from './lib/dataset.ts';
import { openTarget } from './lib/db.ts';
import { type FloorStat, InProcess, type Statement } from './lib/floors.ts';
import { type LoadOptions, type LoadStat, type Probe, runLoad } from './lib/load.ts';
import {
  BENCH_DIR,
  datasetSpec,
  formatMs,
  manifestPath,
  parseArgs,
  pgAdminUrl,
  pgDatabaseName,
  pgliteDir,
  pgUrl,
  RESULTS_DIR,
  resolveScale,
  resolveTargets,
  type Target,
} from './lib/options.ts';
import {
  type CreatePairResult,
  type CurveResult,
  type CurveSide,
  n0,
  type PairResult,
  printReport,
  type RunResult,
  type ScenarioResult,
  type TargetResult,
  writeMarkdown,
} from './lib/report.ts';
import { BROWSER_ACCEPT_ENCODING, buildScenarios, type Scenario } from './lib/scenarios.ts';
import { CpuMeter, freePort, type RunningServer, startServer } from './lib/server.ts';
import {
  type Budget,
  budgetFromServer,
  budgetOf,
  indexHtmlAssets,
  type LighthouseResult,
  runLighthouse,
} from './lib/web.ts';
import type { Manifest } from './seed.ts';

const DAY = 86_400_000;
const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name] || fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

function readManifest(dataset: string, target: Target): Manifest {
  const file = manifestPath(dataset, target);
  if (!existsSync(file)) {
    throw new Error(`No seeded data set ${dataset} on ${target} (${file}). Run: npm run bench:seed -- --scale ...`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/** Deletes what the write scenarios and the INSERT floor added, so the next run sees the seeded data. */
async function removeBenchmarkWrites(exec: (sql: string) => Promise<unknown>, manifest: Manifest) {
  const ids = manifest.members.map((m) => m.userId).join(',');
  await exec(`DELETE FROM posts WHERE id > ${manifest.spec.posts}`);
  // The approve scenario's locked members and what it may have left waiting (lists stay: the same each run).
  await exec(`UPDATE users SET locked = false WHERE id IN (${ids})`);
  await exec(`DELETE FROM follow_requests WHERE target_id IN (${ids})`);
  await exec(
    `UPDATE users u SET posts_count = (SELECT count(*) FROM posts p WHERE p.author_id = u.id AND p.repost_of_id IS NULL) WHERE u.id IN (${ids})`,
  );
  // Without it the dead index entries at the newest end of the posts indexes slow the next
  // run's planning and scans (get_actual_variable_range walks them): not a steady state.
  await exec('VACUUM (ANALYZE) posts, users, likes, notifications');
}

async function removeBenchmarkWritesFrom(dataset: string, target: Target, manifest: Manifest) {
  const db = await openTarget(dataset, target);
  try {
    await removeBenchmarkWrites((sql) => db.exec(sql), manifest);
  } finally {
    await db.close();
  }
}

/** The PostgreSQL backends connected to a benchmark database (their CPU is the database's cost). */
function backendPids(dataset: string, target: Target): () => Promise<number[]> {
  if (target !== 'pg') return async () => [];
  return async () => {
    const admin = new pg.Client({ connectionString: pgAdminUrl() });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
        pgDatabaseName(dataset),
      ]);
      return rows.map((r) => r.pid);
    } finally {
      await admin.end();
    }
  };
}

/** Measures the CPU the server, the database backends and this process (the load generator) use per request. */
function cpuProbe(serverPid: number, dbPids: () => Promise<number[]>) {
  const server = new CpuMeter();
  const db = new CpuMeter();
  let client0 = process.cpuUsage();
  let hasDb = false;
  const totals = { serverMs: 0, dbMs: 0, clientMs: 0 };
  const probe: Probe = {
    async start() {
      const pids = await dbPids();
      hasDb = pids.length > 0;
      db.start(pids);
      server.start([serverPid]);
      client0 = process.cpuUsage();
    },
    stop() {
      const client = process.cpuUsage(client0);
      totals.serverMs = server.stop();
      totals.dbMs = db.stop();
      totals.clientMs = (client.user + client.system) / 1000;
    },
  };
  const perRequest = (stat: LoadStat): LoadStat['cpu'] => {
    const n = Math.max(1, stat.requests);
    return { serverMs: totals.serverMs / n, dbMs: hasDb ? totals.dbMs / n : null, clientMs: totals.clientMs / n };
  };
  return { probe, perRequest };
}

/** A Following cursor half a year back, in the server's cursor format; checked against the server. */
async function deepFollowingCursor(server: RunningServer, headers: Record<string, string>): Promise<string> {
  const at = new Date(ANCHOR_MS - 182 * DAY).toISOString().replace('Z', '000Z');
  const built = Buffer.from(`${at}_999999999`, 'utf8').toString('base64url');
  const response = await fetch(`${server.url}${api.timelineFollowing}?cursor=${built}`, { headers });
  const page = response.ok ? ((await response.json()) as { items: { createdAt: string }[] }) : null;
  if (page && page.items.length > 0 && (page.items[0]?.createdAt ?? '') < at) return built;
  // The cursor format changed: walk back page by page (bounded).
  let cursor: string | null = null;
  for (let pages = 0; pages < 400; pages++) {
    const url = `${server.url}${api.timelineFollowing}?limit=50${cursor ? `&cursor=${cursor}` : ''}`;
    const walk = (await (await fetch(url, { headers })).json()) as {
      items: { createdAt: string }[];
      nextCursor: string | null;
    };
    if (!walk.nextCursor) break;
    cursor = walk.nextCursor;
    if ((walk.items.at(-1)?.createdAt ?? '') < at) break;
  }
  if (!cursor) throw new Error('Could not reach a deep Following page');
  return cursor;
}

const BENCH_REDIS_PREFIX = 'pipit-bench:';

/** BENCH_REDIS_URL (default the local Redis) if it answers a PING. */
async function reachableRedis(): Promise<string | null> {
  const url = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return url;
  } catch {
    console.log(`  no Redis at ${url}: the PostgreSQL target runs without home feeds`);
    return null;
  } finally {
    redis.disconnect();
  }
}

/** Forgets the feeds of an earlier run (the data set was reset under them). */
async function clearRedis(url: string) {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${BENCH_REDIS_PREFIX}*`);
    for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
  } finally {
    await redis.quit();
  }
}

/**
 * Each benchmark member reads their Following timeline once (their feed is missing: the query answers
 * and a rebuild is queued), then the run waits until every feed is built (bounded: 120 s).
 */
async function warmFeeds(server: RunningServer, url: string, manifest: Manifest, authSecret: string) {
  const started = performance.now();
  const redis = new Redis(url);
  try {
    for (const m of manifest.members) {
      const headers = memberHeaders(m.token, authSecret, manifest.spec.seed);
      await (await fetch(`${server.url}${api.timelineFollowing}`, { headers })).arrayBuffer();
    }
    const floors = manifest.members.map((m) => `${BENCH_REDIS_PREFIX}feed:${m.userId}:floor`);
    for (let i = 0; i < 2400; i++) {
      if ((await redis.exists(...floors)) === floors.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const built = await redis.exists(...floors);
    if (built !== floors.length) throw new Error(`only ${built} of ${floors.length} home feeds were built`);
    let bytes = 0;
    for (const m of manifest.members) {
      bytes += (await redis.memory('USAGE', `${BENCH_REDIS_PREFIX}feed:${m.userId}`)) ?? 0;
      bytes += (await redis.memory('USAGE', `${BENCH_REDIS_PREFIX}feed:${m.userId}:floor`)) ?? 0;
    }
    return {
      members: floors.length,
      ms: performance.now() - started,
      bytesPerFeed: Math.round(bytes / floors.length),
    };
  } finally {
    await redis.quit();
  }
}

/** A GET answered as the bytes the server sent. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The bare node:http floor: the recorded Everyone answer served by a server doing nothing else. */
async function bareFloor(server: RunningServer, load: LoadOptions, runDir: string): Promise<LoadStat> {
  // Recorded as the Everyone scenario receives it: compressed (fetch would inflate it).
  const response = await rawGet(`${server.url}${api.timelineEveryone}`, { 'accept-encoding': BROWSER_ACCEPT_ENCODING });
  const body = response.body;
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(response.headers)) {
    if (typeof value !== 'string') continue;
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(key))
      headers[key] = value;
  }
  const file = path.join(runDir, 'everyone-response.json');
  writeFileSync(file, JSON.stringify({ status: response.status, headers, bodyBase64: body.toString('base64') }));
  console.log(
    `  Everyone's answer: ${body.length} B${headers['content-encoding'] ? ` (${headers['content-encoding']})` : ''}`,
  );
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(BENCH_DIR, 'lib/bare-server.ts'), file, String(port)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout?.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    });
    const { probe, perRequest } = cpuProbe(child.pid as number, async () => []);
    const stat = await runLoad(
      `http://127.0.0.1:${port}`,
      () => [{ method: 'GET', path: api.timelineEveryone }],
      load,
      probe,
    );
    return { ...stat, cpu: perRequest(stat) };
  } finally {
    child.kill('SIGTERM');
  }
}

interface Options {
  load: LoadOptions;
  floorDurationS: number;
  lighthouseRuns: number;
  curveRounds: number;
  only: Set<string> | null;
  cpuProf: boolean;
  runDir: string;
  /** Redis for the PostgreSQL target (home feeds, shared counters), or null (--no-redis, or none answers). */
  redisUrl: string | null;
}

/**
 * The floor for creating a post: one post's INSERT alone, autocommitted — the statement Drizzle sent for
 * the posts row before posts written together shared a statement (kept as it was, so the floor stays
 * comparable across runs). Its parameters are the first post of the captured statement's.
 */
const FLOOR_INSERT =
  'insert into "posts" ("id", "author_id", "parent_id", "text", "quote_of_id", "repost_of_id", "reply_count", ' +
  '"like_count", "repost_count", "created_at") values (default, $1, $2, $3, default, default, default, default, ' +
  'default, default) returning "id", "author_id", "parent_id", "text", "quote_of_id", "repost_of_id", "reply_count", ' +
  '"like_count", "repost_count", "created_at"';

function bareInsertOf(statements: Statement[]): Statement | null {
  for (const statement of statements) {
    if (!/insert into posts \(id, author_id, text[,)]/i.test(statement.text)) continue;
    const [authors, texts] = statement.params as [unknown[], unknown[]];
    return { ...statement, text: FLOOR_INSERT, params: [authors[0], null, texts[0]] };
  }
  return null;
}

async function benchTarget(dataset: string, target: Target, options: Options): Promise<TargetResult> {
  const manifest = readManifest(dataset, target);
  const authSecret = randomBytes(32).toString('hex');
  const databaseUrl = target === 'pg' ? pgUrl(dataset) : null;
  const dataDir = target === 'pg' ? path.join(options.runDir, 'data-pg') : pgliteDir(dataset);
  const member0 = memberHeaders(manifest.members[0]!.token, authSecret, manifest.spec.seed);
  const connections = options.load.connections;
  const dbPids = backendPids(dataset, target);
  console.log(`\n== ${target}: ${dataset} (${manifest.database})`);

  // 1. Floors through the bare driver, before the server holds the database (PGlite is single-process).
  const deepAt = new Date(ANCHOR_MS - 182 * DAY).toISOString().replace('Z', '000Z');
  const placeholderCursor = Buffer.from(`${deepAt}_999999999`, 'utf8').toString('base64url');
  const floorScenarios = buildScenarios({ manifest, authSecret, deepCursor: placeholderCursor });
  const inProcess = await InProcess.open(databaseUrl, dataDir, authSecret, connections);
  const statements = new Map<string, Statement[]>();
  const rawByScenario = new Map<string, FloorStat>();
  let rawEveryone: FloorStat;
  let rawInsert: FloorStat;
  let insertStatement: Statement;
  try {
    // What scenarios read that the seed does not hold (a list), made once (idempotent), before any capture.
    if (target === 'pg') {
      for (const scenario of floorScenarios) {
        if (!scenario.setup || (options.only && !options.only.has(scenario.name))) continue;
        const db = await openTarget(dataset, target);
        try {
          await db.exec(scenario.setup);
        } finally {
          await db.close();
        }
      }
    }
    for (const scenario of floorScenarios) {
      if (!scenario.sample) continue;
      if (scenario.setup && (target !== 'pg' || (options.only && !options.only.has(scenario.name)))) continue;
      const captured = await inProcess.capture(scenario.sample);
      if (captured.status >= 300) {
        console.warn(`  ${scenario.name}: in-process answer ${captured.status} ${captured.body.slice(0, 200)}`);
      }
      statements.set(scenario.name, captured.statements);
    }
    const everyone = statements.get('everyone') ?? [];
    const insert = bareInsertOf(statements.get('create-post') ?? []);
    if (!insert) throw new Error('Could not capture the INSERT of create post');
    insertStatement = insert;
    rawEveryone = await inProcess.replay(everyone, connections, options.load.durationS, dbPids);
    console.log(
      `  floor raw Everyone query     ${rawEveryone.rps.toFixed(0)} q/s  p50 ${rawEveryone.p50.toFixed(2)} ms`,
    );
    rawInsert = await inProcess.replay([insert], connections, options.load.durationS, dbPids);
    console.log(`  floor raw INSERT             ${rawInsert.rps.toFixed(0)} q/s  p50 ${rawInsert.p50.toFixed(2)} ms`);
    for (const scenario of floorScenarios) {
      if (options.only && !options.only.has(scenario.name)) continue;
      const list = statements.get(scenario.name);
      if (!list || scenario.name === 'everyone') continue;
      // A write is replayed whole (its transaction, statement by statement): each run adds a row.
      rawByScenario.set(scenario.name, await inProcess.replay(list, connections, options.floorDurationS, dbPids));
    }
    rawByScenario.set('everyone', rawEveryone);
    await removeBenchmarkWrites((sql) => inProcess.query(sql), manifest);
  } finally {
    await inProcess.close();
  }

  // 2. The real server.
  const redisUrl = target === 'pg' ? options.redisUrl : null;
  if (redisUrl) await clearRedis(redisUrl);
  const server = await startServer({
    databaseUrl,
    dataDir,
    authSecret,
    cpuProfDir: options.cpuProf ? path.join(options.runDir, `cpu-prof-${target}`) : undefined,
    env: {
      ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_PREFIX: BENCH_REDIS_PREFIX } : {}),
      // BENCH_WORKERS=N: node:cluster workers (needs Redis); RSS and CPU are then the primary's only.
      ...(process.env.BENCH_WORKERS && redisUrl ? { WORKERS: process.env.BENCH_WORKERS } : {}),
    },
  });
  if (redisUrl) {
    const feeds = await warmFeeds(server, redisUrl, manifest, authSecret);
    console.log(
      `  home feeds warm for ${feeds.members} members in ${formatMs(feeds.ms)}, ${feeds.bytesPerFeed} B each in Redis`,
    );
  }
  console.log(
    `  server up in ${formatMs(server.startMs)} (pid ${server.pid}), RSS ${server.memory.peak().toFixed(0)} MB`,
  );
  const scenarioResults: ScenarioResult[] = [];
  let bare: LoadStat;
  let hwmMb: number;
  let mastodonPair: PairResult | null = null;
  let createPair: CreatePairResult | null = null;
  try {
    bare = await bareFloor(server, options.load, options.runDir);
    console.log(`  floor bare node:http         ${bare.rps.toFixed(0)} req/s  p50 ${bare.p50} ms`);
    const deepCursor = await deepFollowingCursor(server, member0);
    for (const scenario of buildScenarios({ manifest, authSecret, deepCursor })) {
      if (options.only && !options.only.has(scenario.name)) continue;
      if (scenario.prepare || scenario.setup) {
        if (target !== 'pg') {
          console.log(
            `  ${scenario.name.padEnd(28)} skipped: its preparation needs the database, which PGlite's server holds`,
          );
          continue;
        }
        if (scenario.prepare) {
          const db = await openTarget(dataset, target);
          try {
            await db.exec(scenario.prepare);
          } finally {
            await db.close();
          }
        }
      }
      server.memory.reset();
      const { probe, perRequest } = cpuProbe(server.pid, dbPids);
      const measured = await runLoad(server.url, (client) => scenario.requests(client), options.load, probe);
      const stat = { ...measured, cpu: perRequest(measured) };
      const peakRssMb = server.memory.peak();
      const loadAvg = os.loadavg()[0] as number;
      const raw = rawByScenario.get(scenario.name) ?? null;
      scenarioResults.push({
        name: scenario.name,
        title: scenario.title,
        ...stat,
        peakRssMb,
        loadAvg,
        raw,
        statements: (statements.get(scenario.name) ?? []).map((s) => s.text),
      });
      console.log(
        `  ${scenario.name.padEnd(28)} ${stat.rps.toFixed(0).padStart(6)} req/s  p50 ${stat.p50} ms  p99 ${stat.p99} ms  errors ${stat.errors}  RSS ${peakRssMb.toFixed(0)} MB  CPU/req server ${stat.cpu?.serverMs.toFixed(2)} db ${stat.cpu?.dbMs?.toFixed(2) ?? '-'} ms  load ${loadAvg.toFixed(1)}`,
      );
      if (stat.non2xx > 0) console.log(`    status codes: ${JSON.stringify(stat.statusCodes)}`);
    }
    const scenarios = buildScenarios({ manifest, authSecret, deepCursor });
    const wantsPair = !options.only || (options.only.has('following') && options.only.has('mastodon-home'));
    if (wantsPair && target === 'pg') mastodonPair = await pairRounds(server, scenarios, options);
    const create = scenarios.find((s) => s.name === 'create-post');
    if (create && target === 'pg' && (!options.only || options.only.has('create-post')))
      createPair = await createRounds(server, create, insertStatement, pgUrl(dataset), options);
    hwmMb = server.hwmMb();
  } finally {
    await server.stop();
  }
  await removeBenchmarkWritesFrom(dataset, target, manifest);
  return {
    target,
    dataset,
    counts: manifest.counts,
    serverStartMs: server.startMs,
    serverPeakRssMb: hwmMb,
    floors: { bare, rawEveryone, rawInsert, insertSql: insertStatement.text },
    scenarios: scenarioResults,
    mastodonPair,
    createPair,
  };
}

/**
 * Create post against its floor, the raw INSERT through the bare driver, in alternating loads of
 * `curveRounds` rounds with the server up (PostgreSQL): the floor measured before the server starts
 * and the scenario minutes later met different machines here (the floor alone moved 2,800–5,400/s
 * in one afternoon); alternating, what else the machine does weighs on both alike. The median of the
 * rounds' ratios is the result.
 */
async function createRounds(
  server: RunningServer,
  create: Scenario,
  insert: Statement,
  databaseUrl: string,
  options: Options,
): Promise<CreatePairResult> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.load.connections });
  const rounds: CreatePairResult['rounds'] = [];
  try {
    for (let round = 0; round < options.curveRounds; round++) {
      let inserted = 0;
      const end = performance.now() + options.load.durationS * 1000;
      await Promise.all(
        Array.from({ length: options.load.connections }, async () => {
          const connection = await pool.connect();
          try {
            while (performance.now() < end) {
              await connection.query(insert.text, insert.params);
              inserted++;
            }
          } finally {
            connection.release();
          }
        }),
      );
      const insertRate = inserted / options.load.durationS;
      const stat = await runLoad(server.url, (client) => create.requests(client), options.load);
      rounds.push({ create: stat.rps, insert: insertRate });
      console.log(
        `  create-post vs raw INSERT, round ${round + 1}: ${stat.rps.toFixed(0)} vs ${insertRate.toFixed(0)}/s = ${(stat.rps / insertRate).toFixed(2)}×`,
      );
    }
  } finally {
    await pool.end();
  }
  const ratios = rounds.map((r) => r.create / r.insert).sort((a, b) => a - b);
  return { rounds, ratio: ratios[Math.floor(ratios.length / 2)] as number };
}

/** The scenario's requests without Accept-Encoding: the answers as they are, uncompressed. */
function identity(scenario: Scenario): Scenario {
  return {
    ...scenario,
    requests: (client) =>
      scenario.requests(client).map((request) => {
        const { 'accept-encoding': _, ...headers } = (request.headers ?? {}) as Record<string, string>;
        return { ...request, headers };
      }),
  };
}

/**
 * The Mastodon home timeline against the web's Following page, in alternating loads on the one server
 * (`curveRounds` rounds): each round's loads are seconds apart, so what else the machine does weighs
 * on both alike, and the ratio of each round is kept (its median is the result). Compressed as the
 * clients ask, and uncompressed for the record (the Mastodon answer is 3× the bytes: whole accounts).
 */
async function pairRounds(server: RunningServer, scenarios: Scenario[], options: Options): Promise<PairResult> {
  const byName = (name: string) => scenarios.find((s) => s.name === name) as Scenario;
  const sides = {
    following: byName('following'),
    mastodon: byName('mastodon-home'),
    followingIdentity: identity(byName('following')),
    mastodonIdentity: identity(byName('mastodon-home')),
  };
  const rounds: PairResult['rounds'] = [];
  for (let round = 0; round < options.curveRounds; round++) {
    const rps = {} as Record<keyof typeof sides, number>;
    for (const [side, scenario] of Object.entries(sides) as [keyof typeof sides, Scenario][]) {
      const stat = await runLoad(server.url, (client) => scenario.requests(client), options.load);
      if (stat.errors > 0) throw new Error(`${side}: ${stat.errors} errors (${JSON.stringify(stat.statusCodes)})`);
      rps[side] = stat.rps;
    }
    rounds.push(rps);
    console.log(
      `  pair round ${round + 1}: Mastodon home ${n0(rps.mastodon)} vs Following ${n0(rps.following)} req/s (${(rps.mastodon / rps.following).toFixed(2)}×); uncompressed ${n0(rps.mastodonIdentity)} vs ${n0(rps.followingIdentity)} (${(rps.mastodonIdentity / rps.followingIdentity).toFixed(2)}×)`,
    );
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  return {
    rounds,
    ratio: median(rounds.map((r) => r.mastodon / r.following)),
    identityRatio: median(rounds.map((r) => r.mastodonIdentity / r.followingIdentity)),
  };
}

/**
 * Following-timeline latency on the data set and on its small twin (same people and follows,
 * 1% of the posts). Both servers run side by side and the loads alternate (three rounds on the full scale), so
 * that other work on the machine weighs on both alike; the medians of the rounds are compared.
 */
async function scaleCurve(bigDataset: string, smallDataset: string, options: Options): Promise<CurveResult> {
  const sides = [] as { dataset: string; manifest: Manifest; server: RunningServer; secret: string }[];
  try {
    for (const dataset of [bigDataset, smallDataset]) {
      const manifest = readManifest(dataset, 'pg');
      const secret = randomBytes(32).toString('hex');
      const server = await startServer({
        databaseUrl: pgUrl(dataset),
        dataDir: path.join(options.runDir, `data-pg-${dataset}`),
        authSecret: secret,
      });
      sides.push({ dataset, manifest, server, secret });
    }
    const rounds: Record<string, LoadStat[]> = { [bigDataset]: [], [smallDataset]: [] };
    for (let round = 0; round < options.curveRounds; round++) {
      for (const side of sides) {
        const scenarios = buildScenarios({ manifest: side.manifest, authSecret: side.secret, deepCursor: '' });
        const following = scenarios.find((s) => s.name === 'following') as Scenario;
        const { probe, perRequest } = cpuProbe(side.server.pid, backendPids(side.dataset, 'pg'));
        const stat = await runLoad(side.server.url, (client) => following.requests(client), options.load, probe);
        rounds[side.dataset]?.push({ ...stat, cpu: perRequest(stat) });
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    const summarise = (dataset: string): CurveSide => {
      const stats = rounds[dataset] ?? [];
      const side = sides.find((s) => s.dataset === dataset) as (typeof sides)[number];
      return {
        dataset,
        posts: side.manifest.counts.posts,
        p50: median(stats.map((s) => s.p50)),
        mean: median(stats.map((s) => s.mean)),
        p99: median(stats.map((s) => s.p99)),
        rps: median(stats.map((s) => s.rps)),
        dbCpuMs: median(stats.map((s) => s.cpu?.dbMs ?? 0)),
        serverCpuMs: median(stats.map((s) => s.cpu?.serverMs ?? 0)),
        rounds: stats.map((s) => ({ p50: s.p50, mean: s.mean, rps: s.rps })),
      };
    };
    const big = summarise(bigDataset);
    const small = summarise(smallDataset);
    console.log(
      `\n== scale curve, Following: ${big.posts} posts p50 ${big.p50} ms (mean ${big.mean.toFixed(2)}), ${small.posts} posts p50 ${small.p50} ms (mean ${small.mean.toFixed(2)})`,
    );
    return { big, small, ratio: big.p50 / small.p50, meanRatio: big.mean / small.mean };
  } finally {
    for (const side of sides) await side.server.stop();
  }
}

async function webBudget(dataset: string, target: Target, options: Options) {
  buildWebIfStale();
  const manifest = readManifest(dataset, target);
  // Lighthouse scores vary from run to run: the run with the median score of three is kept.
  const lighthouse: LighthouseResult[] = [];
  const runs = options.lighthouseRuns;
  let budget: Budget;
  const server =
    runs > 0
      ? await startServer({
          databaseUrl: target === 'pg' ? pgUrl(dataset) : null,
          dataDir: target === 'pg' ? path.join(options.runDir, 'data-pg') : pgliteDir(dataset),
          authSecret: randomBytes(32).toString('hex'),
        })
      : null;
  try {
    for (const preset of ['mobile', 'desktop'] as const) {
      const results: LighthouseResult[] = [];
      for (let i = 0; i < runs; i++) {
        try {
          const file = path.join(options.runDir, `lighthouse-${preset}-${i + 1}.json`);
          if (server) results.push(runLighthouse(`${server.url}/`, preset, file));
        } catch (error) {
          console.warn(`Lighthouse (${preset}) failed: ${(error as Error).message}`);
        }
      }
      results.sort((a, b) => a.score - b.score);
      const median = results[Math.floor(results.length / 2)];
      if (!median) continue;
      median.allScores = results.map((r) => r.score);
      console.log(
        `\n== Lighthouse (${preset}) on Home: performance ${median.score} (runs: ${median.allScores.join(', ')})  ${JSON.stringify(median.metrics)}`,
      );
      lighthouse.push(median);
    }
    const first = lighthouse[0];
    budget =
      server && first
        ? await budgetFromServer(server.url, first.assetPaths, first.beforeFcpPaths)
        : budgetOf(indexHtmlAssets(), 'index.html');
  } finally {
    await server?.stop();
  }
  if (budget.missing?.length) {
    console.warn(`web/dist changed during the run: ${budget.missing.length} requested files were gone`);
  }
  console.log(
    `== Home first visit: JS ${(budget.jsGzip / 1000).toFixed(1)} kB gzip, CSS ${(budget.cssGzip / 1000).toFixed(1)} kB gzip (${budget.source})`,
  );
  return { budget, lighthouse, dataset: manifest.dataset };
}

async function machine() {
  let postgres = 'unknown';
  try {
    const db = await openTarget('full', 'pg').catch(() => openTarget('smoke', 'pg'));
    postgres = (await db.query<{ v: string }>(`SELECT current_setting('server_version') AS v`))[0]?.v ?? postgres;
    await db.close();
  } catch {}
  const pglite = JSON.parse(
    readFileSync(path.join(BENCH_DIR, '../node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres,
    pglite: pglite.version,
  };
}

/**
 * Other work on the machine distorts every figure: wait (bounded) until the 1-minute load average
 * is below `threshold` before starting.
 */
async function waitForIdle(threshold: number, maxWaitS: number) {
  const deadline = Date.now() + maxWaitS * 1000;
  while ((os.loadavg()[0] as number) > threshold && Date.now() < deadline) {
    console.log(`waiting for the machine to be idle: load average ${os.loadavg()[0]?.toFixed(1)} > ${threshold}`);
    await new Promise((r) => setTimeout(r, 15_000));
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const scale = resolveScale(args);
  const targets = resolveTargets(args);
  const seed = Number(args.get('seed') || process.env.BENCH_SEED || 1);
  const main = datasetSpec(scale, seed, 'main');
  const curve = datasetSpec(scale, seed, 'curve');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const runDir = path.join(RESULTS_DIR, `${scale.name}-${stamp}`);
  mkdirSync(runDir, { recursive: true });
  const onlyList = args.get('only') || process.env.BENCH_ONLY;
  const options: Options = {
    load: {
      connections: envNumber('BENCH_CONNECTIONS', 10),
      durationS: envNumber('BENCH_DURATION', scale.run.durationS),
      warmupS: Number(process.env.BENCH_WARMUP ?? scale.run.warmupS),
    },
    floorDurationS: envNumber('BENCH_FLOOR_DURATION', scale.run.floorDurationS),
    lighthouseRuns: Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? scale.run.lighthouseRuns),
    curveRounds: scale.run.curveRounds,
    only: onlyList ? new Set(onlyList.split(',')) : null,
    cpuProf: args.get('cpu-prof') === 'true' || process.env.BENCH_CPU_PROF === '1',
    runDir,
    redisUrl: args.get('no-redis') === 'true' ? null : await reachableRedis(),
  };
  const idleThreshold = Number(args.get('wait-idle') || process.env.BENCH_WAIT_IDLE || 0);
  if (idleThreshold > 0) await waitForIdle(idleThreshold, 1800);
  const started = performance.now();
  const result: RunResult = {
    date: new Date().toISOString(),
    scale: scale.name,
    seed,
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_'))) as Record<
      string,
      string
    >,
    load: options.load,
    machine: await machine(),
    loadAvgAtStart: os.loadavg()[0] as number,
    targets: [],
    curve: null,
    web: null,
  };
  // `--only curve` runs the scale curve alone.
  const curveOnly = options.only?.size === 1 && options.only.has('curve');
  const webOnly = options.only?.size === 1 && options.only.has('web');
  if (!curveOnly && !webOnly) {
    for (const target of targets) result.targets.push(await benchTarget(main.name, target, options));
  }
  const wantsCurve = !webOnly && (!options.only || options.only.has('following') || options.only.has('curve'));
  if (targets.includes('pg') && args.get('no-curve') !== 'true' && wantsCurve) {
    result.curve = await scaleCurve(main.name, curve.name, options);
  }
  if (args.get('no-web') !== 'true' && !curveOnly)
    result.web = await webBudget(main.name, targets[0] as Target, options);

  writeFileSync(path.join(runDir, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(path.join(RESULTS_DIR, `latest-${scale.name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  const markdown = writeMarkdown(result);
  writeFileSync(path.join(runDir, 'result.md'), markdown);
  writeFileSync(path.join(RESULTS_DIR, `latest-${scale.name}.md`), markdown);
  printReport(result);
  console.log(
    `\nbench done in ${formatMs(performance.now() - started)}; results in ${path.relative(process.cwd(), runDir)}`,
  );
}

main().then(
  // A lingering handle (a keep-alive socket, a pool) must not keep a finished run alive.
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
