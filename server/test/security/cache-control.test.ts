/**
 * Every /api answer is `private, no-store` unless its route opts in to sharing: a cache in front
 * (a CDN, a company proxy) must never keep one person's answer — likedByMe, isFollowing, their
 * notifications — and serve it to another. Opted in: the auth providers (the same for everyone) and
 * a visitor's Everyone page (public for a second, `Vary: Cookie`, so never served to someone signed in).
 */
import { describe, expect, it } from 'vitest';
import { insertUser, TestClient, useTestApp } from '../helpers/app.ts';
import { createPost, follow, like } from '../helpers/social.ts';
import { fillParams, listRoutes } from './support.ts';

const PRIVATE = 'private, no-store';
/** Routes whose answers may be shared, and what they say; everything else under /api is private. */
const PUBLIC: Record<string, { visitor: string; member: string }> = {
  'GET /api/auth/providers': { visitor: 'public, max-age=300', member: 'public, max-age=300' },
  'GET /api/timeline/everyone': { visitor: 'public, max-age=1', member: PRIVATE },
};

describe('Cache-Control on /api answers', () => {
  const ctx = useTestApp();

  it('is private, no-store on every /api GET route, for members and visitors, except the routes opted in', async () => {
    const alice = await insertUser(ctx.db, { username: 'alice', email: 'alice@example.com' });
    const bob = await insertUser(ctx.db, { username: 'bob', email: 'bob@example.com' });
    const member = await new TestClient(ctx).signInAs(alice.id);
    const post = await createPost(await new TestClient(ctx).signInAs(bob.id), 'a post to like');
    await like(member, post.id);
    await follow(member, bob.id);

    const routes = listRoutes(ctx.app).filter((r) => r.method === 'GET' && r.url.startsWith('/api/'));
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      // Ids that exist, so the answers are real ones (a post for post routes, a person otherwise).
      const url = fillParams(
        route.url.replace(':username', 'bob'),
        route.url.includes('/posts/') ? post.id : String(bob.id),
      );
      const key = `GET ${route.url}`;
      for (const [who, client] of [
        ['member', member],
        ['visitor', new TestClient(ctx)],
      ] as const) {
        const res = await client.get(url);
        expect(res.statusCode, `${who} ${key}: ${res.body}`).toBeLessThan(500);
        const expected = res.statusCode < 300 ? (PUBLIC[key]?.[who] ?? PRIVATE) : PRIVATE;
        const header = String(res.headers['cache-control']);
        // /api/auth's csrf and session answers keep the protocol's 'private, no-cache, no-store'.
        if (expected === PRIVATE) expect(header, `${who} ${key} (${res.statusCode})`).toMatch(/^private,.*no-store/);
        else expect(header, `${who} ${key} (${res.statusCode})`).toBe(expected);
      }
    }
  });

  it("a visitor's Everyone page varies by cookie; a member's, signed in, is never public", async () => {
    const alice = await insertUser(ctx.db, { username: 'alice', email: 'alice@example.com' });
    const visitor = await new TestClient(ctx).get('/api/timeline/everyone');
    expect(visitor.headers['cache-control']).toBe('public, max-age=1');
    expect(visitor.headers.vary).toBe('Cookie, accept-encoding');
    const member = await (await new TestClient(ctx).signInAs(alice.id)).get('/api/timeline/everyone');
    expect(member.headers['cache-control']).toBe(PRIVATE);
  });

  it('errors under /api are private too: 401, 404, 400', async () => {
    const visitor = new TestClient(ctx);
    for (const url of ['/api/notifications', '/api/nope', '/api/posts/not-an-id']) {
      const res = await visitor.get(url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.headers['cache-control'], url).toBe(PRIVATE);
    }
  });
});
