/**
 * Passkeys (WebAuthn) over HTTP on a real database, answered by a software authenticator
 * (helpers/webauthn.ts): Settings adds one (password first), lists and removes them; a visitor signs
 * in with one through the /api/auth credentials callback (`passkey`), which makes the same session
 * as a password. Refused: a wrong password, someone else's or a used or expired challenge, another
 * origin or RP ID, no user verification, a cloned key (counter), an unknown or removed passkey.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { passkeys, sessions, twoFactor, users, webauthnChallenges } from '../../src/db/schema.ts';
import {
  insertUser,
  PASSWORD,
  postForm,
  setCookieLines,
  signInWithPassword,
  TestClient,
  useTestApp,
} from '../helpers/app.ts';
import { SoftAuthenticator } from '../helpers/webauthn.ts';

const ORIGIN = 'http://localhost:3999';
const BASE = `${ORIGIN}/api/auth`;
const failed = (error: string) => ({ url: `${BASE}/error?error=${error}&provider=credentials` });

type Ctx = ReturnType<typeof useTestApp>;

/** Adds a passkey to the client's account through Settings; answers the HTTP answer of the add. */
async function addPasskey(client: TestClient, authenticator: SoftAuthenticator, name = 'My laptop') {
  const options = await client.post('/api/passkeys/options', { password: PASSWORD });
  expect(options.statusCode).toBe(200);
  return client.post('/api/passkeys', { name, response: authenticator.register(options.json()) });
}

/** A visitor's passkey sign-in: the challenge, then the protocol's form with `passkey`. */
async function signInWithPasskey(
  ctx: Ctx,
  authenticator: SoftAuthenticator,
  ceremony: Parameters<SoftAuthenticator['authenticate']>[1] = {},
  client = new TestClient(ctx).withCsrf(),
) {
  const options = await client.post('/api/passkeys/sign-in-options');
  expect(options.statusCode).toBe(200);
  const answer = authenticator.authenticate(options.json(), ceremony);
  return { client, res: await postPasskey(client, answer), answer };
}

async function postPasskey(client: TestClient, answer: unknown) {
  const { csrfToken } = (await client.get('/api/auth/csrf')).json() as { csrfToken: string };
  return postForm(client, '/api/auth/callback/credentials', {
    passkey: typeof answer === 'string' ? answer : JSON.stringify(answer),
    csrfToken,
    callbackUrl: `${ORIGIN}/home`,
    json: 'true',
  });
}

async function aliceWithPasskey(ctx: Ctx) {
  const alice = await insertUser(ctx.db, { username: 'alice', email: 'alice@example.com', name: 'Alice' });
  const settings = await new TestClient(ctx).signInAs(alice.id);
  const authenticator = new SoftAuthenticator(ORIGIN);
  const added = await addPasskey(settings, authenticator);
  expect(added.statusCode).toBe(201);
  return { alice, settings, authenticator, passkey: added.json() as { id: string } };
}

const sessionCookieOf = (res: { headers: Record<string, unknown> }) =>
  setCookieLines(res).find((line) => line.startsWith('next-auth.session-token='));

