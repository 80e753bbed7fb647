/**
 * Credentials sign-in, database sessions, sign-out, expiry, renewal and session update through the
 * /api/auth protocol, over HTTP on a real database.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { sessions, users } from '../../src/db/schema.ts';
import { AuthService } from '../../src/modules/auth/auth.service.ts';
import {
  insertUser,
  PASSWORD,
  postForm,
  setCookieLines,
  signInWithPassword,
  TestClient,
  useTestApp,
} from '../helpers/app.ts';

// The real argon2, counted: how many verifications a sign-in makes, and the last hash verified.
const argon = vi.hoisted(() => ({ verifications: 0, lastHash: '' }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...real,
    verify: (hash: string, ...rest: [string]) => {
      argon.verifications++;
      argon.lastHash = hash;
      return real.verify(hash, ...rest);
    },
  };
});

const ORIGIN = 'http://localhost:3999';
const BASE = `${ORIGIN}/api/auth`;
const DAY = 86_400_000;
const MAX_AGE = 30 * DAY;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const cookieLine = (res: { headers: Record<string, unknown> }, name: string) =>
  setCookieLines(res).find((line) => line.startsWith(`${name}=`));

/** Parses `name=value; Path=/; Expires=…; …` of the session cookie. */
function sessionCookie(res: { headers: Record<string, unknown> }) {
  const line = cookieLine(res, 'next-auth.session-token');
  if (!line) return null;
  const match = /^next-auth\.session-token=([^;]*); Path=\/; Expires=([^;]+); HttpOnly; SameSite=Lax$/.exec(line);
  expect(match, `unexpected session cookie: ${line}`).not.toBeNull();
  return { token: match![1]!, expires: new Date(match![2]!) };
}

