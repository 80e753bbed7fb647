/**
 * The REAL, unmodified next-auth/react v4 client (next-auth@4.24.15) against the server over HTTP,
 * in a jsdom page, as docs/spec/auth-protocol.md §4 describes:
 * - window/document/localStorage/navigator are globals BEFORE the import (the client decides
 *   browser vs server at import time);
 * - the page lives at the public URL (http://localhost:3999/feed), so the client fetches relative
 *   URLs; a fetch wrapper resolves them against the page, sends them to the listening test server
 *   (like a dev proxy) and keeps the browser's cookie jar;
 * - navigator.sendBeacon is stubbed to record the client's error beacons (POST _log): the happy
 *   paths must not produce any.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { JSDOM } from 'jsdom';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessions, users } from '../../src/db/schema.ts';
import { insertUser, PASSWORD, useTestApp } from '../helpers/app.ts';

type NextAuthReact = typeof import('next-auth/react');

const ORIGIN = 'http://localhost:3999';
const PAGE = `${ORIGIN}/feed`;

/** What the latest render of <Probe/> got from useSession() (the hook comes from the late import). */
const probe: { useSession?: NextAuthReact['useSession']; current?: ReturnType<NextAuthReact['useSession']> } = {};
function Probe() {
  probe.current = probe.useSession!();
  return null;
}

