/**
 * Item 12 (PostgreSQL): stop a private PostgreSQL under the running server. Requests that need the
 * database get a prompt 503 SERVICE_UNAVAILABLE with Retry-After (never a 500, never a hang),
 * /healthz says unhealthy, and once PostgreSQL is back the same server process recovers by itself.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HttpClient,
  type PrivatePostgres,
  postgresForTests,
  type ServerProcess,
  sleep,
  startPrivatePostgres,
  startServer,
  tempDir,
} from './support.ts';

const postgresRuns = postgresForTests('database-outage');

/** Requests that each need the database, as a signed-in member: health, session, a read and a write. */
async function probe(client: HttpClient) {
  const started = Date.now();
  const answers = await Promise.all([
    client.request('GET', '/healthz'),
    client.request('GET', '/api/current'),
    client.request('GET', '/api/timeline/everyone'),
    client.request('POST', '/api/posts', { text: 'during the outage' }),
  ]);
  const results = await Promise.all(
    answers.map(async (res) => ({
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: (await res.json()) as { code?: string },
    })),
  );
  return { results, ms: Date.now() - started };
}

describe.skipIf(!postgresRuns)('PostgreSQL outage', () => {
  let pg: PrivatePostgres;
  let server: ServerProcess;
  const dataDir = tempDir('pipit-outage-');

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    server = await startServer({ dataDir, databaseUrl: pg.url });
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await pg?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with a code while PostgreSQL is down and recovers without a restart', async () => {
    const member = new HttpClient(server.url);
    await member.signUp('outage');
    const before = await probe(member);
    expect(before.results.map((r) => r.status)).toEqual([200, 200, 200, 201]);

    // A clean shutdown (connections told to close), then a crash (connections just drop).
    for (const mode of ['fast', 'immediate'] as const) {
      await pg.stop(mode);
      // Twice: the first round meets pooled connections PostgreSQL just closed, the second none.
      for (let round = 0; round < 2; round++) {
        const down = await probe(member);
        expect(down.ms, 'answers come promptly').toBeLessThan(12_000);
        const [health, ...rest] = down.results;
        expect(health!.status).toBe(503);
        expect(health!.body.code).toBe('SERVICE_UNAVAILABLE');
        for (const r of rest) {
          expect(r.status, JSON.stringify(r)).toBe(503);
          expect(r.body.code).toBe('SERVICE_UNAVAILABLE');
          expect(Number(r.retryAfter)).toBeGreaterThan(0);
        }
      }
      expect(server.child.exitCode, 'the server keeps running').toBeNull();

      await pg.start();
      const deadline = Date.now() + 30_000;
      let healthy = false;
      while (Date.now() < deadline && !healthy) {
        healthy = (await fetch(`${server.url}/healthz`)).status === 200;
        if (!healthy) await sleep(250);
      }
      expect(healthy, 'healthy again within 30 s').toBe(true);
      const after = await probe(member);
      expect(after.results.map((r) => r.status)).toEqual([200, 200, 200, 201]);
    }
    expect(server.child.exitCode).toBeNull();
  });
});
