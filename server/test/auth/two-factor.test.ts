/**
 * Two-factor sign-in (TOTP) over HTTP on a real database: Settings turns it on (password, a secret
 * confirmed with a code, ten recovery codes once) and off (password and a code); the /api/auth
 * credentials callback then asks for a code after the password (`?error=TwoFactorRequired`), refuses a
 * wrong or replayed code and a used recovery code, and counts every attempt in the sign-in limits.
 */
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { recoveryCodes, sessions, twoFactor } from '../../src/db/schema.ts';
import {
  insertUser,
  PASSWORD,
  setCookieLines,
  signInWithPassword,
  TestClient,
  testConfig,
  useTestApp,
} from '../helpers/app.ts';

const BASE = 'http://localhost:3999/api/auth';
const STEP_MS = 30_000;
const failed = (error: string) => ({ url: `${BASE}/error?error=${error}&provider=credentials` });

/** The app's code for `secret` at `at` (ms), as an authenticator app shows it. */
const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });

type Ctx = ReturnType<typeof useTestApp>;

/** The middle of a 30-second step, so codes of this step and its neighbours are unambiguous. */
const midStep = () => Math.floor(Date.now() / STEP_MS) * STEP_MS + STEP_MS / 2;

/** alice, signed in (through the services), with two-factor sign-in on at step `now`; her secret and codes. */
async function aliceWithTwoFactor(ctx: Ctx, now = midStep()) {
  ctx.app.services.twoFactor.now = () => now;
  const alice = await insertUser(ctx.db, { username: 'alice', email: 'alice@example.com' });
  const client = await new TestClient(ctx).signInAs(alice.id);
  const setup = await client.post('/api/settings/two-factor/setup', { password: PASSWORD });
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json() as { secret: string };
  const enabled = await client.post('/api/settings/two-factor/enable', { code: codeAt(secret, now) });
  expect(enabled.statusCode).toBe(200);
  const { recoveryCodes: codes } = enabled.json() as { recoveryCodes: string[] };
  return { alice, client, secret, codes, now };
}

const sessionCookieOf = (res: { headers: Record<string, unknown> }) =>
  setCookieLines(res).find((line) => line.startsWith('next-auth.session-token='));
const deviceCookieOf = (res: { headers: Record<string, unknown> }) =>
  setCookieLines(res).find((line) => line.startsWith('pipit.device='));

