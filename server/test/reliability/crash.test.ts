/**
 * Item 10: kill -9 the server in the middle of a write load (posts, replies, likes, follows),
 * restart it on the same data, and check that every write acknowledged with a 2xx before the kill
 * is there and every counter (posts, replies, likes, followers, following) equals the rows it
 * counts — on the embedded database and on a private PostgreSQL.
 */
import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { CSRF_HEADER } from '@pipit/contract';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type HttpClient,
  type Member,
  type PrivatePostgres,
  pgliteQuery,
  pgQuery,
  postgresForTests,
  type ServerOptions,
  type ServerProcess,
  signUpMembers,
  sleep,
  startPrivatePostgres,
  startServer,
  summarize,
  tempDir,
  verifyDurability,
  WriteLoad,
} from './support.ts';

const postgresRuns = postgresForTests('crash');

const MEMBERS = 5;
/** Writes the server must have acknowledged before the kill (a count, not a time: a busy machine only takes longer). */
const ACKNOWLEDGED_BEFORE_KILL = 20;

/**
 * A post whose body is half sent: the server is left waiting for the rest, so the kill cuts it for
 * certain. Resolves with how it ended: an answer's status, or the network error.
 */
async function holdWrite(server: ServerProcess, client: HttpClient): Promise<{ ended: Promise<string> }> {
  const body = JSON.stringify({ text: 'held open at the kill' });
  const req = request(`${server.url}/api/posts`, {
    method: 'POST',
    headers: {
      cookie: client.cookies.header(),
      [CSRF_HEADER]: client.csrfToken ?? '',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    },
  });
  const ended = new Promise<string>((resolve) => {
    req.once('response', (res) => resolve(`answered ${res.statusCode}`));
    req.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
  // The callback runs once the bytes are handed to the kernel, so the connection is open by then.
  await new Promise<void>((resolve, reject) => req.write(body.slice(0, 10), (e) => (e ? reject(e) : resolve())));
  // Wrapped: an async function returning the promise itself would wait for it to settle.
  return { ended };
}

async function crashAndRecover(options: ServerOptions, tag: string) {
  const first = await startServer(options);
  const members = await signUpMembers(first.url, `${tag}`, MEMBERS);
  const load = new WriteLoad(members, tag);
  let loadEnded = false;
  // maxMs only bounds a broken run; the kill below normally ends the load long before.
  const running = load
    .run({ maxMs: 90_000, workersPerMember: 2, maxFailures: 2, readShare: 0.1 })
    .finally(() => (loadEnded = true));
  while (load.acknowledgedWrites() < ACKNOWLEDGED_BEFORE_KILL) {
    if (loadEnded) throw new Error(`the load ended before the kill: ${JSON.stringify(summarize(load.records))}`);
    await sleep(20);
  }
  const held = await holdWrite(first, (members[0] as Member).client);
  // Every worker always has one request open between answers, so these are the requests in flight.
  const openAtKill = load.records.filter((r) => r.endedAt === 0);
  const killedAt = Date.now();
  const exit = await first.stop('SIGKILL');
  expect(exit.signal).toBe('SIGKILL');
  load.stop();
  await running;
  const acknowledged = load.acknowledgedWrites();
  expect(acknowledged, `writes acknowledged: ${JSON.stringify(summarize(load.records))}`).toBeGreaterThanOrEqual(
    ACKNOWLEDGED_BEFORE_KILL,
  );
  // The kill landed mid-load: requests were open, the held one certainly got no answer, and each
  // open one either was answered before the kill reached it (and then checked below) or was cut.
  expect(openAtKill.length, 'requests open at the kill').toBeGreaterThan(0);
  expect(await held.ended, 'the write held open at the kill').not.toMatch(/^answered/);
  for (const r of openAtKill) {
    const answered = r.status !== null && r.status < 500 && !r.failure;
    expect(answered || r.failure?.kind === 'none' || r.failure?.kind === 'partial', JSON.stringify(r)).toBe(true);
  }
  // The held write, and the load's requests the kill cut off.
  const cut = 1 + load.records.filter((r) => r.failure && r.startedAt <= killedAt).length;

  // Restart on the same data; the server must come up by itself (stale lock taken over, no repair step).
  const second: ServerProcess = await startServer(options);
  // Through the API: a sample of acknowledged posts is served again.
  const sample = [...load.posts.keys()].slice(-20);
  for (const id of sample) {
    const res = await fetch(`${second.url}/api/posts/${id}`);
    expect(res.status, `post ${id} after restart`).toBe(200);
  }
  return { second, load, acknowledged, cut };
}

describe('crash without loss: embedded database', () => {
  const dataDir = tempDir('pipit-crash-');
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write and consistent counters after kill -9', async () => {
    const { second, load, acknowledged, cut } = await crashAndRecover({ dataDir }, 'pg0lite');
    server = second;
    expect((await second.stop('SIGTERM')).code).toBe(0);
    const db = await pgliteQuery(dataDir);
    try {
      expect(await verifyDurability(db.query, load)).toEqual([]);
    } finally {
      await db.end();
    }
    console.info(`embedded: ${acknowledged} acknowledged writes, ${cut} requests cut off by kill -9`);
  });
});

describe.skipIf(!postgresRuns)('crash without loss: PostgreSQL', () => {
  const dataDir = tempDir('pipit-crash-pg-');
  let pg: PrivatePostgres | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await pg?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write and consistent counters after kill -9', async () => {
    pg = await startPrivatePostgres();
    const { second, load, acknowledged, cut } = await crashAndRecover({ dataDir, databaseUrl: pg.url }, 'pg1sql');
    server = second;
    const db = await pgQuery(pg.url);
    try {
      expect(await verifyDurability(db.query, load)).toEqual([]);
    } finally {
      await db.end();
    }
    console.info(`PostgreSQL: ${acknowledged} acknowledged writes, ${cut} requests cut off by kill -9`);
  });
});
