/**
 * Issue 9, home feeds: a kill -9 of the process running a fan-out loses nothing. The post joined the
 * outbox with the post; the process is killed while its fan-out pass holds the outbox row (its Redis
 * stalls, so the pass is caught in the middle); the pass's transaction dies with the connection,
 * another process started afterwards takes the row again, and the post reaches the follower's feed.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  HttpClient,
  type PrivatePostgres,
  postgresForTests,
  REDIS,
  Relay,
  redisForTests,
  type ServerProcess,
  sleep,
  startPrivatePostgres,
  startServer,
  tempDir,
} from './support.ts';

const postgresRuns = postgresForTests('feeds-crash');

const redisAvailable = await redisForTests('feeds-crash');

/** Polls `check` every 50 ms until it is truthy (bounded: `tries`). */
async function until<T>(what: string, check: () => Promise<T>, tries = 600): Promise<NonNullable<T>> {
  for (let i = 0; i < tries; i++) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    await sleep(50);
  }
  throw new Error(`${what}: not within ${(tries * 50) / 1000} s`);
}

describe.skipIf(!postgresRuns || !redisAvailable)(
  'home feeds survive a kill -9 of the process fanning out, and Redis away',
  () => {
    let pg_: PrivatePostgres;
    let relay: Relay;
    let redis: Redis;
    let db: pg.Client;
    const servers: ServerProcess[] = [];
    const dataDir = tempDir('pipit-feeds-crash-');
    const prefix = `pipit-feeds-crash-${randomBytes(4).toString('hex')}:`;

    beforeAll(async () => {
      pg_ = await startPrivatePostgres();
      relay = new Relay(await freePort());
      await relay.open();
      redis = new Redis(REDIS.toString());
      db = new pg.Client({ connectionString: pg_.url });
      await db.connect();
    });
    afterAll(async () => {
      for (const server of servers) await server.stop('SIGKILL');
      await db?.end();
      await redis?.quit();
      await relay?.cut();
      await pg_?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const start = async () => {
      const server = await startServer({
        dataDir,
        databaseUrl: pg_.url,
        env: {
          REDIS_URL: `redis://127.0.0.1:${relay.port}`,
          REDIS_PREFIX: prefix,
          JOB_EXPIRE_SECONDS: '2',
          JOB_MAINTENANCE_SECONDS: '1',
        },
      });
      servers.push(server);
      return server;
    };

    /** Two new members, the reader following the author and having read their home (its feed built by a job). */
    const authorAndReader = async (server: ServerProcess, authorName: string, readerName: string) => {
      const author = new HttpClient(server.url);
      const authorId = (await author.signUp(authorName)).id;
      const reader = new HttpClient(server.url);
      const readerId = (await reader.signUp(readerName)).id;
      expect((await reader.request('PUT', `/api/users/${authorId}/follow`)).status).toBe(200);
      expect((await reader.request('GET', '/api/timeline/following')).status).toBe(200);
      await until(`${readerName}’s feed built`, () => redis.exists(`${prefix}feed:${readerId}:floor`));
      return { author, readerId };
    };

    it('runs the fan-out again after a restart, and the post reaches the feed', async () => {
      const a = await start();
      const { author: ana, readerId: benId } = await authorAndReader(a, 'ana', 'ben');

      // Redis stops answering (connected, silent): the fan-out of the next post hangs half-way.
      relay.stalled = true;
      const res = await ana.request('POST', '/api/posts', { text: 'fanned out after a crash' });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      // The row is there and a pass holds it (a locked row is skipped by `skip locked`).
      const outbox = async () => (await db.query('select post_id from feed_outbox where post_id = $1', [id])).rowCount;
      const free = async () =>
        (await db.query('select post_id from feed_outbox where post_id = $1 for update skip locked', [id])).rowCount;
      await until('the fan-out running', async () => (await outbox()) === 1 && (await free()) === 0);
      await a.stop('SIGKILL');
      relay.stalled = false;
      expect(await redis.zscore(`${prefix}feed:${benId}`, id.padStart(16, '0'))).toBeNull();

      // The killed pass rolled back: the row waits, free.
      await until('the row free again', async () => (await outbox()) === 1 && (await free()) === 1);
      // Another process takes it, and it lands.
      const b = await start();
      await until('the post in ben’s feed', () => redis.zscore(`${prefix}feed:${benId}`, id.padStart(16, '0')));
      // The pass deletes the row when it commits, a moment after the feed is written.
      await until('the outbox empty', async () => (await outbox()) === 0);
      const health = (await (await fetch(`${b.url}/healthz`)).json()) as { status: string; redis: string };
      expect(health).toMatchObject({ status: 'ok', redis: 'ok' });
    });

    it('keeps a post whose fan-out failed (Redis away) in the outbox, and fans it out once Redis is back', async () => {
      const b = servers[servers.length - 1] as ServerProcess;
      const { author: cara, readerId: danId } = await authorAndReader(b, 'cara', 'dan');

      await relay.cut();
      const failures = () => b.output().split('a fan-out failed').length - 1;
      const before = failures();
      const res = await cara.request('POST', '/api/posts', { text: 'written while Redis was away' });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      // The pass failed and rolled back (its log line is the signal): the post waits in the outbox.
      await until('a failed pass', async () => failures() > before);
      expect((await db.query('select post_id from feed_outbox where post_id = $1', [id])).rowCount).toBe(1);

      await relay.open();
      await until('the post in dan’s feed', () => redis.zscore(`${prefix}feed:${danId}`, id.padStart(16, '0')));
      await until('the outbox empty', async () => (await db.query('select 1 from feed_outbox')).rowCount === 0);
    });
  },
);
