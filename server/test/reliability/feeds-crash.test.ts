/**
 * Issue 9, home feeds: a kill -9 of the process running a fan-out loses nothing. The post's job was
 * enqueued in the post's transaction; the process is killed while the job runs (its Redis stalls, so
 * the job is caught in the middle); another process started afterwards runs it again once it expires,
 * and the post reaches the follower's feed.
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

describe.skipIf(!postgresRuns || !redisAvailable)('home feeds survive a kill -9 of the process fanning out', () => {
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

  it('runs the fan-out again after a restart, and the post reaches the feed', async () => {
    const a = await start();
    const ana = new HttpClient(a.url);
    const anaId = (await ana.signUp('ana')).id;
    const ben = new HttpClient(a.url);
    const benId = (await ben.signUp('ben')).id;
    expect((await ben.request('PUT', `/api/users/${anaId}/follow`)).status).toBe(200);
    // Ben reads his home: his feed is built by a job.
    expect((await ben.request('GET', '/api/timeline/following')).status).toBe(200);
    await until('ben’s feed built', () => redis.exists(`${prefix}feed:${benId}:floor`));

    // Redis stops answering (connected, silent): the fan-out of the next post hangs half-way.
    relay.stalled = true;
    const res = await ana.request('POST', '/api/posts', { text: 'fanned out after a crash' });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await until('the fan-out running', async () => {
      const { rows } = await db.query(
        `select state from pgboss.job where name = 'feed-fanout' and data->>'postId' = $1`,
        [id],
      );
      return rows[0]?.state === 'active';
    });
    await a.stop('SIGKILL');
    relay.stalled = false;
    expect(await redis.zscore(`${prefix}feed:${benId}`, id.padStart(16, '0'))).toBeNull();

    // Another process: the job expires, is retried, and lands.
    const b = await start();
    await until('the post in ben’s feed', () => redis.zscore(`${prefix}feed:${benId}`, id.padStart(16, '0')));
    // pg-boss marks the job completed after its handler returns, a moment after the feed is written:
    // wait for that, then check it is the one job (not a second copy).
    const states = async () =>
      (
        await db.query(`select state from pgboss.job where name = 'feed-fanout' and data->>'postId' = $1`, [id])
      ).rows.map((r) => r.state as string);
    await until('the job completed', async () => (await states()).includes('completed'));
    expect(await states()).toEqual(['completed']);
    const health = (await (await fetch(`${b.url}/healthz`)).json()) as { status: string; redis: string };
    expect(health).toMatchObject({ status: 'ok', redis: 'ok' });
  });
});