describe('two-factor sign-in: Settings', () => {
  const ctx = useTestApp();

  it('is off at first; setup (password first) gives a secret, its otpauth URI and an SVG QR code', async () => {
    const alice = await insertUser(ctx.db, { username: 'alice' });
    const client = await new TestClient(ctx).signInAs(alice.id);
    expect((await client.get('/api/settings/two-factor')).json()).toEqual({ enabled: false, recoveryCodesLeft: 0 });

    const res = await client.post('/api/settings/two-factor/setup', { password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { secret: string; uri: string; qrCode: string };
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/); // 160 bits, base32
    const uri = new URL(body.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(body.secret);
    expect(uri.searchParams.get('issuer')).toBe('Pipit (localhost:3999)');
    expect(body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(body.qrCode.split(',')[1]!, 'base64').toString()).toContain('<svg');
    // Not on until a code confirms it; the secret is kept encrypted, never as given.
    expect((await client.get('/api/settings/two-factor')).json()).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    const [row] = await ctx.db.db.select().from(twoFactor).where(eq(twoFactor.userId, alice.id));
    expect(row!.secret).toBeNull();
    expect(row!.pendingSecret).toMatch(/^v1\./);
    expect(row!.pendingSecret).not.toContain(body.secret);
  });

  it('setup refuses a wrong password (400 on password) and a visitor (401)', async () => {
    const alice = await insertUser(ctx.db, { username: 'alice' });
    const client = await new TestClient(ctx).signInAs(alice.id);
    const wrong = await client.post('/api/settings/two-factor/setup', { password: 'not it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'password' });
    expect(await ctx.db.db.select().from(twoFactor)).toEqual([]);
    const visitor = await new TestClient(ctx).withCsrf().post('/api/settings/two-factor/setup', { password: PASSWORD });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('enable refuses a wrong code (400 on code) and stays off; the right one turns it on with ten recovery codes', async () => {
    const now = midStep();
    ctx.app.services.twoFactor.now = () => now;
    const alice = await insertUser(ctx.db, { username: 'alice' });
    const client = await new TestClient(ctx).signInAs(alice.id);
    const { secret } = (await client.post('/api/settings/two-factor/setup', { password: PASSWORD })).json();
    const wrongCode = String((Number(codeAt(secret, now)) + 1) % 1_000_000).padStart(6, '0');
    for (const code of [wrongCode, 'abc', codeAt(secret, now - 3 * STEP_MS)]) {
      const res = await client.post('/api/settings/two-factor/enable', { code });
      expect(res.statusCode, code).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'code' });
    }
    expect((await client.get('/api/settings/two-factor')).json()).toMatchObject({ enabled: false });

    const res = await client.post('/api/settings/two-factor/enable', { code: codeAt(secret, now) });
    expect(res.statusCode).toBe(200);
    const { recoveryCodes: codes } = res.json() as { recoveryCodes: string[] };
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    expect(new Set(codes).size).toBe(10);
    expect((await client.get('/api/settings/two-factor')).json()).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    // Only hashes are kept.
    const stored = await ctx.db.db.select().from(recoveryCodes);
    expect(stored).toHaveLength(10);
    for (const row of stored) {
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(codes.map((c) => c.replaceAll('-', ''))).not.toContain(row.codeHash);
    }
  });

  it('answers 409 CONFLICT: enable before setup, disable when off', async () => {
    const bob = await insertUser(ctx.db, { username: 'bob' });
    const bobClient = await new TestClient(ctx).signInAs(bob.id);
    const early = await bobClient.post('/api/settings/two-factor/enable', { code: '123456' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'CONFLICT' });
    const off = await bobClient.delete('/api/settings/two-factor', { payload: { password: PASSWORD, code: '123456' } });
    expect(off.statusCode).toBe(409);
    expect(off.json()).toMatchObject({ code: 'CONFLICT', message: 'Two-factor sign-in is off.' });
    // Once on, a second enable has no secret being set up.
    const { client, secret, now } = await aliceWithTwoFactor(ctx);
    const enableAgain = await client.post('/api/settings/two-factor/enable', { code: codeAt(secret, now + STEP_MS) });
    expect(enableAgain.statusCode).toBe(409);
  });

  it('moving to a new app while on needs a current code as well as the password; the old secret works until the new one is confirmed', async () => {
    const { client, secret, now, codes } = await aliceWithTwoFactor(ctx);
    const missing = await client.post('/api/settings/two-factor/setup', { password: PASSWORD });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'code' });
    const wrong = await client.post('/api/settings/two-factor/setup', { password: PASSWORD, code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'code' });
    const replayed = await client.post('/api/settings/two-factor/setup', {
      password: PASSWORD,
      code: codeAt(secret, now),
    });
    expect(replayed.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'code' });

    const setup = await client.post('/api/settings/two-factor/setup', {
      password: PASSWORD,
      code: codeAt(secret, now + STEP_MS),
    });
    expect(setup.statusCode).toBe(200);
    const fresh = (setup.json() as { secret: string }).secret;
    expect(fresh).not.toBe(secret);
    // Not confirmed yet: sign-in still takes the old app's codes.
    ctx.app.services.twoFactor.now = () => now + STEP_MS;
    expect(
      (
        await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, {
          totp: codeAt(secret, now + 2 * STEP_MS),
        })
      ).statusCode,
    ).toBe(200);
    const moved = await client.post('/api/settings/two-factor/enable', { code: codeAt(fresh, now + STEP_MS) });
    expect(moved.statusCode).toBe(200);
    const newCodes = (moved.json() as { recoveryCodes: string[] }).recoveryCodes;
    // Now only the new app's codes and the new recovery codes work.
    ctx.app.services.twoFactor.now = () => now + 3 * STEP_MS;
    for (const totp of [codeAt(secret, now + 3 * STEP_MS), codes[5]!]) {
      const res = await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, { totp });
      expect(res.json()).toEqual(failed('TwoFactorInvalid'));
    }
    for (const totp of [codeAt(fresh, now + 3 * STEP_MS), newCodes[0]!]) {
      const res = await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, { totp });
      expect(res.statusCode).toBe(200);
    }
  });

  it('turning it off needs the password and a code: each refused on its own field, then it is off', async () => {
    const { client, secret, now } = await aliceWithTwoFactor(ctx);
    const next = codeAt(secret, now + STEP_MS);
    const noPassword = await client.delete('/api/settings/two-factor', { payload: { password: 'wrong', code: next } });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'password' });
    const missing = await client.delete('/api/settings/two-factor', { payload: { password: PASSWORD } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'code' });
    // The code that turned it on was spent then: replaying it is refused.
    const replayed = await client.delete('/api/settings/two-factor', {
      payload: { password: PASSWORD, code: codeAt(secret, now) },
    });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'code' });
    expect((await client.get('/api/settings/two-factor')).json()).toMatchObject({ enabled: true });

    const res = await client.delete('/api/settings/two-factor', { payload: { password: PASSWORD, code: next } });
    expect(res.statusCode).toBe(204);
    expect((await client.get('/api/settings/two-factor')).json()).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect(await ctx.db.db.select().from(recoveryCodes)).toEqual([]);
    // The password alone signs in again.
    expect((await signInWithPassword(new TestClient(ctx), 'alice@example.com')).statusCode).toBe(200);
  });

  it('a recovery code turns it off too', async () => {
    const { client, codes } = await aliceWithTwoFactor(ctx);
    const res = await client.delete('/api/settings/two-factor', {
      payload: { password: PASSWORD, code: codes[3]!.toUpperCase() },
    });
    expect(res.statusCode).toBe(204);
  });
});

