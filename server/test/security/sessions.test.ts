/**
 * Item 3 (sessions), the cross-endpoint part. test/auth/sign-in.test.ts proves the protocol itself
 * (new token at every sign-in, a planted token is worthless, sign-out revokes, expiry); here:
 * - every Set-Cookie the app sends, on any endpoint, is HttpOnly, SameSite=Lax, Path=/, without
 *   Domain, and on https carries the __Secure-/__Host- prefix and Secure;
 * - a token that was signed out, has expired, or was tampered with opens nothing anywhere: every
 *   members-only read and every write answers 401 and writes nothing.
 */
import { describe, expect, it, vi } from 'vitest';
import { sql } from '../../src/db/client.ts';
import { cookieNames } from '../../src/lib/auth-cookies.ts';
import { insertUser, postForm, setCookieLines, signInWithPassword, TestClient, useTestApp } from '../helpers/app.ts';
import {
  expectCodedClientError,
  fillParams,
  fingerprint,
  listRoutes,
  queryRows,
  seedWorld,
  type World,
  WRITE_CALLS,
} from './support.ts';

type Ctx = ReturnType<typeof useTestApp>;

/** Walks the whole API as a visitor and as a member, signing in and out, and returns every Set-Cookie line. */
async function everySetCookie(ctx: Ctx): Promise<string[]> {
  const lines: string[] = [];
  const keep = (res: { headers: Record<string, unknown> }) => lines.push(...setCookieLines(res));
  const w = await seedWorld(ctx);
  await insertUser(ctx.db, { username: 'erin', email: 'erin@example.com' });
  const erin = new TestClient(ctx);
  keep(await erin.get('/api/auth/csrf'));
  keep(await erin.get('/api/auth/csrf?callbackUrl=%2Fsomewhere'));
  keep(await signInWithPassword(erin, 'erin@example.com'));
  keep(await erin.get('/api/auth/session'));
  keep(await postForm(erin, '/api/auth/session', { csrfToken: (await erin.get('/api/auth/csrf')).json().csrfToken }));
  for (const route of listRoutes(ctx.app)) {
    const url = fillParams(
      route.url.replace(':provider', 'credentials'),
      route.url.includes('/posts/') ? w.alicePost : w.ids.bob,
    );
    if (route.method === 'GET') {
      keep(await erin.get(url));
      keep(await w.visitor.get(url));
    }
  }
  for (const call of WRITE_CALLS) keep(await erin.request(call.method, call.url(w), call.body?.(w)));
  // A stale session cookie is cleared; a sign-out clears the live one.
  const stale = new TestClient(ctx);
  stale.cookies.set(cookieNames(ctx.config).session, 'no-such-session-token-0123456789abcdef');
  keep(await stale.get('/api/auth/session'));
  const { csrfToken } = (await erin.get('/api/auth/csrf')).json() as { csrfToken: string };
  keep(await postForm(erin, '/api/auth/signout', { csrfToken, json: 'true' }));
  return lines;
}

function expectCookieAttributes(lines: string[], https: boolean) {
  expect(lines.length).toBeGreaterThan(3);
  const names = new Set<string>();
  for (const line of lines) {
    const [pair, ...attrs] = line.split(';').map((p) => p.trim());
    const name = pair!.slice(0, pair!.indexOf('='));
    names.add(name);
    const lower = attrs.map((a) => a.toLowerCase());
    expect(lower, line).toContain('httponly');
    expect(lower, line).toContain('samesite=lax');
    expect(lower, line).toContain('path=/');
    expect(
      lower.some((a) => a.startsWith('domain=')),
      `${line}: no Domain`,
    ).toBe(false);
    if (https) {
      expect(name, line).toMatch(/^__(Secure|Host)-/);
      expect(lower, line).toContain('secure');
    } else {
      expect(name, line).not.toMatch(/^__/);
      expect(lower, `${line}: Secure would lose the cookie over http`).not.toContain('secure');
    }
  }
  return names;
}

describe('cookie attributes on http', () => {
  const ctx = useTestApp();
  it('every cookie of every endpoint: HttpOnly, SameSite=Lax, Path=/, no Domain, no Secure', async () => {
    const names = expectCookieAttributes(await everySetCookie(ctx), false);
    expect(names).toContain('next-auth.session-token');
    expect(names).toContain('next-auth.csrf-token');
  });
});

