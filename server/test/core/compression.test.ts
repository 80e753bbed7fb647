/**
 * Answers go out compressed when the client asks (lib/compression.ts): every JSON answer of the
 * product API and the Mastodon API over 1 KB, in br or gzip as Accept-Encoding says, saying exactly
 * what the uncompressed answer says; kept answers (the visitors' Everyone page) compressed once;
 * never /api/auth or /oauth (their answers carry secrets: BREACH), nor a small answer. Request
 * bodies are read as sent: a compressed one is a 415.
 */
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { inject, useTestApp } from '../helpers/app.ts';
import { fillParams, isMastodonRoute, listRoutes, queryRows, seedWorld, type World } from '../security/support.ts';

const decode = (res: LightMyRequestResponse): string => {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
  if (encoding === undefined) return res.body;
  throw new Error(`unexpected content-encoding ${String(encoding)}`);
};

describe('compressed answers', () => {
  const ctx = useTestApp();

  /** Enough posts that timelines, profiles and searches are over the 1 KB threshold. */
  async function world(): Promise<World> {
    const w = await seedWorld(ctx);
    for (let i = 0; i < 8; i++) {
      const res = await w.bob.post('/api/posts', {
        text: `Post number ${i} about #birds, long enough to count ${'·'.repeat(60)}`,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    return w;
  }

  function credentialsFor(w: World, url: string): Record<string, string> {
    if (isMastodonRoute(url)) return { authorization: `Bearer ${w.oauth.aliceToken}` };
    return { cookie: w.alice.cookies.header() };
  }

  it('compress every JSON answer over 1 KB when asked, in the encoding asked for, saying the same', async () => {
    const w = await world();
    const routes = listRoutes(ctx.app).filter(
      (r) =>
        r.method === 'GET' &&
        (r.url.startsWith('/api/') || isMastodonRoute(r.url)) &&
        // Event streams stay open (test/stream: never compressed); the WebSocket is not HTTP.
        !['/api/stream', '/api/v1/streaming'].includes(r.url),
    );
    let compressed = 0;
    for (const route of routes) {
      const url = fillParams(
        route.url.replace(':username', 'bob').replace(':tag', 'birds'),
        route.url.includes('/posts/') || route.url.includes('/statuses/') ? w.bobPost : w.ids.bob,
      );
      const request = (encoding?: string): InjectOptions => ({
        method: 'GET',
        url,
        headers: { ...credentialsFor(w, route.url), ...(encoding ? { 'accept-encoding': encoding } : {}) },
      });
      const plain = await inject(ctx.app, request());
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      for (const [asked, expected] of [
        ['gzip', 'gzip'],
        ['gzip, deflate, br, zstd', 'br'],
      ] as const) {
        const res = await inject(ctx.app, request(asked));
        expect(res.statusCode, `${url} (${asked})`).toBe(plain.statusCode);
        // The session protocol and OAuth's own endpoints (tokens, secrets, their metadata) go as they are.
        const secret = ['/api/auth/', '/oauth/', '/.well-known/'].some((prefix) => route.url.startsWith(prefix));
        const big = Buffer.byteLength(plain.body) >= 1024;
        const json = String(plain.headers['content-type']).startsWith('application/json');
        if (!secret && big && json) {
          expect(res.headers['content-encoding'], `${url} (${asked})`).toBe(expected);
          expect(String(res.headers.vary), url).toContain('accept-encoding');
          expect(res.rawPayload.length, url).toBeLessThan(Buffer.byteLength(plain.body));
          compressed++;
        } else {
          expect(res.headers['content-encoding'], `${url} (${asked}, ${plain.body.length} B)`).toBeUndefined();
        }
        // (An export is a ZIP made anew each time: only JSON answers are compared.)
        if (json) expect(decode(res), `${url} (${asked})`).toBe(plain.body);
      }
    }
    // Timelines, profiles, searches, notifications, Mastodon's statuses and accounts…
    expect(compressed).toBeGreaterThan(20);
  });

  it('send a kept answer in the encoding asked for, the same bytes each time, and plain when not asked', async () => {
    await world();
    const everyone = (headers: Record<string, string>) =>
      inject(ctx.app, { method: 'GET', url: '/api/timeline/everyone', headers });
    const plain = await everyone({});
    expect(Buffer.byteLength(plain.body)).toBeGreaterThan(1024);
    const first = await everyone({ 'accept-encoding': 'br' });
    const again = await everyone({ 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    // Shared caches keep one copy per encoding, and never give a visitor's page to a member (Cookie).
    expect(first.headers.vary).toBe('Cookie, accept-encoding');
    expect(first.headers['cache-control']).toBe('public, max-age=1');
    expect(Number(first.headers['content-length'])).toBe(first.rawPayload.length);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(decode(first)).toBe(plain.body);
    // `*` and x-gzip are gzip; what is refused (q=0) or unknown is not sent.
    for (const [asked, expected] of [
      ['gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['*', 'gzip'],
      ['br;q=0.5, gzip;q=0.9', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['identity', undefined],
      ['compress, snappy', undefined],
      ['', undefined],
    ] as const) {
      const res = await everyone({ 'accept-encoding': asked });
      expect(res.headers['content-encoding'], asked).toBe(expected);
      expect(decode(res), asked).toBe(plain.body);
    }
  });

  it('never compress an answer that carries a secret, however large', async () => {
    const w = await world();
    // The consent decision answers where the browser goes: the app's redirect with the code and the
    // app's own state. A 2,000-character state makes it large; it still goes out as it is.
    const { row } = await ctx.app.services.oauth.registerApp({
      name: 'Big State',
      redirectUris: ['https://app.example/callback'],
      scopes: 'read',
      website: null,
    });
    const res = await w.alice.post(
      '/api/oauth/authorization',
      {
        decision: 'approve',
        client_id: row.clientId,
        redirect_uri: 'https://app.example/callback',
        response_type: 'code',
        scope: 'read',
        state: 's'.repeat(2_000),
      },
      { headers: { 'accept-encoding': 'gzip, br' } },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(Buffer.byteLength(res.body)).toBeGreaterThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json<{ redirectTo: string }>().redirectTo).toMatch(/^https:\/\/app\.example\/callback\?code=/);
    // The protocol's session and CSRF answers, asked with gzip, come as they are.
    for (const url of ['/api/auth/csrf', '/api/auth/session', '/api/auth/providers']) {
      const answer = await w.alice.get(url, { headers: { 'accept-encoding': 'gzip' } });
      expect(answer.headers['content-encoding'], url).toBeUndefined();
    }
  });

  it('refuse a compressed request body with a 415 that says so, and write nothing', async () => {
    const w = await world();
    const count = async () => Number((await queryRows(ctx.db, 'SELECT count(*)::int AS n FROM posts'))[0]?.n);
    const before = await count();
    const web = await w.alice.post('/api/posts', undefined, {
      payload: gzipSync(JSON.stringify({ text: 'squeezed' })),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(web.statusCode).toBe(415);
    expect(web.json()).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Send the body uncompressed: Content-Encoding "gzip" is not accepted.',
    });
    const app = await inject(ctx.app, {
      method: 'POST',
      url: '/api/v1/statuses',
      payload: gzipSync(JSON.stringify({ status: 'squeezed' })),
      headers: {
        authorization: `Bearer ${w.oauth.aliceToken}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
    });
    expect(app.statusCode).toBe(415);
    expect(app.json()).toEqual({ error: 'Send the body uncompressed: Content-Encoding "gzip" is not accepted.' });
    // `identity` is no compression at all.
    const plain = await w.alice.post('/api/posts', undefined, {
      payload: JSON.stringify({ text: 'as it is' }),
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(await count()).toBe(before + 1);
  });
});
