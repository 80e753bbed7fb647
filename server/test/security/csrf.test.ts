/**
 * Item 3 (CSRF): every state-changing call outside /api/auth needs the X-CSRF-Token header matching
 * its signed cookie; without it the call is refused with 403 CSRF_FAILED and nothing changes. A
 * cross-site form post (the three content types a form can send, no custom header, the victim's
 * cookies attached as a worst case) cannot change anything, on /api and on /api/auth alike, and
 * no path spelling slips past the check.
 */
import { connect } from 'node:net';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { cookieNames, newCsrfCookie } from '../../src/lib/auth-cookies.ts';
import { PASSWORD, useTestApp } from '../helpers/app.ts';
import {
  fingerprint,
  isProductWrite,
  listRoutes,
  routeKey,
  seedWorld,
  sendCall,
  UNSAFE_METHODS,
  type World,
  WRITE_CALLS,
  type WriteCall,
} from './support.ts';

describe('CSRF on every state-changing call', () => {
  const ctx = useTestApp();

  it('covers every state-changing /api route the app registers', () => {
    const registered = listRoutes(ctx.app).filter(isProductWrite).map(routeKey).sort();
    const known = WRITE_CALLS.map(routeKey).sort();
    expect(registered, 'a new state-changing route: add it to WRITE_CALLS in test/security/support.ts').toEqual(known);
  });

  function sessionCookie(w: World, call: WriteCall): string {
    if (call.owner === 'visitor') return '';
    const name = cookieNames(ctx.config).session;
    return `${name}=${encodeURIComponent(w[call.owner].cookies.get(name)!)}`;
  }

  /** Requests a browser could not make without knowing the token, each with the owner's session. */
  function forgeries(w: World, call: WriteCall): { what: string; headers: Record<string, string> }[] {
    const csrfName = cookieNames(ctx.config).csrf;
    const mine = newCsrfCookie(ctx.config.authSecret);
    const other = newCsrfCookie(ctx.config.authSecret);
    const foreign = newCsrfCookie('some-other-secret-0123456789abcdef');
    const cookie = (value?: string) =>
      [sessionCookie(w, call), value !== undefined ? `${csrfName}=${encodeURIComponent(value)}` : '']
        .filter(Boolean)
        .join('; ');
    const json = { 'content-type': 'application/json' };
    return [
      { what: 'no token, no cookie', headers: { ...json, cookie: cookie() } },
      { what: 'cookie, no header', headers: { ...json, cookie: cookie(mine.value) } },
      { what: 'header, no cookie', headers: { ...json, cookie: cookie(), 'x-csrf-token': mine.token } },
      { what: 'empty header', headers: { ...json, cookie: cookie(mine.value), 'x-csrf-token': '' } },
      {
        what: "another browser's token",
        headers: { ...json, cookie: cookie(mine.value), 'x-csrf-token': other.token },
      },
      {
        what: 'a cookie signed with another secret',
        headers: { ...json, cookie: cookie(foreign.value), 'x-csrf-token': foreign.token },
      },
      {
        what: 'the whole cookie value as header',
        headers: { ...json, cookie: cookie(mine.value), 'x-csrf-token': mine.value },
      },
      {
        what: 'token with a forged hash',
        headers: { ...json, cookie: cookie(`${mine.token}|${'0'.repeat(64)}`), 'x-csrf-token': mine.token },
      },
      {
        what: 'token in upper case',
        headers: { ...json, cookie: cookie(mine.value), 'x-csrf-token': mine.token.toUpperCase() },
      },
    ];
  }

  for (const call of WRITE_CALLS) {
    it(`${routeKey(call)}: refused without a valid token (403 CSRF_FAILED), nothing written`, async () => {
      const w = await seedWorld(ctx);
      const before = await fingerprint(ctx.db, ctx.config.mediaDir);
      for (const { what, headers } of forgeries(w, call)) {
        const res = await ctx.app.inject({
          method: call.method,
          url: call.url(w),
          headers,
          ...(call.body ? { payload: JSON.stringify(call.body(w)) } : {}),
        });
        expect(res.statusCode, `${what}: ${res.body}`).toBe(403);
        expect(res.json().code, what).toBe('CSRF_FAILED');
      }
      expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);

      // Control: the same call with the token goes through, so the refusals above were CSRF's doing.
      const res = await sendCall(w[call.owner], call, w);
      expect(res.statusCode, res.body).toBeLessThan(300);
    });
  }

  it('a cross-site form post (urlencoded, multipart, text/plain) changes nothing on any /api call', async () => {
    const w = await seedWorld(ctx);
    const csrfName = cookieNames(ctx.config).csrf;
    const csrf = newCsrfCookie(ctx.config.authSecret);
    const before = await fingerprint(ctx.db, ctx.config.mediaDir);
    const boundary = '----pipitform';
    const forms: { type: string; body: string }[] = [
      { type: 'application/x-www-form-urlencoded', body: 'text=pwned&name=pwned&email=evil%40example.com' },
      {
        type: `multipart/form-data; boundary=${boundary}`,
        body: `--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\npwned\r\n--${boundary}--\r\n`,
      },
      // The classic trick: JSON in a text/plain form field.
      { type: 'text/plain', body: '{"text":"pwned","name":"pwned","ignore":"="}' },
    ];
    for (const call of WRITE_CALLS) {
      for (const form of forms) {
        const res = await ctx.app.inject({
          method: call.method,
          url: call.url(w),
          headers: {
            'content-type': form.type,
            origin: 'https://evil.example',
            referer: 'https://evil.example/attack.html',
            cookie: [sessionCookie(w, call), `${csrfName}=${encodeURIComponent(csrf.value)}`]
              .filter(Boolean)
              .join('; '),
          },
          payload: form.body,
        });
        expect([403, 415], `${routeKey(call)} ${form.type}: ${res.body}`).toContain(res.statusCode);
      }
    }
    expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
  });

  it('no spelling of a path slips a write past the CSRF check (raw HTTP on 127.0.0.1)', async () => {
    const w = await seedWorld(ctx);
    const session = sessionCookie(w, WRITE_CALLS.find((c) => c.route === '/api/posts')!);
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const before = await fingerprint(ctx.db, ctx.config.mediaDir);
    const paths = [
      '/api/auth/../posts',
      '/api/auth/%2e%2e/posts',
      '/api/auth/..%2fposts',
      '/api/auth/%2E%2E%2Fposts',
      '/api/auth/./../posts',
      '/api/auth//../posts',
      '/api//posts',
      '/API/posts',
      '/api/posts/',
      '/api/posts?/api/auth/',
      '/api/posts#/api/auth/',
      '/api/auth/..;/posts',
      'http://127.0.0.1/api/posts',
      `/api/auth/../users/${w.ids.bob}/follow`,
    ];
    for (const path of paths) {
      const method = path.includes('follow') ? 'PUT' : 'POST';
      const body = method === 'POST' ? '{"text":"slipped past CSRF"}' : '';
      const raw = await rawHttp(Number(port), [
        `${method} ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Cookie: ${session}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body,
      ]);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
      expect(status, `${path}: ${raw.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(status, `${path}: ${raw.slice(0, 200)}`).toBeLessThan(500);
    }
    expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
  });
});

describe('CSRF on /api/auth', () => {
  const ctx = useTestApp();

  /** The auth protocol's writes, posted by a cross-site form: no csrfToken field, victim's cookies. */
  it('a cross-site form post to any /api/auth write signs nobody in or out and changes nothing', async () => {
    const w = await seedWorld(ctx);
    const names = cookieNames(ctx.config);
    const csrf = newCsrfCookie(ctx.config.authSecret);
    const victimSession = w.bob.cookies.get(names.session)!;
    const authWrites = listRoutes(ctx.app).filter(
      (r) => UNSAFE_METHODS.has(r.method) && r.url.startsWith('/api/auth/'),
    );
    expect(authWrites.map(routeKey)).toEqual(
      expect.arrayContaining(['POST /api/auth/callback/:provider', 'POST /api/auth/signout']),
    );
    const before = await fingerprint(ctx.db);
    for (const route of authWrites) {
      const url = route.url.replace(':provider', 'credentials').replace(/:[a-z]+/gi, 'x');
      for (const csrfToken of [undefined, '', 'f'.repeat(64), csrf.value]) {
        const form = new URLSearchParams({
          // Login CSRF: the attacker's own credentials, to sign the victim into the attacker's account.
          email: 'alice@example.com',
          password: PASSWORD,
          callbackUrl: 'https://evil.example/',
          json: 'true',
          ...(csrfToken !== undefined ? { csrfToken } : {}),
        });
        const req: InjectOptions = {
          method: route.method as 'POST',
          url,
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            origin: 'https://evil.example',
            cookie: `${names.session}=${encodeURIComponent(victimSession)}; ${names.csrf}=${encodeURIComponent(csrf.value)}`,
          },
          payload: form.toString(),
        };
        const res = await ctx.app.inject(req);
        const where = `${route.method} ${url} csrfToken=${csrfToken}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        const setCookies = [res.headers['set-cookie'] ?? []].flat();
        expect(
          setCookies.filter((c) => c.startsWith(`${names.session}=`)),
          `${where}: no session cookie set or cleared`,
        ).toEqual([]);
      }
    }
    expect(await fingerprint(ctx.db)).toEqual(before);
    // The victim is still signed in.
    expect((await w.bob.get('/api/current')).statusCode).toBe(200);
  });
});

/** Sends bytes exactly as written (fetch would normalise the path) and reads the whole answer. */
function rawHttp(port: number, lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setTimeout(5_000, () => socket.destroy(new Error('raw HTTP timed out')));
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.write(lines.join('\r\n'));
  });
}