describe('two-factor sign-in: the /api/auth credentials callback', () => {
  const ctx = useTestApp();

  it('the right password alone answers 401 TwoFactorRequired: no session, no device cookie', async () => {
    await aliceWithTwoFactor(ctx);
    const client = new TestClient(ctx);
    const res = await signInWithPassword(client, 'alice@example.com');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(failed('TwoFactorRequired'));
    expect(sessionCookieOf(res)).toBeUndefined();
    expect(deviceCookieOf(res)).toBeUndefined();
    expect((await client.get('/api/auth/session')).json()).toEqual({});
  });

  it('a wrong password says CredentialsSignin whatever the code: nobody learns the account asks for one', async () => {
    const { secret, now } = await aliceWithTwoFactor(ctx);
    for (const fields of [{}, { totp: codeAt(secret, now + STEP_MS) }, { totp: '000000' }] as Record<
      string,
      string
    >[]) {
      const res = await signInWithPassword(new TestClient(ctx), 'alice@example.com', 'wrong password', fields);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(failed('CredentialsSignin'));
    }
  });

  it('password and the current code sign in (session and device cookie); the same code again is refused', async () => {
    const { secret, now } = await aliceWithTwoFactor(ctx);
    const code = codeAt(secret, now + STEP_MS);
    const client = new TestClient(ctx);
    const res = await signInWithPassword(client, 'alice@example.com', PASSWORD, {
      totp: `${code.slice(0, 3)} ${code.slice(3)}`,
      callbackUrl: 'http://localhost:3999/home',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: 'http://localhost:3999/home' });
    expect(sessionCookieOf(res)).toBeDefined();
    expect(deviceCookieOf(res)).toBeDefined();
    expect((await client.get('/api/auth/session')).json()).toMatchObject({ user: { email: 'alice@example.com' } });

    const replay = await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, { totp: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual(failed('TwoFactorInvalid'));
    expect(sessionCookieOf(replay)).toBeUndefined();
  });

  it('refuses a code of a step before the last one used, a wrong code and one outside the window', async () => {
    const { secret, now } = await aliceWithTwoFactor(ctx);
    // The step after the one that turned it on is used…
    const used = await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, {
      totp: codeAt(secret, now + STEP_MS),
    });
    expect(used.statusCode).toBe(200);
    // …so the code of the step before it, still inside the window of ±1 step, is refused.
    ctx.app.services.twoFactor.now = () => now + STEP_MS;
    const earlier = codeAt(secret, now);
    const stale = codeAt(secret, now - 2 * STEP_MS);
    const wrong = String((Number(codeAt(secret, now + 2 * STEP_MS)) + 500_000) % 1_000_000).padStart(6, '0');
    for (const totp of [earlier, stale, wrong, 'abcdef', 'x'.repeat(100)]) {
      const res = await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, { totp });
      expect(res.statusCode, totp).toBe(401);
      expect(res.json()).toEqual(failed('TwoFactorInvalid'));
    }
    // The next step's code still works (the refusals spent nothing).
    const next = await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, {
      totp: codeAt(secret, now + 2 * STEP_MS),
    });
    expect(next.statusCode).toBe(200);
  });

  it('a recovery code signs in once; used again it is refused; Settings counts what is left', async () => {
    const { client: settings, codes } = await aliceWithTwoFactor(ctx);
    const first = await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, { totp: codes[0]! });
    expect(first.statusCode).toBe(200);
    expect(sessionCookieOf(first)).toBeDefined();
    const again = await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, { totp: codes[0]! });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual(failed('TwoFactorInvalid'));
    expect((await settings.get('/api/settings/two-factor')).json()).toEqual({ enabled: true, recoveryCodesLeft: 9 });
    // Spaces, no dashes and capitals are fine; someone else's code is not.
    const bob = await insertUser(ctx.db, { username: 'bob', email: 'bob@example.com' });
    expect(bob.id).toBeGreaterThan(0);
    const loose = codes[1]!.replaceAll('-', ' ').toUpperCase();
    expect(
      (await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, { totp: loose })).statusCode,
    ).toBe(200);
  });

  it('a stored secret that does not open (another AUTH_SECRET) refuses codes; recovery codes still work', async () => {
    const { alice, secret, now, codes } = await aliceWithTwoFactor(ctx);
    const [row] = await ctx.db.db.select().from(twoFactor).where(eq(twoFactor.userId, alice.id));
    // Bob's row cannot be swapped in either: the ciphertext is bound to the member's id.
    const bob = await insertUser(ctx.db, { username: 'bob', email: 'bob@example.com' });
    await ctx.db.db.insert(twoFactor).values({ userId: bob.id, secret: row!.secret, enabledAt: new Date() });
    const asBob = await signInWithPassword(new TestClient(ctx), 'bob@example.com', PASSWORD, {
      totp: codeAt(secret, now + STEP_MS),
    });
    expect(asBob.json()).toEqual(failed('TwoFactorInvalid'));
    await ctx.db.db.update(twoFactor).set({ secret: 'v1.garbage.x.y' }).where(eq(twoFactor.userId, alice.id));
    const res = await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, {
      totp: codeAt(secret, now + STEP_MS),
    });
    expect(res.json()).toEqual(failed('TwoFactorInvalid'));
    const recovery = await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, { totp: codes[0]! });
    expect(recovery.statusCode).toBe(200);
    expect(await ctx.db.db.select().from(sessions)).toHaveLength(2); // her Settings session and this one
  });
});

