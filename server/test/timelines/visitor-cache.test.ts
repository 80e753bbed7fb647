import { postPage } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { seedTrio, TestClient, useTestApp } from '../helpers/app.ts';

/** Visitors' Everyone pages come from a shared cache; no write may leave them stale. */
describe('Everyone timeline for visitors (shared cache)', () => {
  const ctx = useTestApp();

  it('answers the same JSON as the schema serializes, from one query for repeated visits', async () => {
    const { clients } = await seedTrio(ctx);
    await clients.alice.post('/api/posts', { text: 'first' });
    const visitor = new TestClient(ctx);
    const first = await visitor.get('/api/timeline/everyone');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(postPage.parse(first.json()).items.map((p) => p.text)).toEqual(['first']);

    const before = ctx.db.queries.count;
    const again = await visitor.get('/api/timeline/everyone');
    expect(again.body).toBe(first.body);
    expect(ctx.db.queries.count).toBe(before); // served from the cache
  });

  it('shows a new post, a like and a deletion to the next visitor at once', async () => {
    const { clients } = await seedTrio(ctx);
    const visitor = new TestClient(ctx);
    const texts = async () => (await visitor.get('/api/timeline/everyone')).json().items;

    expect(await texts()).toEqual([]);
    const created = (await clients.alice.post('/api/posts', { text: 'hello' })).json();
    expect((await texts()).map((p: { text: string }) => p.text)).toEqual(['hello']);

    await clients.bob.put(`/api/posts/${created.id}/like`);
    expect((await texts())[0].likeCount).toBe(1);

    await clients.alice.delete(`/api/posts/${created.id}`);
    expect(await texts()).toEqual([]);
  });

  it('shows a changed name at once (profile edits invalidate too)', async () => {
    const { clients } = await seedTrio(ctx);
    await clients.alice.post('/api/posts', { text: 'hi' });
    const visitor = new TestClient(ctx);
    expect((await visitor.get('/api/timeline/everyone')).json().items[0].author.name).toBe('Alice');
    expect((await clients.alice.patch('/api/edit', { name: 'Alice Renamed' })).statusCode).toBe(200);
    expect((await visitor.get('/api/timeline/everyone')).json().items[0].author.name).toBe('Alice Renamed');
  });

  it('keeps members out of the cache: likedByMe is theirs', async () => {
    const { clients } = await seedTrio(ctx);
    const created = (await clients.alice.post('/api/posts', { text: 'like me' })).json();
    await clients.bob.put(`/api/posts/${created.id}/like`);
    await new TestClient(ctx).get('/api/timeline/everyone'); // fills the visitor entry
    expect((await clients.bob.get('/api/timeline/everyone')).json().items[0].likedByMe).toBe(true);
    expect((await clients.carol.get('/api/timeline/everyone')).json().items[0].likedByMe).toBe(false);
  });

  it('caches pages per cursor and limit', async () => {
    const { clients } = await seedTrio(ctx);
    for (const text of ['a', 'b', 'c']) await clients.alice.post('/api/posts', { text });
    const visitor = new TestClient(ctx);
    const one = (await visitor.get('/api/timeline/everyone?limit=1')).json();
    expect(one.items.map((p: { text: string }) => p.text)).toEqual(['c']);
    const next = (await visitor.get(`/api/timeline/everyone?limit=1&cursor=${one.nextCursor}`)).json();
    expect(next.items.map((p: { text: string }) => p.text)).toEqual(['b']);
    expect((await visitor.get('/api/timeline/everyone?limit=2')).json().items).toHaveLength(2);
  });
});
