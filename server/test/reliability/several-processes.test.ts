/**
 * Issue 9, several processes: two real server processes on one (private) PostgreSQL and the local
 * Redis. Live events cross from one process to the other through Redis pub/sub, sign-in attempts
 * are counted in Redis across both, a visitor's cached page on one process is dropped by a write on
 * the other; and with Redis cut off both keep serving (health says degraded), then recover by
 * themselves when it returns.
 *
 * The processes reach Redis through a TCP relay in this test, so an outage is a real one for them
 * (connections cut, new ones refused) without stopping the machine's Redis for anyone else.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from '../stream/sse-client.ts';
import {
  freePort,
  HttpClient,
  PASSWORD,
  type PrivatePostgres,
  postgresForTests,
  Relay,
  redisForTests,
  type ServerProcess,
  sleep,
  startPrivatePostgres,
  startServer,
  tempDir,
} from './support.ts';

const postgresRuns = postgresForTests('several-processes');

const redisAvailable = await redisForTests('several-processes');

/** Waits for a promise, failing with `what` after `ms` (a bound on a signal, not a guess at timing). */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls /healthz until `test` passes (a failure bound far above a busy machine's delay: 300 tries, 200 ms apart). */
async function healthUntil(server: ServerProcess, test: (body: Record<string, string>) => boolean) {
  let last: Record<string, string> = {};
  for (let i = 0; i < 300; i++) {
    const res = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
    last = (await res.json()) as Record<string, string>;
    if (test(last)) return { status: res.status, body: last };
    await sleep(200);
  }
  throw new Error(`/healthz never matched; last: ${JSON.stringify(last)}`);
}

describe.skipIf(!postgresRuns || !redisAvailable)('two server processes on one PostgreSQL and Redis', () => {
  let pg: PrivatePostgres;
  let relay: Relay;
  let a: ServerProcess;
  let b: ServerProcess;
  const dataDirs = [tempDir('pipit-two-a-'), tempDir('pipit-two-b-')];

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    relay = new Relay(await freePort());
    await relay.open();
    const env = {
      REDIS_URL: `redis://127.0.0.1:${relay.port}`,
      REDIS_PREFIX: `pipit-two-${randomBytes(4).toString('hex')}:`,
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_SIGNIN_ACCOUNT: '3/1h',
      RATE_LIMIT_REGISTER: '1000/5m',
      // Kept for ten minutes, a visitors' page can only leave by an event from the other process.
      VISITOR_CACHE_MS: '600000',
    };
    // Started one after the other would hide a migration race: started together, they take turns.
    const started = await Promise.all(dataDirs.map((dataDir) => startServer({ dataDir, databaseUrl: pg.url, env })));
    a = started[0] as ServerProcess;
    b = started[1] as ServerProcess;
  });
  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await relay?.cut();
    await pg?.destroy();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a post made through A reaches a stream on B, and drops the page a visitor on B had cached', async () => {
    const alice = new HttpClient(a.url);
    const aliceId = (await alice.signUp('alice')).id;
    const bob = new HttpClient(b.url);
    await bob.signUp('bob');
    expect((await bob.request('PUT', `/api/users/${aliceId}/follow`)).status).toBe(200);

    // A visitor's Everyone page on B, cached there before the post.
    const visitor = new HttpClient(b.url);
    const before = await visitor.request('GET', '/api/timeline/everyone');
    expect(before.headers.get('cache-control')).toBe('public, max-age=1');
    await before.json();

    const stream = await openStream(`${b.url}/api/stream`, { cookie: bob.cookies.header() });
    try {
      expect(stream.res.status).toBe(200);
      const started = Date.now();
      const res = await alice.request('POST', '/api/posts', { text: 'from process A' });
      expect(res.status).toBe(201);
      const post = (await res.json()) as { id: string };
      const event = await within(
        stream.next((m) => m.data.type === 'post.created' && m.data.post.id === post.id),
        60_000,
        'the post on B',
      );
      // A measure, not a bound: how long the crossing takes is for the bench; a busy machine stretches it.
      console.info(`commit on A → event on B: ${Date.now() - started} ms`);
      expect(event.data.type === 'post.created' && event.data.timelines).toEqual(['following', 'everyone']);

      // B has handled the event (its stream carried it), so its visitors' cache is gone too: with the
      // cache's lifetime at ten minutes, only the event can have dropped it.
      const after = (await (await visitor.request('GET', '/api/timeline/everyone')).json()) as {
        items: { id: string }[];
      };
      expect(after.items[0]?.id).toBe(post.id);
    } finally {
      await stream.close();
    }
  });

  it('counts sign-in attempts across both processes', async () => {
    await new HttpClient(a.url).signUp('carol'); // one successful attempt for carol@example.com
    const attempt = async (server: ServerProcess, password: string) => {
      const client = new HttpClient(server.url).withCsrf();
      const form = new URLSearchParams({
        email: 'carol@example.com',
        password,
        csrfToken: client.csrfToken!,
        callbackUrl: `${server.url}/`,
        json: 'true',
      });
      return client.request('POST', '/api/auth/callback/credentials', form);
    };
    // The limit is 3 per account: the sign-up's sign-in on A, one wrong password on B, one on A…
    expect((await attempt(b, 'wrong password 1')).status).toBe(401);
    expect((await attempt(a, 'wrong password 2')).status).toBe(401);
    // …and the fourth, on B, is refused even with the right password: B counted A's attempts.
    const refused = await attempt(b, PASSWORD);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe('RATE_LIMITED');
  });

  it("B's cached session follows what happens through A: a name edited shows, a sign-out closes it", async () => {
    const frank = new HttpClient(a.url);
    await frank.signUp('frank');
    const onB = new HttpClient(b.url);
    for (const [name, value] of frank.cookies) onB.cookies.set(name, value);
    onB.csrfToken = frank.csrfToken;
    const current = async () => {
      const res = await onB.request('GET', '/api/current');
      return { status: res.status, name: res.status === 200 ? ((await res.json()) as { name: string }).name : null };
    };
    // B resolves the session, and keeps it.
    expect(await current()).toEqual({ status: 200, name: 'frank' });

    expect((await frank.request('PATCH', '/api/edit', { name: 'Frank Edited' })).status).toBe(200);
    // The edit's event crosses through Redis: B answers the new name as soon as it has heard it.
    expect(await currentUntil((now) => now.name === 'Frank Edited')).toEqual({ status: 200, name: 'Frank Edited' });

    const signOut = new URLSearchParams({ csrfToken: frank.csrfToken!, json: 'true' });
    expect((await frank.request('POST', '/api/auth/signout', signOut)).status).toBe(200);
    expect(await currentUntil((now) => now.status === 401)).toEqual({ status: 401, name: null });
    // And it stays closed: the session is gone from the database, not only from B's memory.
    expect((await onB.request('POST', '/api/posts', { text: 'after sign-out' })).status).toBe(401);

    /** Asks B until `test` passes: the event's crossing is the signal (failure bound: 3,000 tries, 20 ms apart). */
    async function currentUntil(test: (now: Awaited<ReturnType<typeof current>>) => boolean) {
      let now = await current();
      for (let i = 0; i < 3_000 && !test(now); i++) {
        await sleep(20);
        now = await current();
      }
      return now;
    }
  });

  it('a stream on B closes the moment its session is ended through A (signed out everywhere)', async () => {
    const gina = new HttpClient(a.url);
    await gina.signUp('gina');
    // A second sign-in of hers (another device), whose live stream is held by B.
    const device = new HttpClient(b.url);
    device.withCsrf();
    await device.signIn('gina@example.com');
    const stream = await openStream(`${b.url}/api/stream`, { cookie: device.cookies.header() });
    try {
      expect(stream.res.status).toBe(200);
      // "Sign out all other sessions" through A: the event crosses through Redis and B closes the stream
      // opened with the ended session. The end of the stream is the signal.
      expect((await gina.request('POST', '/api/sessions/revoke-others')).status).toBe(204);
      await within(stream.ended(), 60_000, "the other device's stream closed on B");
      // Her own session (through A) still holds.
      expect((await gina.request('GET', '/api/current')).status).toBe(200);
    } finally {
      await stream.close();
    }
  });

  it('keeps serving with Redis cut off, says degraded, and recovers by itself', async () => {
    const dave = new HttpClient(a.url);
    const daveId = (await dave.signUp('dave')).id;
    const erin = new HttpClient(b.url);
    await erin.signUp('erin');
    expect((await erin.request('PUT', `/api/users/${daveId}/follow`)).status).toBe(200);
    const stream = await openStream(`${b.url}/api/stream`, { cookie: erin.cookies.header() });
    try {
      await relay.cut();
      for (const server of [a, b]) {
        const health = await healthUntil(server, (body) => body.status === 'degraded');
        expect(health).toEqual({ status: 200, body: { status: 'degraded', database: 'pg', redis: 'unavailable' } });
      }

      // Writes and reads go on; the home page comes from the database.
      const res = await dave.request('POST', '/api/posts', { text: 'while Redis is away' });
      expect(res.status).toBe(201);
      const during = (await res.json()) as { id: string };
      const home = (await (await erin.request('GET', '/api/timeline/following')).json()) as { items: { id: string }[] };
      expect(home.items[0]?.id).toBe(during.id);

      await relay.open();
      for (const server of [a, b]) {
        const health = await healthUntil(server, (body) => body.status === 'ok');
        expect(health).toEqual({ status: 200, body: { status: 'ok', database: 'pg', redis: 'ok' } });
      }
      // B's stream is told it may have missed events (it reloads), then live events flow again.
      await within(
        stream.next((m) => m.data.type === 'reset'),
        60_000,
        'a reset on B',
      );
      const again = (await (await dave.request('POST', '/api/posts', { text: 'Redis is back' })).json()) as {
        id: string;
      };
      await within(
        stream.next((m) => m.data.type === 'post.created' && m.data.post.id === again.id),
        60_000,
        'the post after recovery on B',
      );
    } finally {
      await stream.close();
      await relay.open().catch(() => {});
    }
  });

  it('WORKERS=2 runs two workers on one port and stops them all on SIGTERM', async () => {
    const dataDir = tempDir('pipit-workers-');
    const server = await startServer({
      dataDir,
      databaseUrl: pg.url,
      env: {
        WORKERS: '2',
        LOG_LEVEL: 'info',
        REDIS_URL: `redis://127.0.0.1:${relay.port}`,
        REDIS_PREFIX: `pipit-workers-${randomBytes(4).toString('hex')}:`,
      },
    });
    try {
      // Both workers say they listen (each on the shared port); wait for the second one's line (or an exit).
      let exited = false;
      void server.exited.then(() => (exited = true));
      while (!exited && (server.output().match(/Pipit is running/g) ?? []).length < 2) await sleep(200);
      expect(server.output().match(/Pipit is running/g)).toHaveLength(2);
      const visitor = new HttpClient(server.url);
      for (let i = 0; i < 4; i++) expect((await visitor.request('GET', '/api/timeline/everyone')).status).toBe(200);
      const stopped = await server.stop('SIGTERM');
      expect(stopped).toEqual({ code: 0, signal: null });
      await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    } finally {
      await server.stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