describe('passkeys: Settings', () => {
  const ctx = useTestApp();

  it('options need the password (400 on password, 401 for a visitor); they name this server as the RP', async () => {
    const alice = await insertUser(ctx.db, { username: 'alice' });
    const client = await new TestClient(ctx).signInAs(alice.id);
    const wrong = await client.post('/api/passkeys/options', { password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'password' });
    const visitor = await new TestClient(ctx).withCsrf().post('/api/passkeys/options', { password: PASSWORD });
    expect(visitor.statusCode).toBe(401);

    const res = await client.post('/api/passkeys/options', { password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const options = res.json();
    expect(options.rp).toEqual({ name: 'Pipit', id: 'localhost' });
    expect(options.user).toMatchObject({ name: 'alice', displayName: 'Alice' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'preferred' });
    expect(options.attestation).toBe('none');
    const [challenge] = await ctx.db.db.select().from(webauthnChallenges);
    expect(challenge).toMatchObject({ challenge: options.challenge, purpose: 'register', userId: alice.id });
    expect(challenge!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('adds a named passkey, lists it, and its challenge works once', async () => {
    const { settings, authenticator, passkey } = await aliceWithPasskey(ctx);
    expect(passkey).toMatchObject({ name: 'My laptop', lastUsedAt: null });
    const list = (await settings.get('/api/passkeys')).json();
    expect(list.items).toEqual([passkey]);
    const [row] = await ctx.db.db.select().from(passkeys);
    expect(row).toMatchObject({ credentialId: authenticator.id, counter: 0, transports: ['internal'] });
    expect(await ctx.db.db.select().from(webauthnChallenges)).toEqual([]);
  });

  it('refuses an answer to a challenge not handed out, spent, of another member, another origin or RP, or without user verification', async () => {
    const alice = await insertUser(ctx.db, { username: 'alice' });
    const bob = await insertUser(ctx.db, { username: 'bob' });
    const client = await new TestClient(ctx).signInAs(alice.id);
    const bobClient = await new TestClient(ctx).signInAs(bob.id);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const refused = async (res: Awaited<ReturnType<TestClient['post']>>, what: string) => {
      expect(res.statusCode, what).toBe(400);
      expect(res.json(), what).toMatchObject({ code: 'INVALID_INPUT', field: 'response' });
    };
    const fresh = async () => (await client.post('/api/passkeys/options', { password: PASSWORD })).json();

    await refused(
      await client.post('/api/passkeys', {
        name: 'x',
        response: authenticator.register(await fresh(), { challenge: 'bm90LWlzc3VlZA' }),
      }),
      'a challenge never handed out',
    );
    const bobs = (await bobClient.post('/api/passkeys/options', { password: PASSWORD })).json();
    await refused(
      await client.post('/api/passkeys', { name: 'x', response: authenticator.register(bobs) }),
      "bob's challenge",
    );
    await refused(
      await client.post('/api/passkeys', {
        name: 'x',
        response: authenticator.register(await fresh(), { origin: 'https://evil.example' }),
      }),
      'another origin',
    );
    await refused(
      await client.post('/api/passkeys', {
        name: 'x',
        response: authenticator.register(await fresh(), { rpId: 'evil.example' }),
      }),
      'another RP ID',
    );
    await refused(
      await client.post('/api/passkeys', {
        name: 'x',
        response: authenticator.register(await fresh(), { userVerified: false }),
      }),
      'no user verification',
    );
    const options = await fresh();
    const response = authenticator.register(options);
    expect((await client.post('/api/passkeys', { name: 'Laptop', response })).statusCode).toBe(201);
    await refused(await client.post('/api/passkeys', { name: 'Again', response }), 'the same challenge twice');
    expect(await ctx.db.db.select().from(passkeys)).toHaveLength(1);
  });

  it('refuses a challenge past its time', async () => {
    const alice = await insertUser(ctx.db, { username: 'alice' });
    const client = await new TestClient(ctx).signInAs(alice.id);
    const options = (await client.post('/api/passkeys/options', { password: PASSWORD })).json();
    await ctx.db.db.update(webauthnChallenges).set({ expiresAt: new Date(Date.now() - 1000) });
    const res = await client.post('/api/passkeys', {
      name: 'Late',
      response: new SoftAuthenticator(ORIGIN).register(options),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'response' });
  });

  it('refuses a bad name or a malformed answer (400 naming the field), adding nothing', async () => {
    const alice = await insertUser(ctx.db, { username: 'alice' });
    const client = await new TestClient(ctx).signInAs(alice.id);
    const response = new SoftAuthenticator(ORIGIN).register(
      (await client.post('/api/passkeys/options', { password: PASSWORD })).json(),
    );
    for (const [body, field] of [
      [{ name: '  ', response }, 'name'],
      [{ name: 'x'.repeat(65), response }, 'name'],
      [{ name: 'ok', response: { ...response, type: 'password' } }, 'response.type'],
      [{ name: 'ok' }, 'response'],
    ] as const) {
      const res = await client.post('/api/passkeys', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field });
    }
    expect(await ctx.db.db.select().from(passkeys)).toEqual([]);
  });

  it('the same authenticator cannot be added twice (its credential is excluded, then refused)', async () => {
    const { settings, authenticator } = await aliceWithPasskey(ctx);
    const options = (await settings.post('/api/passkeys/options', { password: PASSWORD })).json();
    expect(options.excludeCredentials).toEqual([
      { id: authenticator.id, type: 'public-key', transports: ['internal'] },
    ]);
    const res = await settings.post('/api/passkeys', { name: 'Twice', response: authenticator.register(options) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'response',
      message: 'This passkey is added already.',
    });
  });

  it('removes one of the member’s passkeys (404 for someone else’s or an unknown one)', async () => {
    const { settings, passkey } = await aliceWithPasskey(ctx);
    const bob = await insertUser(ctx.db, { username: 'bob' });
    const bobClient = await new TestClient(ctx).signInAs(bob.id);
    const notHis = await bobClient.delete(`/api/passkeys/${passkey.id}`);
    expect(notHis.statusCode).toBe(404);
    expect(notHis.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await settings.delete('/api/passkeys/999')).statusCode).toBe(404);
    expect((await settings.delete('/api/passkeys/abc')).statusCode).toBe(404);
    expect((await settings.delete(`/api/passkeys/${passkey.id}`)).statusCode).toBe(204);
    expect((await settings.get('/api/passkeys')).json()).toEqual({ items: [] });
  });
});

describe('passkeys: sign-in through /api/auth', () => {
  const ctx = useTestApp();

  it('signs in with no password: the same session cookie, device cookie and session as a password sign-in', async () => {
    const { authenticator, settings } = await aliceWithPasskey(ctx);
    const { client, res } = await signInWithPasskey(ctx, authenticator);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: `${ORIGIN}/home` });
    expect(sessionCookieOf(res)).toMatch(/; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/);
    expect(setCookieLines(res).some((line) => line.startsWith('pipit.device='))).toBe(true);
    expect((await client.get('/api/auth/session')).json()).toMatchObject({
      user: { name: 'Alice', email: 'alice@example.com' },
    });
    expect(await ctx.db.db.select().from(sessions)).toHaveLength(2);
    const [row] = await ctx.db.db.select().from(passkeys);
    expect(row!.counter).toBe(1);
    expect((await settings.get('/api/passkeys')).json().items[0].lastUsedAt).not.toBeNull();
  });

  it('a passkey counts as two factors: no code is asked even with two-factor sign-in on', async () => {
    const { authenticator, alice } = await aliceWithPasskey(ctx);
    await ctx.db.db.insert(twoFactor).values({ userId: alice.id, secret: 'v1.a.b.c', enabledAt: new Date() });
    const password = await signInWithPassword(new TestClient(ctx), 'alice@example.com');
    expect(password.json()).toEqual(failed('TwoFactorRequired'));
    const { res } = await signInWithPasskey(ctx, authenticator);
    expect(res.statusCode).toBe(200);
  });

  it('refuses (401 PasskeySignin, no session) a wrong challenge, a spent one, another origin or RP ID, no user verification', async () => {
    const { authenticator } = await aliceWithPasskey(ctx);
    const cases: [string, Parameters<SoftAuthenticator['authenticate']>[1]][] = [
      ['a challenge never handed out', { challenge: 'bm90LWlzc3VlZA' }],
      ['another origin', { origin: 'https://evil.example' }],
      ['another RP ID', { rpId: 'evil.example' }],
      ['no user verification', { userVerified: false }],
    ];
    for (const [what, ceremony] of cases) {
      const { res } = await signInWithPasskey(ctx, authenticator, ceremony);
      expect(res.statusCode, what).toBe(401);
      expect(res.json(), what).toEqual(failed('PasskeySignin'));
      expect(sessionCookieOf(res), what).toBeUndefined();
    }
    // An answer replayed: its challenge was spent by the first use.
    const { res: first, answer } = await signInWithPasskey(ctx, authenticator);
    expect(first.statusCode).toBe(200);
    const replay = await postPasskey(new TestClient(ctx).withCsrf(), answer);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual(failed('PasskeySignin'));
  });

  it('refuses a registration challenge used for a sign-in, and an expired sign-in challenge', async () => {
    const { authenticator, settings } = await aliceWithPasskey(ctx);
    const registration = (await settings.post('/api/passkeys/options', { password: PASSWORD })).json();
    const wrongKind = await postPasskey(new TestClient(ctx).withCsrf(), authenticator.authenticate(registration));
    expect(wrongKind.json()).toEqual(failed('PasskeySignin'));

    const client = new TestClient(ctx).withCsrf();
    const options = (await client.post('/api/passkeys/sign-in-options')).json();
    await ctx.db.db.update(webauthnChallenges).set({ expiresAt: new Date(Date.now() - 1000) });
    const late = await postPasskey(client, authenticator.authenticate(options));
    expect(late.json()).toEqual(failed('PasskeySignin'));
  });

  it('refuses a cloned key: a counter that does not grow', async () => {
    const { authenticator } = await aliceWithPasskey(ctx);
    expect((await signInWithPasskey(ctx, authenticator)).res.statusCode).toBe(200);
    authenticator.counter = 0; // the next answer says 1 again
    const { res } = await signInWithPasskey(ctx, authenticator);
    expect(res.json()).toEqual(failed('PasskeySignin'));
  });

  it('refuses an unknown passkey, a removed one, and a passkey answer that is not one', async () => {
    const { authenticator, settings, passkey } = await aliceWithPasskey(ctx);
    const stranger = new SoftAuthenticator(ORIGIN);
    expect((await signInWithPasskey(ctx, stranger)).res.json()).toEqual(failed('PasskeySignin'));

    expect((await settings.delete(`/api/passkeys/${passkey.id}`)).statusCode).toBe(204);
    const { res } = await signInWithPasskey(ctx, authenticator);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(failed('PasskeySignin'));

    for (const junk of ['', 'not json', '{"id":"x"}', 'x'.repeat(20_000)]) {
      const bad = await postPasskey(new TestClient(ctx).withCsrf(), junk);
      expect(bad.statusCode, junk.slice(0, 20)).toBe(401);
      expect(bad.json()).toEqual(failed('PasskeySignin'));
    }
  });

  it('a suspended member’s passkey says AccountSuspended, with no session', async () => {
    const { authenticator, alice } = await aliceWithPasskey(ctx);
    await ctx.db.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, alice.id));
    const { res } = await signInWithPasskey(ctx, authenticator);
    expect(res.json()).toEqual(failed('AccountSuspended'));
    expect(sessionCookieOf(res)).toBeUndefined();
  });

  it('sign-in options need the CSRF token like every product API write', async () => {
    const res = await new TestClient(ctx).post('/api/passkeys/sign-in-options');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CSRF_FAILED' });
  });
});
