/**
 * Sign-in limits of docs/spec/product.md §2: 25 attempts / 5 min per IP and 25 / hour per account, answered
 * 429 with Retry-After. Counters live in the app, which is built once per file: every test uses
 * its own IPs and emails.
 */
import { describe, expect, it } from 'vitest';
import {
  insertUser,
  PASSWORD,
  postForm,
  signInWithPassword,
  TestClient,
  testConfig,
  useTestApp,
} from '../helpers/app.ts';

const BASE = 'http://localhost:3999/api/auth';

describe('sign-in rate limits', () => {
  const ctx = useTestApp({
    rateLimits: {
      ...testConfig().rateLimits,
      signInIp: { max: 25, windowMs: 5 * 60_000 },
      signInAccount: { max: 25, windowMs: 60 * 60_000 },
    },
  });

  /** One sign-in attempt (GET csrf + the form) from a fresh browser at `ip`. */
  const attempt = (ip: string, email: string, password = 'wrong password', headers: Record<string, string> = {}) =>
    signInWithPassword(new TestClient(ctx), email, password, {}, { remoteAddress: ip, headers });

  function expectLimited(res: Awaited<ReturnType<typeof attempt>>, windowSeconds: number) {
    expect(res.statusCode).toBe(429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    expect(res.json()).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('Too many requests'),
      url: `${BASE}/error?error=RateLimited`,
    });
  }

  it('the 26th attempt from one IP within 5 minutes gets 429 with Retry-After', async () => {
    for (let i = 0; i < 25; i++) {
      const res = await attempt('10.0.0.1', `someone${i}@example.com`);
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    expectLimited(await attempt('10.0.0.1', 'someone-else@example.com'), 300);
    // Even the right password is refused now, without a session.
    await insertUser(ctx.db, { username: 'ivy', email: 'ivy@example.com' });
    const right = await attempt('10.0.0.1', 'ivy@example.com', PASSWORD);
    expectLimited(right, 300);
    expect(right.headers['set-cookie']?.toString() ?? '').not.toContain('session-token');
    // Another IP is not affected.
    expect((await attempt('10.0.0.2', 'ivy@example.com', PASSWORD)).statusCode).toBe(200);
  });

  it('a spoofed X-Forwarded-For does not reset the count (TRUST_PROXY is off)', async () => {
    for (let i = 0; i < 25; i++) {
      await attempt('10.0.1.1', `spoof${i}@example.com`, 'x', { 'x-forwarded-for': `203.0.113.${i}` });
    }
    const res = await attempt('10.0.1.1', 'spoof-last@example.com', 'x', { 'x-forwarded-for': '198.51.100.7' });
    expectLimited(res, 300);
  });

  it('the 26th attempt on one account within an hour gets 429, from any IP and in any case', async () => {
    await insertUser(ctx.db, { username: 'target', email: 'target@example.com' });
    for (let i = 0; i < 25; i++) {
      const email = i % 2 ? 'Target@Example.com' : 'target@example.com';
      expect((await attempt(`10.1.0.${i}`, email)).statusCode).toBe(401);
    }
    expectLimited(await attempt('10.1.1.1', 'TARGET@example.com', PASSWORD), 3600);
    // Other accounts still sign in from there.
    await insertUser(ctx.db, { username: 'other', email: 'other@example.com' });
    expect((await attempt('10.1.1.1', 'other@example.com', PASSWORD)).statusCode).toBe(200);
  });

  it('only sign-in attempts count: reading the session and the CSRF token never does', async () => {
    const client = new TestClient(ctx);
    for (let i = 0; i < 30; i++) {
      const res = await client.get('/api/auth/session', { remoteAddress: '10.2.0.1' });
      expect(res.statusCode).toBe(200);
    }
    expect((await attempt('10.2.0.1', 'fresh@example.com')).statusCode).toBe(401);
  });

  it('without json=true the 429 is the same JSON answer (no redirect)', async () => {
    const from = { remoteAddress: '10.3.0.1' };
    for (let i = 0; i < 25; i++) {
      await postForm(new TestClient(ctx), '/api/auth/callback/credentials', { email: `f${i}@example.com` }, from);
    }
    const res = await postForm(new TestClient(ctx), '/api/auth/callback/credentials', { email: 'g@example.com' }, from);
    expect(res.headers.location).toBeUndefined();
    expectLimited(res, 300);
  });
});
