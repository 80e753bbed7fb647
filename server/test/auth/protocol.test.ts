/**
 * The /api/auth endpoints that do not need an account: exact statuses, bodies, headers and cookies
 * of docs/spec/auth-protocol.md, over HTTP on a real database (http public URL).
 */
import { createHash } from 'node:crypto';
import { api } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { isValidCallbackUrl, sanitizeCallbackUrl } from '../../src/modules/auth/auth.protocol.ts';
import { postForm, setCookieLines, TEST_SECRET, TestClient, useTestApp } from '../helpers/app.ts';

const ORIGIN = 'http://localhost:3999';
const BASE = `${ORIGIN}/api/auth`;
const INVALID_CALLBACK = {
  code: 'INVALID_CALLBACK_URL_ERROR',
  message: 'callbackUrl must be an http(s) URL or a path on this site.',
};

const cookieLine = (res: { headers: Record<string, unknown> }, name: string) =>
  setCookieLines(res).find((line) => line.startsWith(`${name}=`));

describe('callback URL rules (pure)', () => {
  it('keeps paths and same-origin URLs, sends everything else to the origin', () => {
    expect(sanitizeCallbackUrl('/feed?x=1', ORIGIN)).toBe(`${ORIGIN}/feed?x=1`);
    expect(sanitizeCallbackUrl(`${ORIGIN}/users/1`, ORIGIN)).toBe(`${ORIGIN}/users/1`);
    expect(sanitizeCallbackUrl('https://evil.example/x', ORIGIN)).toBe(ORIGIN);
    expect(sanitizeCallbackUrl('http://localhost:4000/x', ORIGIN)).toBe(ORIGIN);
    expect(sanitizeCallbackUrl('javascript:alert(1)', ORIGIN)).toBe(ORIGIN);
    expect(sanitizeCallbackUrl('not a url', ORIGIN)).toBe(ORIGIN);
  });

  it('accepts only http(s) URLs and paths as a query or cookie callbackUrl', () => {
    expect(isValidCallbackUrl('/feed', BASE)).toBe(true);
    expect(isValidCallbackUrl('https://evil.example/x', BASE)).toBe(true); // valid, later sanitized
    expect(isValidCallbackUrl('javascript:alert(1)', BASE)).toBe(false);
    expect(isValidCallbackUrl('data:text/html,hi', BASE)).toBe(false);
    expect(isValidCallbackUrl('feed', BASE)).toBe(false);
  });
});