describe('cookie attributes on https', () => {
  const ctx = useTestApp({ publicUrl: 'https://pipit.example', secureCookies: true });
  it('every cookie of every endpoint: __Secure-/__Host- names, Secure, HttpOnly, SameSite=Lax, Path=/', async () => {
    const names = expectCookieAttributes(await everySetCookie(ctx), true);
    expect(names).toContain('__Secure-next-auth.session-token');
    expect(names).toContain('__Host-next-auth.csrf-token');
  });
});

describe('a dead token opens nothing', () => {
  const ctx = useTestApp();

  /** Every members-only call with `token` as the session cookie (and a valid CSRF token): all 401, nothing written. */
  async function expectDeadEverywhere(w: World, token: string, what: string) {
    const client = new TestClient(ctx).withCsrf();
    client.cookies.set(cookieNames(ctx.config).session, token);
    const before = await fingerprint(ctx.db, ctx.config.mediaDir);
    for (const url of ['/api/current', '/api/notifications', '/api/timeline/following', '/api/bookmarks']) {
      const res = await client.get(url);
      expect(res.statusCode, `${what}: GET ${url}`).toBe(401);
      expect(expectCodedClientError(res, url)).toBe('UNAUTHENTICATED');
    }
    for (const call of WRITE_CALLS.filter((c) => c.owner !== 'visitor')) {
      const res = await client.request(call.method, call.url(w), call.body?.(w));
      expect(res.statusCode, `${what}: ${call.method} ${call.route} → ${res.body}`).toBe(401);
    }
    const session = await client.get('/api/auth/session');
    expect(session.json(), `${what}: GET session`).toEqual({});
    // Fingerprint before the GET session above: a dead cookie's row may be cleaned up, nothing else.
    const after = await fingerprint(ctx.db, ctx.config.mediaDir);
    expect({ ...after, sessions: '' }).toEqual({ ...before, sessions: '' });
  }

  async function signedInToken() {
    const w = await seedWorld(ctx);
    await insertUser(ctx.db, { username: 'erin', email: 'erin@example.com' });
    const client = new TestClient(ctx);
    expect((await signInWithPassword(client, 'erin@example.com')).statusCode).toBe(200);
    return { w, client, token: client.cookies.get(cookieNames(ctx.config).session)! };
  }

  it('after sign-out', async () => {
    const { w, client, token } = await signedInToken();
    expect((await client.get('/api/current')).statusCode).toBe(200);
    const { csrfToken } = (await client.get('/api/auth/csrf')).json() as { csrfToken: string };
    expect((await postForm(client, '/api/auth/signout', { csrfToken, json: 'true' })).statusCode).toBe(200);
    await expectDeadEverywhere(w, token, 'signed-out token');
  });

  it('after expiry', async () => {
    const { w, client, token } = await signedInToken();
    expect((await client.get('/api/current')).statusCode).toBe(200);
    await ctx.db.db.execute(sql`UPDATE sessions SET expires_at = now() - interval '1 second'`);
    // Written straight to the database, without an event: the app forgets the session it cached.
    ctx.app.services.events.resync();
    await expectDeadEverywhere(w, token, 'expired token');
  });

  it('after expiry, while the app still holds the session in its cache', async () => {
    const { w, client, token } = await signedInToken();
    expect((await client.get('/api/current')).statusCode).toBe(200); // resolved, and cached
    // The session's lifetime passes (the clock only: the cache's own timer is not Date's).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + ctx.config.sessionMaxAgeMs + 1_000);
      await expectDeadEverywhere(w, token, 'expired cached token');
    } finally {
      vi.useRealTimers();
    }
  });

  it('tampered, truncated, re-cased or hashed tokens', async () => {
    const { w, token } = await signedInToken();
    const [row] = await queryRows(ctx.db, 'SELECT token_hash FROM sessions');
    const hashed = String(row!.token_hash);
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    for (const [what, forged] of [
      ['last character changed', token.slice(0, -1) + flip(token.at(-1)!)],
      ['truncated', token.slice(0, 20)],
      ['upper-cased', token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase()],
      ['with a suffix', `${token}x`],
      ['the stored hash itself', hashed],
      ['empty', ''],
      ['10 kB', 'a'.repeat(10_000)],
    ] as const) {
      await expectDeadEverywhere(w, forged, what);
    }
  });
});
