/**
 * Hashtags in the Mastodon API (issue 27, part 6): GET /api/v1/tags/:name (with `following` for a
 * person's token), POST …/follow and …/unfollow, GET /api/v1/followed_tags paged with a Link header;
 * search's hashtags carry `following`. Every answer is validated against the OpenAPI description.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { seedWorld, type World } from '../security/support.ts';
import { mastodonCall } from './openapi.ts';

describe('Mastodon tags', () => {
  const ctx = useTestApp();

  const call = (w: World | null, method: 'GET' | 'POST', url: string) =>
    mastodonCall(ctx.app, {
      method,
      url,
      headers: w ? { authorization: `Bearer ${w.oauth.aliceToken}` } : {},
    });
  const names = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { name: string; following?: boolean }[]).map((t) => [t.name, t.following]);
  };
  const linked = (res: LightMyRequestResponse, rel: string) => {
    const match = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(String(res.headers.link ?? ''));
    return match ? new URL(match[1] as string).searchParams : null;
  };

  it('shows, follows and unfollows a tag by any form of its name; unfollowing one not followed answers the tag', async () => {
    const w = await seedWorld(ctx);
    // (Alice follows #birds in the seeded world.)
    const shown = await call(w, 'GET', '/api/v1/tags/Kestrels');
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({
      id: 'kestrels',
      name: 'kestrels',
      url: `${ctx.config.publicUrl}/hashtag/kestrels`,
      history: [],
      following: false,
    });
    // A visitor: no `following`.
    expect((await call(null, 'GET', '/api/v1/tags/kestrels')).json()).not.toHaveProperty('following');

    const followed = await call(w, 'POST', '/api/v1/tags/KESTRELS/follow');
    expect(followed.statusCode, followed.body).toBe(200);
    expect(followed.json()).toMatchObject({ name: 'kestrels', following: true });
    expect((await call(w, 'POST', '/api/v1/tags/kestrels/follow')).json()).toMatchObject({ following: true });
    expect((await call(w, 'GET', '/api/v1/tags/kestrels')).json()).toMatchObject({ following: true });
    // The web API sees the same follow.
    expect((await w.alice.get('/api/hashtags/kestrels/follow')).json()).toEqual({ tag: 'kestrels', following: true });

    const unfollowed = await call(w, 'POST', '/api/v1/tags/kestrels/unfollow');
    expect(unfollowed.statusCode).toBe(200);
    expect(unfollowed.json()).toMatchObject({ name: 'kestrels', following: false });
    const again = await call(w, 'POST', '/api/v1/tags/nevers/unfollow');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ name: 'nevers', following: false });
  });

  it('answers a name that is no hashtag as not found (as Mastodon), and needs a token with write:follows to follow', async () => {
    const w = await seedWorld(ctx);
    for (const bad of ['12', 'bad-tag', '%20', 'a'.repeat(101)]) {
      for (const [method, url] of [
        ['GET', `/api/v1/tags/${bad}`],
        ['POST', `/api/v1/tags/${bad}/follow`],
        ['POST', `/api/v1/tags/${bad}/unfollow`],
      ] as const) {
        const res = await call(w, method, url);
        expect([url, res.statusCode]).toEqual([url, 404]);
        expect(res.json()).toEqual({ error: 'Record not found' });
      }
    }
    const visitor = await call(null, 'POST', '/api/v1/tags/birds/follow');
    expect(visitor.statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/v1/followed_tags')).statusCode).toBe(401);
  });

  it('refuses a follow past the limit with a validation error', async () => {
    const w = await seedWorld(ctx);
    // Alice follows #birds already: 99 more reach the limit.
    for (let i = 1; i < 100; i++) expect((await w.alice.put(`/api/hashtags/t${i}/follow`)).statusCode).toBe(200);
    const over = await call(w, 'POST', '/api/v1/tags/onemore/follow');
    expect(over.statusCode).toBe(422);
    expect(over.json().error).toMatch(/at most 100 hashtags/);
  });

  it('lists followed tags newest follow first, paged by max_id, since_id and min_id with Link headers', async () => {
    const w = await seedWorld(ctx);
    for (const tag of ['a1', 'b2', 'c3', 'd4', 'e5']) {
      expect((await call(w, 'POST', `/api/v1/tags/${tag}/follow`)).statusCode).toBe(200);
    }
    const first = await call(w, 'GET', '/api/v1/followed_tags?limit=2');
    expect(names(first)).toEqual([
      ['e5', true],
      ['d4', true],
    ]);
    const next = linked(first, 'next');
    expect(next?.get('max_id')).toBeTruthy();
    const second = await call(w, 'GET', `/api/v1/followed_tags?limit=2&max_id=${next?.get('max_id')}`);
    expect(names(second)).toEqual([
      ['c3', true],
      ['b2', true],
    ]);
    const third = await call(w, 'GET', `/api/v1/followed_tags?limit=2&max_id=${linked(second, 'next')?.get('max_id')}`);
    // #birds: followed when the world was seeded.
    expect(names(third)).toEqual([
      ['a1', true],
      ['birds', true],
    ]);
    expect(linked(third, 'next')).toBeNull();
    // min_id: the ones just above; since_id: the newest above.
    const above = await call(w, 'GET', `/api/v1/followed_tags?limit=2&min_id=${linked(third, 'prev')?.get('min_id')}`);
    expect(names(above)).toEqual([
      ['c3', true],
      ['b2', true],
    ]);
    const since = await call(w, 'GET', `/api/v1/followed_tags?since_id=${linked(second, 'prev')?.get('min_id')}`);
    expect(names(since)).toEqual([
      ['e5', true],
      ['d4', true],
    ]);
    // Another member's follow id names nothing of alice's: an empty page.
    expect(names(await call(w, 'GET', '/api/v1/followed_tags?max_id=999999'))).toEqual([]);
  });

  it("carries `following` on search's hashtags, and brings a followed tag's posts into the home timeline", async () => {
    const w = await seedWorld(ctx);
    await w.bob.post('/api/posts', { text: 'bob on #kites' });
    await w.bob.post('/api/posts', { text: 'bob on #kiteboarding' });
    await call(w, 'POST', '/api/v1/tags/kites/follow');
    const found = await call(w, 'GET', '/api/v2/search?q=kite&type=hashtags');
    expect(found.statusCode).toBe(200);
    expect(found.json().hashtags.map((t: { name: string; following: boolean }) => [t.name, t.following])).toEqual(
      expect.arrayContaining([
        ['kites', true],
        ['kiteboarding', false],
      ]),
    );
    const home = await call(w, 'GET', '/api/v1/timelines/home');
    expect(home.statusCode).toBe(200);
    const contents = (home.json() as { content: string }[]).map((s) => s.content);
    expect(contents.some((c) => c.includes('bob on'))).toBe(true);
    expect(contents.some((c) => c.includes('kiteboarding'))).toBe(false);
  });
});
