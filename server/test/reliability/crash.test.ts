/**
 * Item 10: kill -9 the server in the middle of a write load (posts, replies, likes, follows),
 * restart it on the same data, and check that every write acknowledged with a 2xx before the kill
 * is there and every counter (posts, replies, likes, followers, following) equals the rows it
 * counts — on the embedded database and on a private PostgreSQL.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type PrivatePostgres,
  pgliteQuery,
  pgQuery,
  postgresAvailable,
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

const MEMBERS = 5;
const LOAD_BEFORE_KILL_MS = 3_000;

async function crashAndRecover(options: ServerOptions, tag: string) {
  const first = await startServer(options);
  const members = await signUpMembers(first.url, `${tag}`, MEMBERS);
  const load = new WriteLoad(members, tag);
  const running = load.run({ maxMs: 30_000, workersPerMember: 2, maxFailures: 2, readShare: 0.1 });
  await sleep(LOAD_BEFORE_KILL_MS);
  const killedAt = Date.now();
  const exit = await first.stop('SIGKILL');
  expect(exit.signal).toBe('SIGKILL');
  load.stop();
  await running;
  const acknowledged = load.acknowledgedWrites();
  expect(
    acknowledged,
    `writes acknowledged before the kill: ${JSON.stringify(summarize(load.records))}`,
  ).toBeGreaterThan(20);
  // Some requests were cut off by the kill: the test really crashed mid-load.
  const cut = load.records.filter((r) => r.failure && r.startedAt <= killedAt).length;

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

describe.skipIf(!postgresAvailable)('crash without loss: PostgreSQL', () => {
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