describe('credentials sign-in and database sessions', () => {
  const ctx = useTestApp();

  const seedAlice = () => insertUser(ctx.db, { username: 'alice', email: 'alice@example.com', name: 'Alice' });
  const sessionRows = () => ctx.db.db.select().from(sessions);

  /** A client signed in as alice through the protocol; answers the client and its token. */
  async function signedIn() {
    const alice = await seedAlice();
    const client = new TestClient(ctx);
    const res = await signInWithPassword(client, 'alice@example.com');
    expect(res.statusCode).toBe(200);
    return { alice, client, token: client.cookies.get('next-auth.session-token')! };
  }

  describe('POST /api/auth/callback/credentials', () => {
    it('signs in: 200 {url: callbackUrl}, a 30-day session cookie, only the token hash stored', async () => {
      const alice = await seedAlice();
      const client = new TestClient(ctx);
      const before = Date.now();
      const res = await signInWithPassword(client, 'alice@example.com', PASSWORD, { callbackUrl: `${ORIGIN}/feed` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ url: `${ORIGIN}/feed` });

      const cookie = sessionCookie(res)!;
      expect(cookie.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
      expect(cookie.expires.getTime()).toBeGreaterThanOrEqual(Math.floor((before + MAX_AGE) / 1000) * 1000);
      expect(cookie.expires.getTime()).toBeLessThanOrEqual(Date.now() + MAX_AGE);

      const rows = await sessionRows();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.userId).toBe(alice.id);
      expect(rows[0]!.tokenHash).toBe(sha256(cookie.token));
      expect(JSON.stringify(rows)).not.toContain(cookie.token);
      // The cookie expires with the row (to the second: Expires has no milliseconds).
      expect(Math.floor(rows[0]!.expiresAt.getTime() / 1000)).toBe(cookie.expires.getTime() / 1000);
    });

    it('then GET session answers the user and the stored expiry, and re-sets the cookie', async () => {
      const { client, token } = await signedIn();
      const [row] = await sessionRows();
      const res = await client.get('/api/auth/session');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        user: { name: 'Alice', email: 'alice@example.com', image: null },
        expires: row!.expiresAt.toISOString(),
      });
      expect(Object.keys(res.json())).toEqual(['user', 'expires']);
      expect(res.headers['cache-control']).toBe('private, no-cache, no-store');
      const cookie = sessionCookie(res)!;
      expect(cookie.token).toBe(token);
      expect(Math.floor(row!.expiresAt.getTime() / 1000)).toBe(cookie.expires.getTime() / 1000);
    });

    it('the session carries the profile image URL when the user has one', async () => {
      const { alice, client } = await signedIn();
      await ctx.db.db.update(users).set({ profileImage: '/media/ab/abcdef.jpg' }).where(eq(users.id, alice.id));
      const res = await client.get('/api/auth/session');
      expect(res.json().user).toEqual({ name: 'Alice', email: 'alice@example.com', image: '/media/ab/abcdef.jpg' });
    });

    it('without json=true the answer is a 302 to the callbackUrl, with the cookie', async () => {
      await seedAlice();
      const client = new TestClient(ctx);
      const { csrfToken } = (await client.get('/api/auth/csrf')).json();
      const res = await postForm(client, '/api/auth/callback/credentials', {
        csrfToken,
        email: 'alice@example.com',
        password: PASSWORD,
        callbackUrl: '/users/1',
      });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`${ORIGIN}/users/1`);
      expect(res.body).toBe('');
      expect(sessionCookie(res)).not.toBeNull();
    });

    it('sanitizes the callbackUrl: a path becomes absolute, another site becomes the origin', async () => {
      await seedAlice();
      const relative = await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, {
        callbackUrl: '/notifications',
      });
      expect(relative.json()).toEqual({ url: `${ORIGIN}/notifications` });
      const evil = await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD, {
        callbackUrl: 'https://evil.example/steal',
      });
      expect(evil.json()).toEqual({ url: ORIGIN });
      const none = await signInWithPassword(new TestClient(ctx), 'alice@example.com');
      expect(none.json()).toEqual({ url: ORIGIN });
    });

    it('finds the account whatever the case of the email', async () => {
      await seedAlice();
      const res = await signInWithPassword(new TestClient(ctx), ' Alice@EXAMPLE.com ');
      expect(res.statusCode).toBe(200);
    });

    it('a wrong password and an unknown email get identical 401 answers', async () => {
      await seedAlice();
      const answer = async (email: string, password: string) => {
        const client = new TestClient(ctx);
        await client.get('/api/auth/csrf');
        const res = await signInWithPassword(client, email, password);
        const { date: _date, ...headers } = res.headers;
        // Cookie values differ per browser (fresh CSRF token); compare their names and attributes.
        headers['set-cookie'] = setCookieLines(res).map((line) => line.replace(/=[^;]*/, '=…'));
        return { status: res.statusCode, body: res.body, headers, session: cookieLine(res, 'next-auth.session-token') };
      };
      const wrongPassword = await answer('alice@example.com', 'not the password');
      const unknownEmail = await answer('nobody@example.com', 'not the password');
      const missing = await answer('alice@example.com', '');
      expect(wrongPassword.status).toBe(401);
      expect(JSON.parse(wrongPassword.body)).toEqual({
        url: `${BASE}/error?error=CredentialsSignin&provider=credentials`,
      });
      expect(wrongPassword.session).toBeUndefined();
      expect(unknownEmail).toEqual(wrongPassword);
      expect(missing).toEqual(wrongPassword);
      expect(await sessionRows()).toHaveLength(0);
    });

    it('an unknown email costs what a wrong password costs: one argon2 verification each', async () => {
      // Counted, not timed: a timing ratio fails on a busy machine. Without the dummy verification an
      // unknown email would make none (and answer ~10x faster).
      await seedAlice();
      const client = new TestClient(ctx);
      const verificationsFor = async (email: string) => {
        const before = argon.verifications;
        expect((await signInWithPassword(client, email, 'not the password')).statusCode).toBe(401);
        return argon.verifications - before;
      };
      expect(await verificationsFor('alice@example.com')).toBe(1);
      expect(await verificationsFor('nobody@example.com')).toBe(1);
      // The dummy hash has the parameters of a real one (the same work per verification).
      const params = (hash: string) => hash.split('$').slice(1, 4).join('$');
      const [alice] = await ctx.db.db.select({ hash: users.passwordHash }).from(users).limit(1);
      expect(params(argon.lastHash)).toBe(params(alice!.hash as string));
    });

    it('without json=true a failed sign-in is a 302 to the error page', async () => {
      await seedAlice();
      const client = new TestClient(ctx);
      const { csrfToken } = (await client.get('/api/auth/csrf')).json();
      const res = await postForm(client, '/api/auth/callback/credentials', {
        csrfToken,
        email: 'alice@example.com',
        password: 'nope',
      });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`${BASE}/error?error=CredentialsSignin&provider=credentials`);
    });

    describe('CSRF', () => {
      const attempt = async (client: TestClient, csrfToken: string | undefined, json = true) =>
        postForm(client, '/api/auth/callback/credentials', {
          email: 'alice@example.com',
          password: PASSWORD,
          ...(csrfToken === undefined ? {} : { csrfToken }),
          ...(json ? { json: 'true' } : {}),
        });

      it('a missing, wrong or cookie-less token answers 200 {url: signin?csrf=true} and signs nobody in', async () => {
        await seedAlice();
        const withCookie = new TestClient(ctx);
        const { csrfToken } = (await withCookie.get('/api/auth/csrf')).json();
        const noCookie = new TestClient(ctx);
        for (const res of [
          await attempt(withCookie, undefined),
          await attempt(withCookie, 'f'.repeat(64)),
          await attempt(withCookie, `${csrfToken}x`),
          await attempt(noCookie, csrfToken),
        ]) {
          expect(res.statusCode).toBe(200);
          expect(res.json()).toEqual({ url: `${BASE}/signin?csrf=true` });
          expect(cookieLine(res, 'next-auth.session-token')).toBeUndefined();
        }
        expect(await sessionRows()).toHaveLength(0);
      });

      it('a token from another browser does not pass', async () => {
        await seedAlice();
        const victim = new TestClient(ctx);
        const attacker = new TestClient(ctx);
        await victim.get('/api/auth/csrf');
        const { csrfToken } = (await attacker.get('/api/auth/csrf')).json();
        const res = await attempt(victim, csrfToken);
        expect(res.json()).toEqual({ url: `${BASE}/signin?csrf=true` });
      });

      it('without json=true it is a 302', async () => {
        const res = await attempt(new TestClient(ctx), undefined, false);
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe(`${BASE}/signin?csrf=true`);
      });
    });

    it('every sign-in issues a new token and revokes the one the browser carried (no fixation)', async () => {
      const { client, token: first } = await signedIn();
      const res = await signInWithPassword(client, 'alice@example.com');
      const second = sessionCookie(res)!.token;
      expect(second).not.toBe(first);
      const rows = await sessionRows();
      expect(rows.map((r) => r.tokenHash)).toEqual([sha256(second)]);

      const stale = new TestClient(ctx);
      stale.cookies.set('next-auth.session-token', first);
      expect((await stale.get('/api/auth/session')).json()).toEqual({});
    });

    it('a token planted before sign-in is replaced and worth nothing', async () => {
      await seedAlice();
      const planted = (await ctx.app.services.sessions.create((await insertUser(ctx.db, { username: 'mallory' })).id))
        .token;
      const victim = new TestClient(ctx);
      victim.cookies.set('next-auth.session-token', planted);
      const res = await signInWithPassword(victim, 'alice@example.com');
      expect(sessionCookie(res)!.token).not.toBe(planted);
      expect((await victim.get('/api/auth/session')).json().user.email).toBe('alice@example.com');
      const attacker = new TestClient(ctx);
      attacker.cookies.set('next-auth.session-token', planted);
      expect((await attacker.get('/api/auth/session')).json()).toEqual({});
    });

    it('two browsers keep two independent sessions', async () => {
      await seedAlice();
      const phone = new TestClient(ctx);
      const laptop = new TestClient(ctx);
      await signInWithPassword(phone, 'alice@example.com');
      await signInWithPassword(laptop, 'alice@example.com');
      expect(await sessionRows()).toHaveLength(2);
      expect((await phone.get('/api/auth/session')).json().user.name).toBe('Alice');
      expect((await laptop.get('/api/auth/session')).json().user.name).toBe('Alice');
    });

    it('the session cookie it sets is the one the rest of the API accepts', async () => {
      const { alice, client } = await signedIn();
      const res = await client.get('/api/current');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: String(alice.id), email: 'alice@example.com' });
    });
  });

  describe('POST /api/auth/signin/:provider', () => {
    it('for credentials points back to the sign-in page; without CSRF to signin?csrf=true', async () => {
      const client = new TestClient(ctx);
      const { csrfToken } = (await client.get('/api/auth/csrf')).json();
      const ok = await postForm(client, '/api/auth/signin/credentials', { csrfToken, json: 'true' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ url: `${BASE}/signin` });
      const redirect = await postForm(client, '/api/auth/signin/credentials', { csrfToken });
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers.location).toBe(`${BASE}/signin`);
      const bad = await postForm(client, '/api/auth/signin/credentials', { csrfToken: 'x', json: 'true' });
      expect(bad.json()).toEqual({ url: `${BASE}/signin?csrf=true` });
      const unknown = await postForm(client, '/api/auth/signin/github', { csrfToken, json: 'true' });
      expect(unknown.json()).toEqual({ url: `${BASE}/signin?csrf=true` });
    });
  });

  describe('POST /api/auth/signout', () => {
    it('revokes the session in the database, clears the cookie and answers {url}', async () => {
      const { client, token } = await signedIn();
      const { csrfToken } = (await client.get('/api/auth/csrf')).json();
      const res = await postForm(client, '/api/auth/signout', {
        csrfToken,
        callbackUrl: `${ORIGIN}/bye`,
        json: 'true',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ url: `${ORIGIN}/bye` });
      expect(cookieLine(res, 'next-auth.session-token')).toBe(
        'next-auth.session-token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
      );
      expect(await sessionRows()).toHaveLength(0);

      // The old token, replayed, is dead everywhere.
      const replay = new TestClient(ctx);
      replay.cookies.set('next-auth.session-token', token);
      const session = await replay.get('/api/auth/session');
      expect(session.json()).toEqual({});
      expect(cookieLine(session, 'next-auth.session-token')).toContain('Max-Age=0');
      expect((await replay.get('/api/current')).statusCode).toBe(401);
    });

    it('without json=true it is a 302 to the callbackUrl', async () => {
      const { client } = await signedIn();
      const { csrfToken } = (await client.get('/api/auth/csrf')).json();
      const res = await postForm(client, '/api/auth/signout', { csrfToken, callbackUrl: '/' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`${ORIGIN}/`);
      expect(await sessionRows()).toHaveLength(0);
    });

    it('without a valid CSRF token it answers signout?csrf=true and keeps the session', async () => {
      const { client } = await signedIn();
      const res = await postForm(client, '/api/auth/signout', { csrfToken: 'f'.repeat(64), json: 'true' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ url: `${BASE}/signout?csrf=true` });
      expect(cookieLine(res, 'next-auth.session-token')).toBeUndefined();
      expect(await sessionRows()).toHaveLength(1);
      expect((await client.get('/api/auth/session')).json().user.name).toBe('Alice');
    });

    it('signed out already: answers the callbackUrl and clears nothing', async () => {
      const client = new TestClient(ctx);
      const { csrfToken } = (await client.get('/api/auth/csrf')).json();
      const res = await postForm(client, '/api/auth/signout', { csrfToken, json: 'true' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ url: ORIGIN });
      expect(cookieLine(res, 'next-auth.session-token')).toBeUndefined();
    });
  });

  describe('expiry and renewal', () => {
    it('an expired session answers {}, clears the cookie and deletes the row', async () => {
      const { client } = await signedIn();
      await ctx.db.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) });
      const res = await client.get('/api/auth/session');
      expect(res.json()).toEqual({});
      expect(cookieLine(res, 'next-auth.session-token')).toBe(
        'next-auth.session-token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
      );
      expect(await sessionRows()).toHaveLength(0);
    });

    it('a session used more than a day after its last renewal lives another 30 days', async () => {
      const { client } = await signedIn();
      const old = new Date(Date.now() + 10 * DAY); // renewed 20 days ago
      await ctx.db.db.update(sessions).set({ expiresAt: old, renewedAt: new Date(Date.now() - 20 * DAY) });
      const before = Date.now();
      const res = await client.get('/api/auth/session');
      const expires = new Date(res.json().expires).getTime();
      expect(expires).toBeGreaterThanOrEqual(before + MAX_AGE);
      expect(expires).toBeLessThanOrEqual(Date.now() + MAX_AGE);
      const [row] = await sessionRows();
      expect(row!.expiresAt.getTime()).toBe(expires);
      expect(sessionCookie(res)!.expires.getTime()).toBe(Math.floor(expires / 1000) * 1000);
    });

    it('any signed-in call renews it, not only GET session, and re-sets the cookie', async () => {
      const { client } = await signedIn();
      await ctx.db.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() + 10 * DAY), renewedAt: new Date(Date.now() - 20 * DAY) });
      const before = Date.now();
      const res = await client.get('/api/current');
      expect(res.statusCode).toBe(200);
      const [row] = await sessionRows();
      expect(row!.expiresAt.getTime()).toBeGreaterThanOrEqual(before + MAX_AGE);
      expect(sessionCookie(res)!.expires.getTime()).toBe(Math.floor(row!.expiresAt.getTime() / 1000) * 1000);
      // The next call, the same day, writes nothing and sends no cookie.
      const again = await client.get('/api/current');
      expect(sessionCookie(again)).toBeNull();
      expect((await sessionRows())[0]!.renewedAt.getTime()).toBe(row!.renewedAt.getTime());
    });

    it('within a day of the last renewal the stored expiry is kept (no write per request)', async () => {
      const { client } = await signedIn();
      const [before] = await sessionRows();
      const res = await client.get('/api/auth/session');
      expect(res.json().expires).toBe(before!.expiresAt.toISOString());
      const [after] = await sessionRows();
      expect(after!.renewedAt.getTime()).toBe(before!.renewedAt.getTime());
    });

    it('deleting the account ends its sessions', async () => {
      const { alice, client } = await signedIn();
      await ctx.db.db.delete(users).where(eq(users.id, alice.id));
      expect((await client.get('/api/auth/session')).json()).toEqual({});
    });

    it('a sign-in purges expired sessions', async () => {
      const bob = await insertUser(ctx.db, { username: 'bob' });
      await ctx.db.db.insert(sessions).values([
        { tokenHash: 'a'.repeat(64), userId: bob.id, expiresAt: new Date(Date.now() - DAY) },
        { tokenHash: 'b'.repeat(64), userId: bob.id, expiresAt: new Date(Date.now() + DAY) },
      ]);
      // A fresh service: the app's own one purges at most hourly and earlier tests may have used it.
      const service = await AuthService.create(ctx.app.db, ctx.app.services.sessions, ctx.app.services.users);
      await service.startSession(bob.id, undefined);
      const hashes = (await sessionRows()).map((r) => r.tokenHash);
      expect(hashes).toHaveLength(2);
      expect(hashes).not.toContain('a'.repeat(64));
    });
  });

  describe('POST /api/auth/session (useSession().update)', () => {
    it('answers the session re-read from the database, ignoring the posted data', async () => {
      const { alice, client, token } = await signedIn();
      // A profile edit happened meanwhile (PATCH /api/edit writes these columns).
      await ctx.db.db
        .update(users)
        .set({ name: 'Alice Liddell', profileImage: '/media/cd/cdef.png' })
        .where(eq(users.id, alice.id));
      const { csrfToken } = (await client.get('/api/auth/csrf')).json();
      const res = await client.post('/api/auth/session', { csrfToken, data: { name: 'Mallory', email: 'x@y.z' } });
      expect(res.statusCode).toBe(200);
      const [row] = await sessionRows();
      expect(res.json()).toEqual({
        user: { name: 'Alice Liddell', email: 'alice@example.com', image: '/media/cd/cdef.png' },
        expires: row!.expiresAt.toISOString(),
      });
      // NextAuth sends no cache headers here; Pipit's default for every /api answer applies
      // (private, no-store: a session is personal). The cookie is re-set.
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers.pragma).toBeUndefined();
      expect(sessionCookie(res)!.token).toBe(token);
    });

    it('answers 400 {} without the CSRF token, leaving the session alone', async () => {
      const { client } = await signedIn();
      const res = await client.post('/api/auth/session', { data: { name: 'Mallory' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({});
      expect((await client.get('/api/auth/session')).json().user.name).toBe('Alice');
    });
  });
});