describe('two-factor sign-in: the sign-in limits', () => {
  const ctx = useTestApp({
    rateLimits: {
      ...testConfig().rateLimits,
      signInIp: { max: 100, windowMs: 5 * 60_000 },
      signInAccount: { max: 5, windowMs: 60 * 60_000 },
    },
  });

  it('wrong codes count in the account limit; the owner’s known browser keeps its own allowance', async () => {
    const { secret, now } = await aliceWithTwoFactor(ctx);
    // The owner signed in from this browser before: it carries the device cookie.
    const owner = new TestClient(ctx);
    const ok = await signInWithPassword(owner, 'alice@example.com', PASSWORD, { totp: codeAt(secret, now + STEP_MS) });
    expect(ok.statusCode).toBe(200);
    expect(deviceCookieOf(ok)).toBeDefined();

    // Someone with her password tries codes from other browsers and addresses: 4 more fill the 5.
    for (let i = 0; i < 4; i++) {
      const res = await signInWithPassword(
        new TestClient(ctx),
        'alice@example.com',
        PASSWORD,
        { totp: String(100000 + i) },
        { remoteAddress: `10.1.0.${i + 1}` },
      );
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
      expect(res.json()).toEqual(failed('TwoFactorInvalid'));
    }
    const limited = await signInWithPassword(
      new TestClient(ctx),
      'alice@example.com',
      PASSWORD,
      { totp: codeAt(secret, now + 2 * STEP_MS) },
      { remoteAddress: '10.1.0.99' },
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', url: `${BASE}/error?error=RateLimited` });
    expect(sessionCookieOf(limited)).toBeUndefined();

    // Her own browser is not locked out: it has its own allowance.
    ctx.app.services.twoFactor.now = () => now + STEP_MS;
    const mine = await signInWithPassword(owner, 'alice@example.com', PASSWORD, {
      totp: codeAt(secret, now + 2 * STEP_MS),
    });
    expect(mine.statusCode).toBe(200);
  });
});

describe('two-factor sign-in: Settings counts in the sign-in limits', () => {
  const ctx = useTestApp({
    rateLimits: { ...testConfig().rateLimits, signInAccount: { max: 5, windowMs: 60 * 60_000 } },
  });

  it('wrong codes in Settings count too (turning it off)', async () => {
    const { client } = await aliceWithTwoFactor(ctx);
    // setup and enable counted 2 of the 5.
    for (let i = 0; i < 3; i++) {
      const res = await client.delete('/api/settings/two-factor', { payload: { password: PASSWORD, code: '000000' } });
      expect(res.statusCode).toBe(400);
    }
    const res = await client.delete('/api/settings/two-factor', { payload: { password: PASSWORD, code: '000000' } });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
