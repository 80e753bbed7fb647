/**
 * The contract's endpoint table is the product API: every route the server registers outside
 * /api/auth (NextAuth's protocol) and /api/v1, /api/v2 (Mastodon's API, modules/mastodon) is in the
 * table, with the same method and path, and every entry is registered.
 */
import { endpoints } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { isMastodonRoute, listRoutes } from '../security/support.ts';

describe('the endpoint table', () => {
  const ctx = useTestApp();

  it('matches the routes the server registers under /api (outside /api/auth and the Mastodon API)', () => {
    const registered = listRoutes(ctx.app)
      .filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/auth/') && !isMastodonRoute(r.url))
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    const declared = Object.values(endpoints)
      .map((e) => `${e.method} ${e.path}`)
      .sort();
    expect(registered).toEqual(declared);
  });

  it('declares each error code once per endpoint, and every write declares CSRF_FAILED', () => {
    for (const [name, e] of Object.entries(endpoints)) {
      expect(new Set(e.errors).size, name).toBe(e.errors.length);
      if (e.method !== 'GET') expect(e.errors, name).toContain('CSRF_FAILED');
    }
  });
});
