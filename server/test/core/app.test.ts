import { describe, expect, it } from 'vitest';
import { insertUser, TestClient, useTestApp } from '../helpers/app.ts';

describe('app core', () => {
  const ctx = useTestApp();

  it('GET /healthz answers 200 when the database answers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok' });
  });

  it('unknown API paths get a JSON 404 with a code', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('security headers are on every answer, errors included', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('refuses a state-changing call without a CSRF token with 403 CSRF_FAILED', async () => {
    const client = new TestClient(ctx);
    const res = await client.post('/api/posts', { text: 'hi' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CSRF_FAILED' });
  });

  it.each([
    ['POST', '/api/posts'],
    ['POST', '/api/register'],
    ['PATCH', '/api/edit'],
    ['POST', '/api/notifications/read'],
  ] as const)('%s %s takes JSON only: text/plain and forms are 415 UNSUPPORTED_MEDIA_TYPE', async (method, url) => {
    const alice = await insertUser(ctx.db, { username: 'alice' });
    const client = await new TestClient(ctx).signInAs(alice.id);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await client.request(method, url, '{"text":"hi"}', { headers: { 'content-type': type } });
      expect(res.statusCode, type).toBe(415);
      expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
  });

  it('refuses a wrong CSRF token', async () => {
    const client = new TestClient(ctx).withCsrf();
    const res = await client.post('/api/posts', { text: 'hi' }, { headers: { 'x-csrf-token': 'f'.repeat(64) } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CSRF_FAILED' });
  });
});
