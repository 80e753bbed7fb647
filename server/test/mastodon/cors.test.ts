/**
 * CORS for Mastodon web apps on other origins (Elk, Phanpy call the API from the browser): the
 * client API and OAuth's token endpoints answer any origin, without credentials, exposing Link;
 * the product API, the session protocol and the consent page answer no other origin at all.
 */
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { seedWorld } from '../security/support.ts';
import { mastodonCall } from './openapi.ts';

const ORIGIN = 'https://elk.example';

describe('CORS for Mastodon web apps', () => {
  const ctx = useTestApp();

  const preflight = (url: string, method = 'GET') =>
    mastodonCall(ctx.app, {
      method: 'OPTIONS',
      url,
      headers: {
        origin: ORIGIN,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  it('let another origin call the client API and the token endpoints with a bearer token', async () => {
    const w = await seedWorld(ctx);
    for (const [url, method] of [
      ['/api/v1/timelines/home', 'GET'],
      ['/api/v1/statuses', 'POST'],
      ['/api/v2/instance', 'GET'],
      ['/api/v1/apps', 'POST'],
      ['/oauth/token', 'POST'],
      ['/oauth/revoke', 'POST'],
      ['/.well-known/oauth-authorization-server', 'GET'],
    ] as const) {
      const res = await preflight(url, method);
      expect(res.statusCode, url).toBe(204);
      expect(res.headers['access-control-allow-origin'], url).toBe('*');
      expect(String(res.headers['access-control-allow-methods']), url).toContain(method);
      expect(String(res.headers['access-control-allow-headers']).toLowerCase(), url).toContain('authorization');
      expect(res.headers['access-control-allow-credentials'], url).toBeUndefined();
    }
    const home = await mastodonCall(ctx.app, {
      method: 'GET',
      url: '/api/v1/timelines/home?limit=1',
      headers: { origin: ORIGIN, authorization: `Bearer ${w.oauth.aliceToken}` },
    });
    expect(home.statusCode, home.body).toBe(200);
    expect(home.headers['access-control-allow-origin']).toBe('*');
    expect(String(home.headers['access-control-expose-headers'])).toContain('Link');
    expect(home.headers.link).toBeDefined();
    // Its errors too, so the app can read them.
    const refused = await mastodonCall(ctx.app, {
      method: 'GET',
      url: '/api/v1/timelines/home',
      headers: { origin: ORIGIN, authorization: 'Bearer not-a-token' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
  });

  it('give no other origin the product API, the session protocol or the consent page', async () => {
    const w = await seedWorld(ctx);
    for (const url of [
      '/api/posts',
      '/api/timeline/following',
      '/api/auth/session',
      '/api/auth/callback/credentials',
    ]) {
      const res = await preflight(url, 'POST');
      // (The session protocol refuses any OPTIONS with its own 400.)
      expect(res.statusCode, url).toBe(url.startsWith('/api/auth/') ? 400 : 404);
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
    }
    const page = await preflight('/oauth/authorize');
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    // A member's own page, asked from another origin with her cookie: no CORS header, so no script there reads it.
    const read = await mastodonCall(ctx.app, {
      method: 'GET',
      url: '/api/timeline/following',
      headers: { origin: ORIGIN, cookie: w.alice.cookies.header() },
    });
    expect(read.statusCode).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
  });
});
