/**
 * Every write that the endpoint table (packages/contract/src/endpoints.ts) says may answer
 * RATE_LIMITED does, once its caller's budget is spent: 429 RATE_LIMITED with Retry-After, and
 * nothing written. The calls are the authorization matrix's (test/security/support.ts WRITE_CALLS),
 * so an endpoint added to the table without a call here fails the first test. Members spend the
 * write limit (per person); the visitors' calls (register, password reset) their per-address limits.
 */
import { endpoints } from '@pipit/contract';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type TestClient, testConfig, useTestApp } from '../helpers/app.ts';
import { expectCodedClientError, fingerprint, routeKey, seedWorld, sendCall, WRITE_CALLS } from './support.ts';

/** Writes one member may make: above what seeding the world takes from any one of them. */
const WRITES = 30;
/** Registrations and password-reset calls one address may make. */
const VISITOR_CALLS = 3;
const HOUR = 60 * 60_000;

const declaring = Object.values(endpoints).filter((e) => e.method !== 'GET' && e.errors.includes('RATE_LIMITED'));
const calls = WRITE_CALLS.filter((call) => declaring.some((e) => e.method === call.method && e.path === call.route));

function expectLimited(res: LightMyRequestResponse, where: string) {
  expect(res.statusCode, `${where}: ${res.body}`).toBe(429);
  expect(expectCodedClientError(res, where)).toBe('RATE_LIMITED');
  expect(Number(res.headers['retry-after']), where).toBeGreaterThan(0);
}

describe('the write limit answers RATE_LIMITED on every write that declares it', () => {
  const ctx = useTestApp({
    rateLimits: {
      ...testConfig().rateLimits,
      enabled: true,
      write: { max: WRITES, windowMs: HOUR },
      register: { max: VISITOR_CALLS, windowMs: HOUR },
      passwordResetIp: { max: VISITOR_CALLS, windowMs: HOUR },
      // A passkey sign-in's challenge counts against the address's sign-in limit.
      signInIp: { max: VISITOR_CALLS, windowMs: HOUR },
    },
  });

  it('every write declaring RATE_LIMITED has a call here', () => {
    expect(declaring.length).toBeGreaterThan(0);
    expect(declaring.map((e) => `${e.method} ${e.path}`).sort()).toEqual([...new Set(calls.map(routeKey))].sort());
  });

  it('past the limit each one is refused with 429 RATE_LIMITED and Retry-After, writing nothing', async () => {
    const w = await seedWorld(ctx);
    const spent = new Set<TestClient>();
    /** Spends a member's write budget on a harmless write (marking notifications read) until refused. */
    const spend = async (client: TestClient) => {
      if (spent.has(client)) return;
      for (let i = 0; i <= WRITES; i++) {
        const res = await client.post('/api/notifications/read');
        if (res.statusCode === 429) return void spent.add(client);
        expect(res.statusCode, res.body).toBe(204);
      }
      throw new Error(`no 429 after ${WRITES + 1} writes`);
    };

    for (const call of calls) {
      const key = routeKey(call);
      if (call.owner === 'visitor') {
        // The call itself spends its address's budget (answers before the limit may succeed or be 4xx).
        let refused = false;
        for (let i = 0; i <= VISITOR_CALLS && !refused; i++) {
          const before = await fingerprint(ctx.db, ctx.config.mediaDir);
          const res = await sendCall(w.visitor, call, w);
          await ctx.app.services.jobs.drain();
          if (res.statusCode === 429) {
            expectLimited(res, key);
            expect(await fingerprint(ctx.db, ctx.config.mediaDir), `${key}: the refused call wrote`).toEqual(before);
            refused = true;
          }
        }
        expect(refused, `${key}: no 429 after ${VISITOR_CALLS + 1} calls`).toBe(true);
        continue;
      }
      const client = w[call.owner];
      await spend(client);
      const before = await fingerprint(ctx.db, ctx.config.mediaDir);
      expectLimited(await sendCall(client, call, w), key);
      await ctx.app.services.jobs.drain();
      expect(await fingerprint(ctx.db, ctx.config.mediaDir), `${key}: the refused call wrote`).toEqual(before);
    }
  });
});
