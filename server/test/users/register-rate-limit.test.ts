import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { TestClient, testConfig, useTestApp } from '../helpers/app.ts';

// docs/spec/product.md §2: register 5 / 30 min per IP. This file's app runs with the real limit.
const limits = testConfig().rateLimits;
const REGISTER = { max: 5, windowMs: 30 * 60_000 };

describe('POST /api/register rate limit', () => {
  const ctx = useTestApp({ rateLimits: { ...limits, register: REGISTER } });

  const register = (n: number, ip: string) =>
    new TestClient(ctx)
      .withCsrf()
      .post(
        '/api/register',
        { email: `p${n}@example.com`, password: 'a long enough pass', username: `p${n}`, name: `P ${n}` },
        { remoteAddress: ip },
      );

  it('answers the 6th registration from one IP with 429 RATE_LIMITED and Retry-After', async () => {
    for (let n = 1; n <= 5; n++) expect((await register(n, '198.51.100.7')).statusCode).toBe(201);
    const sixth = await register(6, '198.51.100.7');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('RATE_LIMITED');
    const retryAfter = Number(sixth.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30 * 60);
    expect(await ctx.db.db.select().from(users)).toHaveLength(5);

    // Another address is counted on its own.
    expect((await register(7, '203.0.113.9')).statusCode).toBe(201);
  });
});
