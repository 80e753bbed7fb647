/**
 * Sign-in limits of docs/spec/product.md §2: 25 attempts / 5 min per IP and 25 / hour per account, answered
 * 429 with Retry-After. The account's allowance is shared by unknown browsers; a browser the account
 * signed in from before (its device cookie) has its own, so an attack cannot lock the owner out.
 * Counters live in the app, which is built once per file: every test uses its own IPs and emails.
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

  describe('an attack on one account from many addresses', () => {
    /** The owner signs in once from their browser at `ip`: it becomes a known device of the account. */
    async function ownerBrowser(username: string, ip: string) {
      await insertUser(ctx.db, { username, email: `${username}@example.com` });
      const browser = new TestClient(ctx);
      const first = await signInWithPassword(browser, `${username}@example.com`, PASSWORD, {}, { remoteAddress: ip });
      expect(first.statusCode).toBe(200);
      expect(browser.cookies.get('pipit.device')).toMatch(/^\d+\.[\w-]{43}$/);
      return browser;
    }
    /**
     * Wrong passwords, each from a different address, until the account's allowance for unknown
     * browsers (25 attempts, the owner's first sign-in among them when there was one) is used up.
     */
    async function attack(email: string, net: string, count = 24) {
      for (let i = 0; i < count; i++) expect((await attempt(`${net}.${i}`, email)).statusCode).toBe(401);
    }

    it('is still limited: the next unknown browser gets 429, from any address, even with the right password', async () => {
      await ownerBrowser('besieged', '10.4.0.1');
      await attack('besieged@example.com', '10.4.1');
      expectLimited(await attempt('10.4.2.1', 'besieged@example.com', PASSWORD), 3600);
      expectLimited(await attempt('10.4.0.1', 'Besieged@example.com'), 3600); // the owner's address, another browser
    });

    it('does not lock the owner out: their browser signs in with the right password from their own address', async () => {
      const browser = await ownerBrowser('owner', '10.5.0.1');
      await attack('owner@example.com', '10.5.1');
      const res = await signInWithPassword(browser, 'owner@example.com', PASSWORD, {}, { remoteAddress: '10.5.0.1' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['set-cookie']?.toString()).toContain('next-auth.session-token=');
      // From another address too (a phone on another network keeps its cookie).
      const away = await signInWithPassword(browser, 'OWNER@example.com', PASSWORD, {}, { remoteAddress: '10.5.9.9' });
      expect(away.statusCode).toBe(200);
    });

    it('a known device is limited on its own: 25 wrong passwords from it, then 429', async () => {
      const browser = await ownerBrowser('forgetful', '10.6.0.1');
      const from = (i: number) => ({ remoteAddress: `10.6.1.${i}` });
      for (let i = 0; i < 25; i++) {
        const res = await signInWithPassword(browser, 'forgetful@example.com', 'wrong password', {}, from(i));
        expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
      }
      const res = await signInWithPassword(browser, 'forgetful@example.com', PASSWORD, {}, from(99));
      expectLimited(res, 3600);
      // Unknown browsers have their own (untouched) allowance.
      expect((await attempt('10.6.2.1', 'forgetful@example.com', PASSWORD)).statusCode).toBe(200);
    });

    it('a device cookie helps only the account it was issued for, and cannot be forged', async () => {
      const browser = await ownerBrowser('keyholder', '10.7.0.1');
      await insertUser(ctx.db, { username: 'neighbour', email: 'neighbour@example.com' });
      await attack('neighbour@example.com', '10.7.1', 25);
      const device = browser.cookies.get('pipit.device')!;
      const [issuedAt, mac] = device.split('.') as [string, string];
      const forged = [
        device, // keyholder's cookie, presented for neighbour's account
        `${Number(issuedAt) + 1}.${mac}`,
        `${issuedAt}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
        `${Date.now()}.${'A'.repeat(43)}`,
        'garbage',
      ];
      for (const value of forged) {
        const res = await attempt('10.7.2.1', 'neighbour@example.com', PASSWORD, { cookie: `pipit.device=${value}` });
        expectLimited(res, 3600);
      }
    });
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
