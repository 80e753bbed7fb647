/**
 * Item 11: SIGTERM during a mixed load. Requests in flight finish with their real answer; requests
 * arriving after the signal get 503 or a refused connection, never a half-written answer or a 500;
 * the process exits 0 within its grace period, and every acknowledged write is in the database.
 */
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/db/client.ts';
import { newCsrfCookie } from '../../src/lib/auth-cookies.ts';
import { resetDb, testConfig } from '../helpers/app.ts';
import {
  AUTH_SECRET,
  networkErrorCode,
  PASSWORD,
  pgliteQuery,
  type ServerProcess,
  signUpMembers,
  sleep,
  startServer,
  summarize,
  tempDir,
  verifyDurability,
  WriteLoad,
} from './support.ts';

/** Errors that mean "no answer at all": the connection was refused or closed before any byte. */
const NO_ANSWER = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'other side closed',
]);

describe('graceful stop', () => {
  const dataDir = tempDir('pipit-stop-');
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes in-flight requests, refuses new ones cleanly, exits 0 and loses nothing', async () => {
    server = await startServer({ dataDir });
    const members = await signUpMembers(server.url, 'grace', 4);
    const load = new WriteLoad(members, 'grace');
    const running = load.run({ maxMs: 30_000, workersPerMember: 3, maxFailures: 3, readShare: 0.3 });
    await sleep(1_500);

    // Sign-ups provably in flight when the signal comes: the server's "100 Continue" says it has
    // routed each one (past the drain check), and their bodies are sent only after the signal.
    const slow = Array.from({ length: 3 }, (_, i) => heldSignUp(server!.url, `slow${i}`));
    await Promise.all(slow.map((s) => s.routed));
    const sigtermAt = Date.now();
    server.child.kill('SIGTERM');
    const stopped = server.stop('SIGTERM', 20_000);
    for (const s of slow) s.sendBody();
    const exit = await stopped;
    const stoppedIn = Date.now() - sigtermAt;
    load.stop();
    await running;
    const slowResults = await Promise.all(slow.map((s) => s.answer));

    const summary = JSON.stringify({
      exit,
      stoppedIn,
      load: summarize(load.records),
      slow: slowResults.map((r) => r.status ?? r.error),
    });
    expect(exit.code, summary).toBe(0);
    expect(stoppedIn, summary).toBeLessThan(10_000);

    // Never a half-written answer, never a 5xx other than 503.
    for (const r of load.records) {
      expect(r.failure?.kind, `${r.op}: ${JSON.stringify(r)}`).not.toBe('partial');
      expect(r.failure?.kind, `${r.op}: ${JSON.stringify(r)}`).not.toBe('timeout');
      if (r.status !== null) expect([200, 201, 204, 503], `${r.op}: ${JSON.stringify(r)}`).toContain(r.status);
      if (r.status === 503) expect(r.code).toBe('SERVICE_UNAVAILABLE');
      if (r.failure) expect(NO_ANSWER, `${r.op}: ${JSON.stringify(r)}`).toContain(r.failure.code);
    }
    // Requests well under way when the signal came finished with their real answer.
    const underWay = load.records.filter((r) => r.startedAt < sigtermAt - 500 && r.endedAt >= sigtermAt);
    for (const r of underWay) expect(r.status, JSON.stringify(r)).not.toBeNull();
    const finishedAfterSignal = load.records.filter(
      (r) => r.startedAt < sigtermAt && r.endedAt >= sigtermAt && r.status !== null && r.status < 300,
    );
    const slowDone = slowResults.filter((r) => r.status === 201).length;
    expect(finishedAfterSignal.length + slowDone, `in-flight work finished after SIGTERM: ${summary}`).toBeGreaterThan(
      0,
    );
    // Every sign-up routed before the signal finished with its real answer.
    for (const r of slowResults) expect(r.status, JSON.stringify(r)).toBe(201);
    // Once stopped, the port refuses connections.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();

    const db = await pgliteQuery(dataDir);
    try {
      expect(await verifyDurability(db.query, load)).toEqual([]);
      // A registration answered 201 is there too.
      const users = await db.query("SELECT username FROM users WHERE username LIKE 'slow%'");
      expect(users.length).toBe(slowDone);
    } finally {
      await db.end();
    }
    console.info(
      `graceful stop: ${load.acknowledgedWrites()} acknowledged writes, stopped in ${stoppedIn} ms, ${finishedAfterSignal.length} requests and ${slowDone} sign-ups finished after SIGTERM; ${summary}`,
    );
  });
});

