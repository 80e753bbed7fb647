/**
 * Mastodon's three page keys on statuses and notifications: max_id continues below an item,
 * since_id gives the newest items above one, min_id the items just above one (what an app asks to
 * fill the gap since it last looked) — each newest first, with `Link` headers naming the next
 * (older) and previous (newer) pages.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { seedWorld, type World } from '../security/support.ts';
import { mastodonCall } from './openapi.ts';

describe('Mastodon pages: max_id, since_id, min_id', () => {
  const ctx = useTestApp();

  const get = (w: World, url: string) =>
    mastodonCall(ctx.app, { method: 'GET', url, headers: { authorization: `Bearer ${w.oauth.aliceToken}` } });
  const contents = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { content: string }[]).map((s) => s.content.replace(/<\/?p>/g, ''));
  };
  /** The Link header's URL for `rel`, as a query. */
  const linked = (res: LightMyRequestResponse, rel: string) => {
    const match = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(String(res.headers.link ?? ''));
    return match ? new URL(match[1] as string).searchParams : null;
  };

  it("page an account's statuses by each key, across more than one read for min_id", async () => {
    const w = await seedWorld(ctx);
    const ids: string[] = [];
    for (let i = 1; i <= 45; i++) {
      const res = await w.alice.post('/api/posts', { text: `p${i}` });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json<{ id: string }>().id);
    }
    const id = (n: number) => ids[n - 1] as string;
    const statuses = `/api/v1/accounts/${w.ids.alice}/statuses`;

    const below = await get(w, `${statuses}?max_id=${id(8)}&limit=3`);
    expect(contents(below)).toEqual(['p7', 'p6', 'p5']);
    expect(linked(below, 'next')?.get('max_id')).toBe(id(5));
    expect(linked(below, 'prev')?.get('min_id')).toBe(id(7));

    const newest = await get(w, `${statuses}?since_id=${id(3)}&limit=4`);
    expect(contents(newest)).toEqual(['p45', 'p44', 'p43', 'p42']);

    // The five just above p1: the walk reads 40 (p45–p6, all above) and goes on to reach p1.
    const gap = await get(w, `${statuses}?min_id=${id(1)}&limit=5`);
    expect(contents(gap)).toEqual(['p6', 'p5', 'p4', 'p3', 'p2']);
    expect(linked(gap, 'prev')?.get('min_id')).toBe(id(6));
    expect(linked(gap, 'next')?.get('max_id')).toBe(id(2));
    // Following prev from there moves up without a gap; nothing above the newest is an empty page.
    const up = await get(w, `${statuses}?min_id=${id(6)}&limit=5`);
    expect(contents(up)).toEqual(['p11', 'p10', 'p9', 'p8', 'p7']);
    expect(contents(await get(w, `${statuses}?min_id=${id(45)}`))).toEqual([]);
    // The home timeline takes them too (its first page is kept; these are not it).
    expect(contents(await get(w, `/api/v1/timelines/home?min_id=${id(40)}&limit=2`))).toEqual(['p42', 'p41']);
  });

  it('page notifications by each key', async () => {
    const w = await seedWorld(ctx);
    for (let i = 1; i <= 6; i++) {
      const post = (await w.alice.post('/api/posts', { text: `liked ${i}` })).json<{ id: string }>();
      expect((await w.bob.put(`/api/posts/${post.id}/like`)).statusCode).toBe(200);
    }
    const all = await get(w, '/api/v1/notifications?limit=80');
    expect(all.statusCode, all.body).toBe(200);
    const ids = (all.json() as { id: string }[]).map((n) => n.id);
    expect(ids.length).toBeGreaterThanOrEqual(6);
    const idsOf = (res: LightMyRequestResponse) => {
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { id: string }[]).map((n) => n.id);
    };
    // Newest first: ids[0] is the newest, ids[5] the sixth newest.
    expect(idsOf(await get(w, `/api/v1/notifications?max_id=${ids[1]}&limit=2`))).toEqual([ids[2], ids[3]]);
    expect(idsOf(await get(w, `/api/v1/notifications?since_id=${ids[5]}&limit=2`))).toEqual([ids[0], ids[1]]);
    const gap = await get(w, `/api/v1/notifications?min_id=${ids[5]}&limit=2`);
    expect(idsOf(gap)).toEqual([ids[3], ids[4]]);
    expect(linked(gap, 'prev')?.get('min_id')).toBe(ids[3]);
    expect(linked(gap, 'next')?.get('max_id')).toBe(ids[4]);
  });
});