describe('/api/auth protocol', () => {
  const ctx = useTestApp();

  describe('GET /api/auth/csrf', () => {
    it('issues a token and its signed cookie, with the no-cache headers', async () => {
      const res = await new TestClient(ctx).get('/api/auth/csrf');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('private, no-cache, no-store');
      expect(res.headers.pragma).toBe('no-cache');
      expect(res.headers.expires).toBe('0');
      const { csrfToken } = res.json();
      expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
      const hash = createHash('sha256').update(`${csrfToken}${TEST_SECRET}`).digest('hex');
      expect(cookieLine(res, 'next-auth.csrf-token')).toBe(
        `next-auth.csrf-token=${csrfToken}%7C${hash}; Path=/; HttpOnly; SameSite=Lax`,
      );
      // init also settles the callback URL cookie on the origin.
      expect(cookieLine(res, 'next-auth.callback-url')).toBe(
        'next-auth.callback-url=http%3A%2F%2Flocalhost%3A3999; Path=/; HttpOnly; SameSite=Lax',
      );
    });

    it('reuses a valid cookie: same token, no new cookies', async () => {
      const client = new TestClient(ctx);
      const first = (await client.get('/api/auth/csrf')).json().csrfToken;
      const again = await client.get('/api/auth/csrf');
      expect(again.json().csrfToken).toBe(first);
      expect(setCookieLines(again)).toEqual([]);
    });

    it('replaces a cookie whose hash does not check out', async () => {
      const client = new TestClient(ctx);
      client.cookies.set('next-auth.csrf-token', `${'a'.repeat(64)}|${'0'.repeat(64)}`);
      const res = await client.get('/api/auth/csrf');
      const { csrfToken } = res.json();
      expect(csrfToken).not.toBe('a'.repeat(64));
      expect(cookieLine(res, 'next-auth.csrf-token')).toContain(`next-auth.csrf-token=${csrfToken}%7C`);
    });
  });

  describe('GET /api/auth/providers', () => {
    it('lists the credentials provider with absolute URLs and sets no cookie', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/providers' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({
        credentials: {
          id: 'credentials',
          name: 'Credentials',
          type: 'credentials',
          signinUrl: `${BASE}/signin/credentials`,
          callbackUrl: `${BASE}/callback/credentials`,
        },
      });
      expect(res.headers['set-cookie']).toBeUndefined();
    });
  });

  describe('GET /api/auth/session', () => {
    it('answers {} with the no-cache headers to a visitor, and sets no session cookie', async () => {
      const res = await new TestClient(ctx).get('/api/auth/session', {
        headers: { 'content-type': 'application/json' }, // what the client sends, with no body
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toBe('{}');
      expect(res.headers['cache-control']).toBe('private, no-cache, no-store');
      expect(res.headers.pragma).toBe('no-cache');
      expect(res.headers.expires).toBe('0');
      expect(cookieLine(res, 'next-auth.session-token')).toBeUndefined();
    });

    it('clears a session cookie that matches no session', async () => {
      const client = new TestClient(ctx);
      client.cookies.set('next-auth.session-token', 'forged-token');
      const res = await client.get('/api/auth/session');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
      expect(cookieLine(res, 'next-auth.session-token')).toBe(
        'next-auth.session-token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
      );
      expect(client.cookies.has('next-auth.session-token')).toBe(false);
    });
  });

  describe('POST /api/auth/session', () => {
    it('answers 400 {} without a valid CSRF token', async () => {
      const client = new TestClient(ctx);
      await client.get('/api/auth/csrf');
      const res = await client.post('/api/auth/session', { csrfToken: 'f'.repeat(64), data: {} });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({});
      const noCookie = await new TestClient(ctx).post('/api/auth/session', { csrfToken: 'f'.repeat(64) });
      expect(noCookie.statusCode).toBe(400);
      expect(noCookie.json()).toEqual({});
    });

    it('answers 200 {} to a visitor with a valid token', async () => {
      const client = new TestClient(ctx);
      const { csrfToken } = (await client.get('/api/auth/csrf')).json();
      const res = await client.post('/api/auth/session', { csrfToken });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
    });
  });

  describe('unknown actions and methods', () => {
    it.each([
      ['GET', '/api/auth/nope', 'GET'],
      ['GET', '/api/auth/', 'GET'],
      ['POST', '/api/auth/csrf', 'POST'],
      ['POST', '/api/auth/providers', 'POST'],
      ['DELETE', '/api/auth/session', 'DELETE'],
      ['PUT', '/api/auth/signout', 'PUT'],
      ['GET', '/api/auth/_log', 'GET'],
      ['POST', '/api/auth/callback/github', 'POST'],
      ['GET', '/api/auth/callback/github', 'GET'],
    ] as const)('%s %s → 400 text/plain', async (method, url, shown) => {
      const res = await ctx.app.inject({ method, url });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toBe(`Error: This action with HTTP ${shown} is not supported by NextAuth.js`);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('GET callback/credentials → 400 text: credentials only accept POST (NextAuth: 500)', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/callback/credentials' });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toBe('Error: Callback for provider type credentials not supported');
    });
  });

  describe('POST /api/auth/_log', () => {
    it('accepts the client logger beacon (form, ;charset=UTF-8) with an empty 200 and no cookies', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/_log',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
        payload:
          'level=error&code=CLIENT_FETCH_ERROR&error=%5Bobject+Object%5D&url=%2Fapi%2Fauth%2Fsession&client=true',
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('');
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('accepts an empty beacon', async () => {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/_log' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('');
    });
  });

  describe('form bodies stay inside /api/auth', () => {
    it('the rest of /api still refuses a form body with 415', async () => {
      const client = new TestClient(ctx).withCsrf();
      const res = await client.post(api.register, 'email=a%40b.co&password=x', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    });
  });

  describe('pages: the SPA at / stands in for NextAuth HTML pages', () => {
    it('GET signin redirects to the SPA with the callbackUrl', async () => {
      const res = await new TestClient(ctx).get('/api/auth/signin');
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/?callbackUrl=http%3A%2F%2Flocalhost%3A3999');
      expect(res.body).toBe('');
    });

    it('GET signin keeps the error and remembers a relative callbackUrl as absolute', async () => {
      const client = new TestClient(ctx);
      const res = await client.get('/api/auth/signin?error=SessionRequired&callbackUrl=%2Fnotifications');
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(
        '/?callbackUrl=http%3A%2F%2Flocalhost%3A3999%2Fnotifications&error=SessionRequired',
      );
      expect(cookieLine(res, 'next-auth.callback-url')).toBe(
        'next-auth.callback-url=http%3A%2F%2Flocalhost%3A3999%2Fnotifications; Path=/; HttpOnly; SameSite=Lax',
      );
      // The remembered URL is used when no other is given, and not re-set while unchanged.
      const again = await client.get('/api/auth/signin');
      expect(again.headers.location).toBe('/?callbackUrl=http%3A%2F%2Flocalhost%3A3999%2Fnotifications');
      expect(cookieLine(again, 'next-auth.callback-url')).toBeUndefined();
    });

    it('GET signin sends a foreign callbackUrl back to the origin', async () => {
      const res = await new TestClient(ctx).get('/api/auth/signin?callbackUrl=https%3A%2F%2Fevil.example%2Fx');
      expect(res.headers.location).toBe('/?callbackUrl=http%3A%2F%2Flocalhost%3A3999');
      const same = await new TestClient(ctx).get(
        `/api/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/users/7?tab=likes`)}`,
      );
      expect(same.headers.location).toBe(`/?callbackUrl=${encodeURIComponent(`${ORIGIN}/users/7?tab=likes`)}`);
    });

    it.each([
      ['CredentialsSignin', `${BASE}/signin?error=CredentialsSignin`],
      ['SessionRequired', `${BASE}/signin?error=SessionRequired`],
      ['OAuthSignin', `${BASE}/signin?error=OAuthSignin`],
      ['AccessDenied', '/?error=AccessDenied'],
      ['Verification', '/?error=Verification'],
      ['Custom problem', '/?error=Custom%20problem'],
    ])('GET error?error=%s → 302 %s', async (error, location) => {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/auth/error?error=${encodeURIComponent(error)}` });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(location);
    });

    it('GET error without a code → the SPA with the generic error', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/error' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/?error=Default');
    });

    it.each(['signout', 'verify-request'])('GET %s → 302 to the SPA', async (page) => {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/auth/${page}` });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/');
    });
  });

  describe('INVALID_CALLBACK_URL_ERROR', () => {
    it.each(['/api/auth/session', '/api/auth/csrf', '/api/auth/providers'])(
      'a javascript: callbackUrl in the query of GET %s → 400 INVALID_CALLBACK_URL_ERROR (NextAuth: 500)',
      async (path) => {
        const res = await ctx.app.inject({
          method: 'GET',
          url: `${path}?callbackUrl=${encodeURIComponent('javascript:alert(1)')}`,
        });
        expect(res.statusCode).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json()).toEqual(INVALID_CALLBACK);
        expect(res.headers['set-cookie']).toBeUndefined();
      },
    );

    it('POSTs with a bad query callbackUrl fail the same way', async () => {
      const client = new TestClient(ctx);
      const res = await postForm(client, '/api/auth/signout?callbackUrl=javascript%3Aalert(1)', { json: 'true' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(INVALID_CALLBACK);
    });

    it('the HTML pages redirect to the SPA with error=Configuration', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/signin?callbackUrl=javascript%3Aalert(1)' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/?error=Configuration');
    });

    it('a bad callback-url cookie fails too, and is cleared so the next call works', async () => {
      const client = new TestClient(ctx);
      client.cookies.set('next-auth.callback-url', 'javascript:alert(1)');
      const res = await client.get('/api/auth/session');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(INVALID_CALLBACK);
      expect(cookieLine(res, 'next-auth.callback-url')).toBe(
        'next-auth.callback-url=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
      );
      const next = await client.get('/api/auth/session');
      expect(next.statusCode).toBe(200);
    });

    it('a bad callbackUrl in a POST body is only sanitized, never an error', async () => {
      const client = new TestClient(ctx);
      const { csrfToken } = (await client.get('/api/auth/csrf')).json();
      const res = await postForm(client, '/api/auth/signout', {
        csrfToken,
        callbackUrl: 'javascript:alert(1)',
        json: 'true',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ url: ORIGIN });
    });
  });
});