describe('next-auth/react v4 client against the server', () => {
  const ctx = useTestApp();

  let nextAuth: NextAuthReact;
  let dom: JSDOM;
  let serverOrigin = '';
  const realFetch = globalThis.fetch;
  const jar = new Map<string, string>();
  const requests: { method: string; path: string; status: number; body?: string }[] = [];
  /** Every beacon, recorded as it is sent (its delivery's status follows), so "none" is checked at once. */
  const beacons: { url: string; body: string; delivered: Promise<number> }[] = [];
  /** Paths whose next request fails at the network level, as with the server away. */
  const unreachable = new Set<string>();

  /** The browser: same-origin requests with its cookies; Set-Cookie answers update the jar. */
  async function browserFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
    const url = new URL(input instanceof Request ? input.url : String(input), dom.window.location.href);
    if (url.origin !== ORIGIN) throw new Error(`the page fetched another origin: ${url}`);
    if (unreachable.delete(url.pathname)) throw new TypeError('fetch failed');
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    const res = await realFetch(`${serverOrigin}${url.pathname}${url.search}`, {
      ...init,
      headers,
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/;\s*Max-Age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    requests.push({
      method: (init.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      status: res.status,
      ...(init.body ? { body: String(init.body) } : {}),
    });
    return res;
  }

  beforeEach(async () => {
    jar.clear();
    requests.length = 0;
    beacons.length = 0;
    if (nextAuth) {
      dom.window.localStorage.clear();
      return;
    }
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    serverOrigin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;

    dom = new JSDOM('<!doctype html><html><body></body></html>', { url: PAGE, pretendToBeVisual: true });
    dom.window.navigator.sendBeacon = (url: string, data?: unknown) => {
      // Recorded when sent, then delivered for real, as the browser would (form-encoded;charset=UTF-8).
      const delivered = browserFetch(url, { method: 'POST', body: data as URLSearchParams }).then((res) => res.status);
      beacons.push({ url, body: String(data), delivered });
      return true;
    };
    const globals = globalThis as Record<string, unknown>;
    globals.window = dom.window;
    globals.document = dom.window.document;
    globals.localStorage = dom.window.localStorage;
    Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
    globalThis.fetch = browserFetch as typeof fetch;
    process.env.NEXTAUTH_URL = ORIGIN;
    nextAuth = await import('next-auth/react');
  });

  afterAll(() => {
    globalThis.fetch = realFetch;
    for (const name of ['window', 'document', 'localStorage', 'navigator']) {
      delete (globalThis as Record<string, unknown>)[name];
    }
    delete process.env.NEXTAUTH_URL;
    dom?.window.close();
  });

  const seedAlice = () => insertUser(ctx.db, { username: 'alice', email: 'alice@example.com', name: 'Alice' });
  const lastMessage = () => JSON.parse(dom.window.localStorage.getItem('nextauth.message') ?? 'null');

  it('getProviders and getCsrfToken read the server', async () => {
    expect(await nextAuth.getProviders()).toEqual({
      credentials: {
        id: 'credentials',
        name: 'Credentials',
        type: 'credentials',
        signinUrl: `${ORIGIN}/api/auth/signin/credentials`,
        callbackUrl: `${ORIGIN}/api/auth/callback/credentials`,
      },
    });
    const token = await nextAuth.getCsrfToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(await nextAuth.getCsrfToken()).toBe(token); // stable for the browser session
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /api/auth/providers 200',
      'GET /api/auth/csrf 200',
      'GET /api/auth/csrf 200',
    ]);
    expect(beacons).toEqual([]);
  });

  it('a visitor has no session: getSession() is null', async () => {
    expect(await nextAuth.getSession()).toBeNull();
    expect(lastMessage()).toMatchObject({ event: 'session', data: { trigger: 'getSession' } });
    expect(beacons).toEqual([]);
  });

  it('signIn with a wrong password or an unknown email reports CredentialsSignin', async () => {
    await seedAlice();
    const wrong = await nextAuth.signIn('credentials', {
      redirect: false,
      email: 'alice@example.com',
      password: 'not the password',
    });
    expect(wrong).toEqual({ error: 'CredentialsSignin', status: 401, ok: false, url: null });
    const unknown = await nextAuth.signIn('credentials', {
      redirect: false,
      email: 'nobody@example.com',
      password: 'not the password',
    });
    expect(unknown).toEqual(wrong);
    expect(jar.has('next-auth.session-token')).toBe(false);
    expect(await nextAuth.getSession()).toBeNull();
    expect(beacons).toEqual([]);
  });

  it('signIn, getSession, signOut: the whole session life through the real client', async () => {
    await seedAlice();
    const result = await nextAuth.signIn('credentials', {
      redirect: false,
      email: 'alice@example.com',
      password: PASSWORD,
    });
    expect(result).toEqual({ error: null, status: 200, ok: true, url: PAGE });

    // What the client posted (every option as a string, the page as callbackUrl, json=true).
    const post = requests.find((r) => r.path === '/api/auth/callback/credentials')!;
    const form = new URLSearchParams(post.body);
    expect([...form.keys()]).toEqual(['redirect', 'email', 'password', 'csrfToken', 'callbackUrl', 'json']);
    expect(form.get('redirect')).toBe('false');
    expect(form.get('callbackUrl')).toBe(PAGE);
    expect(form.get('json')).toBe('true');
    expect(jar.get('next-auth.session-token')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const session = await nextAuth.getSession();
    const [row] = await ctx.db.db.select().from(sessions);
    expect(session).toEqual({
      user: { name: 'Alice', email: 'alice@example.com', image: null },
      expires: row!.expiresAt.toISOString(),
    });

    const out = await nextAuth.signOut({ redirect: false });
    expect(out).toEqual({ url: PAGE });
    expect(lastMessage()).toMatchObject({ event: 'session', data: { trigger: 'signout' } });
    expect(jar.has('next-auth.session-token')).toBe(false);
    expect(await ctx.db.db.select().from(sessions)).toEqual([]);
    expect(await nextAuth.getSession()).toBeNull();
    expect(beacons).toEqual([]);
  });

  it('signIn with an explicit callbackUrl gets it back; a foreign one comes back as the origin', async () => {
    await seedAlice();
    const own = await nextAuth.signIn('credentials', {
      redirect: false,
      email: 'alice@example.com',
      password: PASSWORD,
      callbackUrl: '/notifications',
    });
    expect(own).toEqual({ error: null, status: 200, ok: true, url: `${ORIGIN}/notifications` });
    const foreign = await nextAuth.signIn('credentials', {
      redirect: false,
      email: 'alice@example.com',
      password: PASSWORD,
      callbackUrl: 'https://evil.example/',
    });
    expect(foreign?.url).toBe(ORIGIN);
  });

  it('SessionProvider + useSession: authenticated, and update() answers the profile as edited meanwhile', async () => {
    const alice = await seedAlice();
    await nextAuth.signIn('credentials', { redirect: false, email: 'alice@example.com', password: PASSWORD });
    const React = await import('react');
    const { createRoot } = await import('react-dom/client');
    (globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = true;

    probe.useSession = nextAuth.useSession;
    const document = dom.window.document as { createElement(tag: 'div'): Parameters<typeof createRoot>[0] };
    const root = createRoot(document.createElement('div'));
    try {
      await React.act(async () => {
        root.render(React.createElement(nextAuth.SessionProvider, null, React.createElement(Probe)));
      });
      // The provider fetches the session after mount; waiting in act() steps keeps its updates in scope.
      for (let i = 0; i < 200 && probe.current?.status !== 'authenticated'; i++) {
        await React.act(() => new Promise((resolve) => setTimeout(resolve, 10)));
      }
      expect(probe.current?.status).toBe('authenticated');
      expect(probe.current!.data?.user?.name).toBe('Alice');

      // The profile changes (PATCH /api/edit writes these columns); update() re-reads it.
      await ctx.db.db
        .update(users)
        .set({ name: 'Alice Liddell', profileImage: '/media/ab/abcd.png' })
        .where(eq(users.id, alice.id));
      // Written straight to the database, so no user.updated event drops the cached session: say so.
      ctx.app.services.events.resync();
      let updated: unknown;
      await React.act(async () => {
        updated = await probe.current!.update({ name: 'ignored by the server' });
      });
      expect(updated).toMatchObject({
        user: { name: 'Alice Liddell', email: 'alice@example.com', image: '/media/ab/abcd.png' },
      });
      expect(probe.current!.data?.user?.name).toBe('Alice Liddell');
      const posted = requests.find((r) => r.method === 'POST' && r.path === '/api/auth/session')!;
      expect(posted.status).toBe(200);
      expect(JSON.parse(posted.body!)).toEqual({
        csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/),
        data: { name: 'ignored by the server' },
      });
    } finally {
      await React.act(async () => root.unmount());
    }
    expect(beacons).toEqual([]);
  });

  it('a client-side failure is beaconed to POST _log, which accepts it', async () => {
    unreachable.add('/api/auth/session');
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await nextAuth.getSession()).toBeNull();
      expect(String(consoleError.mock.calls[0]?.[0])).toContain('[next-auth][error][CLIENT_FETCH_ERROR]');
    } finally {
      consoleError.mockRestore();
    }
    // The client sends it before getSession() resolves (navigator.sendBeacon is synchronous).
    expect(beacons).toHaveLength(1);
    expect(beacons[0]!.url).toBe('/api/auth/_log');
    expect(new URLSearchParams(beacons[0]!.body).get('code')).toBe('CLIENT_FETCH_ERROR');
    expect(await beacons[0]!.delivered).toBe(200);
  });
});