describe('draining (in process, raw HTTP on 127.0.0.1)', () => {
  let db: Awaited<ReturnType<typeof openDatabase>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let port: number;
  const config = testConfig({ rateLimits: { ...testConfig().rateLimits, enabled: false } });
  const csrf = newCsrfCookie(config.authSecret);

  beforeEach(async () => {
    db ??= await openDatabase({ databaseUrl: null, pgliteDir: 'memory://' });
    await resetDb(db);
    app = await buildApp(config, { db }); // not listening yet: each test adds its hooks first
  });
  const listen = async () => Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
  afterAll(async () => {
    await db?.close();
  });

  function open() {
    const socket = connect(port, '127.0.0.1');
    const state = { raw: '', closed: false };
    socket.on('data', (chunk) => {
      state.raw += chunk;
    });
    const ended = new Promise<void>((resolve) =>
      socket.on('close', () => {
        state.closed = true;
        resolve();
      }),
    );
    return { socket, state, ended };
  }

  const register = (name: string) => {
    const body = JSON.stringify({ email: `${name}@example.com`, password: PASSWORD, username: name, name });
    return [
      'POST /api/register HTTP/1.1',
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `Cookie: next-auth.csrf-token=${encodeURIComponent(csrf.value)}`,
      `X-CSRF-Token: ${csrf.token}`,
      '',
      body,
    ].join('\r\n');
  };

  /**
   * Holds every POST /api/register inside its handler until the test lets it go, so "a request in
   * flight when the drain starts" is a fact, not a guess about how long argon2 takes on this machine.
   * `arrived` resolves once the server is running the handler; `release()` lets it finish.
   */
  function holdRegistrations() {
    let arrived!: () => void;
    let release!: () => void;
    const gate = {
      arrived: new Promise<void>((resolve) => {
        arrived = resolve;
      }),
      released: new Promise<void>((resolve) => {
        release = resolve;
      }),
      release: () => release(),
    };
    app.addHook('preHandler', async (request) => {
      if (request.url !== '/api/register') return;
      arrived();
      await gate.released;
    });
    return gate;
  }

  /** Runs `step` once the drain has begun (after shutdownPlugin's preClose, before the listener closes). */
  function onDrainStart(step: () => Promise<void> | void) {
    app.addHook('preClose', async () => {
      await step();
    });
  }

  it('lets a keep-alive request in flight finish, then closes its connection and stops promptly', async () => {
    const held = holdRegistrations();
    onDrainStart(() => held.release()); // the request finishes only once the server is draining
    port = await listen();
    const { socket, state, ended } = open();
    socket.write(register('inflight'));
    await held.arrived;
    const started = Date.now();
    await app.close();
    const took = Date.now() - started;
    await ended;
    expect(state.raw).toMatch(/^HTTP\/1\.1 201/);
    expect(state.raw).toMatch(/\r\nconnection: close\r\n/i);
    expect(took, 'close() waits for the request, not for the keep-alive timeout').toBeLessThan(5_000);
  });

  it('answers a request that arrives during the drain with a coded 503, the security headers and Connection: close', async () => {
    // A connection busy with a held request keeps the drain going while the second one arrives.
    const held = holdRegistrations();
    let late!: ReturnType<typeof open>;
    onDrainStart(async () => {
      late = open();
      late.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await late.ended; // answered and closed while the busy request is still held
      held.release();
    });
    port = await listen();
    const busy = open();
    busy.socket.write(register('busy'));
    await held.arrived;
    await Promise.all([app.close(), busy.ended]);
    expect(busy.state.raw).toMatch(/^HTTP\/1\.1 201/);
    const answer = late.state.raw;
    expect(answer).toMatch(/^HTTP\/1\.1 503/);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toMatch(/\r\nretry-after: \d+\r\n/i);
    expect(answer).toMatch(/\r\ncontent-security-policy: [^\r]*frame-ancestors 'none'/i);
    expect(answer).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});

/**
 * POST /api/register with `Expect: 100-continue` on a raw socket. `routed` resolves when the server
 * answers "100 Continue": Node has handed the request to Fastify, whose synchronous onRequest hooks
 * (the drain check among them) have run before this process can send a signal. The body goes out
 * only on `sendBody()`; `answer` is the final status and body, or the network error.
 */
function heldSignUp(base: string, username: string) {
  const { hostname, port } = new URL(base);
  const { token, value } = newCsrfCookie(AUTH_SECRET);
  const body = JSON.stringify({ email: `${username}@example.com`, password: PASSWORD, username, name: 'Slow' });
  const socket = connect(Number(port), hostname);
  socket.write(
    [
      'POST /api/register HTTP/1.1',
      `Host: ${hostname}:${port}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Expect: 100-continue',
      `Cookie: next-auth.csrf-token=${encodeURIComponent(value)}`,
      `X-CSRF-Token: ${token}`,
      '',
      '',
    ].join('\r\n'),
  );
  let raw = '';
  let onRouted!: () => void;
  const routed = new Promise<void>((resolve) => {
    onRouted = resolve;
  });
  socket.on('data', (chunk) => {
    raw += chunk;
    if (raw.startsWith('HTTP/1.1 100')) onRouted();
  });
  const answer = new Promise<{ status: number | null; body?: string; error?: string }>((resolve) => {
    socket.on('error', (error) => resolve({ status: null, error: networkErrorCode(error) }));
    socket.on('close', () => {
      const final = raw.replace(/^HTTP\/1\.1 100[^\r]*\r\n\r\n/, '');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(final)?.[1];
      resolve(
        status ? { status: Number(status), body: final.split('\r\n\r\n')[1] } : { status: null, error: 'closed' },
      );
    });
  });
  return { routed, answer, sendBody: () => socket.write(body) };
}
