/**
 * Item 8, the X-Forwarded-For matrix. test/auth/rate-limit.test.ts proves the 26th sign-in in five
 * minutes gets 429 with Retry-After and that a spoofed X-Forwarded-For does not reset it with
 * TRUST_PROXY off. Here, with small limits so each case is quick: the client address is the socket
 * unless a proxy is trusted; with TRUST_PROXY=true the header names the client; with a list of
 * proxy addresses only those proxies are believed; with a hop count a client cannot reset its count
 * by prepending addresses. The same holds for registrations.
 */
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { signInWithPassword, TestClient, testConfig, useTestApp } from '../helpers/app.ts';

const LIMIT = 3;

function limits(): Partial<Config> {
  return {
    rateLimits: {
      ...testConfig().rateLimits,
      signInIp: { max: LIMIT, windowMs: 5 * 60_000 },
      register: { max: LIMIT, windowMs: 30 * 60_000 },
    },
  };
}

type Ctx = ReturnType<typeof useTestApp>;
let n = 0;

/** One sign-in attempt (a fresh browser, a fresh email so only the per-IP limit counts). */
async function signIn(ctx: Ctx, socket: string, xff?: string) {
  const options: Partial<InjectOptions> = {
    remoteAddress: socket,
    ...(xff ? { headers: { 'x-forwarded-for': xff } } : {}),
  };
  const res = await signInWithPassword(new TestClient(ctx), `who${n++}@example.com`, 'wrong password', {}, options);
  return res;
}

async function register(ctx: Ctx, socket: string, xff?: string) {
  const i = n++;
  return new TestClient(ctx)
    .withCsrf()
    .post(
      '/api/register',
      { email: `reg${i}@example.com`, password: 'a fine password 42', username: `reg${i}`, name: 'Reg' },
      { remoteAddress: socket, headers: xff ? { 'x-forwarded-for': xff } : {} },
    );
}

function expect429(res: Awaited<ReturnType<typeof signIn>>, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(429);
  expect(Number(res.headers['retry-after']), what).toBeGreaterThan(0);
  expect(res.json().code).toBe('RATE_LIMITED');
}

/** Uses up the limit with `send`, then returns the next answer. */
async function exhaust(send: (i: number) => Promise<Awaited<ReturnType<typeof signIn>>>, ok: number) {
  for (let i = 0; i < LIMIT; i++) expect((await send(i)).statusCode, `attempt ${i + 1}`).toBe(ok);
  return send(LIMIT);
}

describe('TRUST_PROXY off: the socket address counts, X-Forwarded-For is ignored', () => {
  const ctx = useTestApp({ ...limits(), trustProxy: false });

  it('sign-in: rotating X-Forwarded-For does not reset the count', async () => {
    expect429(await exhaust((i) => signIn(ctx, '10.1.0.1', `203.0.113.${i}`), 401), 'rotating XFF');
  });

  it('registration: rotating X-Forwarded-For does not reset the count', async () => {
    expect429(await exhaust((i) => register(ctx, '10.1.0.2', `203.0.113.${i}`), 201), 'rotating XFF');
  });
});

describe('TRUST_PROXY=true: X-Forwarded-For names the client', () => {
  const ctx = useTestApp({ ...limits(), trustProxy: true });

  it('each forwarded client has its own count', async () => {
    expect429(await exhaust(() => signIn(ctx, '10.2.0.1', '198.51.100.1'), 401), 'same forwarded client');
    // Another client behind the same proxy is not limited.
    expect((await signIn(ctx, '10.2.0.1', '198.51.100.2')).statusCode).toBe(401);
  });
});

describe('TRUST_PROXY=<proxy address>: only that proxy is believed', () => {
  const ctx = useTestApp({ ...limits(), trustProxy: '10.3.0.1' });

  it('through the trusted proxy, clients are told apart by X-Forwarded-For', async () => {
    expect429(await exhaust(() => signIn(ctx, '10.3.0.1', '198.51.100.10'), 401), 'via proxy');
    expect((await signIn(ctx, '10.3.0.1', '198.51.100.11')).statusCode).toBe(401);
  });

  it('a client connecting directly cannot reset its count with the header', async () => {
    expect429(await exhaust((i) => signIn(ctx, '10.3.9.9', `198.51.100.${100 + i}`), 401), 'direct, spoofed XFF');
  });
});

describe('TRUST_PROXY=1 (one hop): prepended addresses do not help', () => {
  const ctx = useTestApp({ ...limits(), trustProxy: 1 });

  it('the proxy-appended address counts, whatever the client put before it', async () => {
    expect429(
      await exhaust((i) => signIn(ctx, '10.4.0.1', `192.0.2.${i}, 198.51.100.20`), 401),
      'rotating spoofed first hops',
    );
  });
});
