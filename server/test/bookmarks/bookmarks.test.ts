/**
 * Bookmarks (issue 10, part 3): a member keeps posts for later, privately. PUT/DELETE
 * /api/posts/:id/bookmark are idempotent and answer the post as the member sees it; GET
 * /api/bookmarks lists them newest bookmark first (not newest post first), keyset-paginated.
 * Nobody else learns of a bookmark: no count, no notification, false on everyone else's view.
 */
import type { Post } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { createPost, getAll, getPage, getPost } from '../helpers/social.ts';

const bookmark = async (client: TestClient, id: string) => {
  const res = await client.put(`/api/posts/${id}/bookmark`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Post>();
};

describe('bookmarks', () => {
  const ctx = useTestApp();

  it('PUT keeps a post and answers it bookmarked; twice is one bookmark; DELETE takes it out, twice too', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'worth keeping');
    expect(await bookmark(clients.bob, post.id)).toMatchObject({ id: post.id, bookmarkedByMe: true, likeCount: 0 });
    expect(await bookmark(clients.bob, post.id)).toMatchObject({ bookmarkedByMe: true });
    expect((await getPage<Post>(clients.bob, '/api/bookmarks')).items.map((p) => p.id)).toEqual([post.id]);
    for (let i = 0; i < 2; i++) {
      const res = await clients.bob.delete(`/api/posts/${post.id}/bookmark`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: post.id, bookmarkedByMe: false });
    }
    expect(await getPage(clients.bob, '/api/bookmarks')).toEqual({ items: [], nextCursor: null });
    // Taking out what was never kept changes nothing either.
    expect((await clients.carol.delete(`/api/posts/${post.id}/bookmark`)).json()).toMatchObject({
      bookmarkedByMe: false,
    });
  });

  it('is private: the author is not notified, and nobody else sees it on the post or in timelines', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'mine to read later');
    await bookmark(clients.bob, post.id);
    expect((await clients.alice.get('/api/notifications')).json().items).toEqual([]);
    expect(await getPost(clients.alice, post.id)).toMatchObject({ bookmarkedByMe: false });
    expect(await getPost(clients.visitor, post.id)).toMatchObject({ bookmarkedByMe: false });
    expect(await getPost(clients.bob, post.id)).toMatchObject({ bookmarkedByMe: true });
    const everyone = await getPage<Post>(clients.bob, '/api/timeline/everyone');
    expect(everyone.items.find((p) => p.id === post.id)).toMatchObject({ bookmarkedByMe: true });
    const byAlice = await getPage<Post>(clients.carol, `/api/users/${post.author.id}/posts`);
    expect(byAlice.items.find((p) => p.id === post.id)).toMatchObject({ bookmarkedByMe: false });
  });

  it('lists newest bookmark first, whatever the posts’ own ages, page by page without skip or repeat', async () => {
    const { clients } = await seedTrio(ctx);
    const posts: Post[] = [];
    for (let i = 0; i < 7; i++) posts.push(await createPost(clients.alice, `post ${i}`));
    // Kept in an order unlike the posts' own: 3, 0, 6, 1, 5, 2, 4.
    const order = [3, 0, 6, 1, 5, 2, 4];
    for (const i of order) await bookmark(clients.bob, (posts[i] as Post).id);
    const expected = order.map((i) => (posts[i] as Post).id).reverse();
    for (const limit of [1, 2, 3, 7, 50]) {
      expect(
        (await getAll<Post>(clients.bob, '/api/bookmarks', limit)).map((p) => p.id),
        `limit ${limit}`,
      ).toEqual(expected);
    }
    // Kept again: it stays where it was (a bookmark is kept once, at its first time).
    await bookmark(clients.bob, (posts[3] as Post).id);
    expect((await getAll<Post>(clients.bob, '/api/bookmarks', 50)).map((p) => p.id)).toEqual(expected);
  });

  it('pages by the bookmark’s microseconds: bookmarks made within one millisecond neither skip nor repeat', async () => {
    const { bob, clients } = await seedTrio(ctx);
    const posts: Post[] = [];
    for (let i = 0; i < 5; i++) posts.push(await createPost(clients.alice, `tied ${i}`));
    // Two pairs of bookmarks a microsecond apart, and one pair at the very same time.
    const times = ['10:00:00.000001', '10:00:00.000002', '10:00:00.000500', '10:00:00.000500', '10:00:00.000999'];
    for (const [i, post] of posts.entries()) {
      await ctx.db.db.execute(
        sql`insert into bookmarks (user_id, post_id, created_at) values (${bob.id}, ${Number(post.id)}, ${`2026-01-01 ${times[i]}+00`}::timestamptz)`,
      );
    }
    const all = await getAll<Post>(clients.bob, '/api/bookmarks', 1);
    expect(new Set(all.map((p) => p.id)).size).toBe(5);
    expect(all.map((p) => p.text)).toEqual(['tied 4', 'tied 3', 'tied 2', 'tied 1', 'tied 0']);
  });

  it('a deleted post leaves the bookmarks; its bookmark goes with it', async () => {
    const { clients } = await seedTrio(ctx);
    const kept = await createPost(clients.alice, 'kept');
    const gone = await createPost(clients.alice, 'deleted later');
    await bookmark(clients.bob, kept.id);
    await bookmark(clients.bob, gone.id);
    expect((await clients.alice.delete(`/api/posts/${gone.id}`)).statusCode).toBe(204);
    expect((await getPage<Post>(clients.bob, '/api/bookmarks')).items.map((p) => p.id)).toEqual([kept.id]);
    const rows = await ctx.db.db.execute(sql`select count(*)::int as n from bookmarks`);
    const n = (Array.isArray(rows) ? rows : (rows as { rows: { n: number }[] }).rows)[0] as { n: number };
    expect(n.n).toBe(1);
  });

  it('visitors get 401 UNAUTHENTICATED on all three calls, and nothing is kept', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'not for visitors');
    for (const res of [
      await clients.visitor.put(`/api/posts/${post.id}/bookmark`),
      await clients.visitor.delete(`/api/posts/${post.id}/bookmark`),
      await clients.visitor.get('/api/bookmarks'),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });

  it('an unknown post is 404 NOT_FOUND both ways, and keeps nothing', async () => {
    const { clients } = await seedTrio(ctx);
    for (const res of [
      await clients.bob.put('/api/posts/31337/bookmark'),
      await clients.bob.delete('/api/posts/31337/bookmark'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect(await getPage(clients.bob, '/api/bookmarks')).toEqual({ items: [], nextCursor: null });
  });

  it('a bad limit or a cursor this server did not make is 400 INVALID_INPUT on that field', async () => {
    const { clients } = await seedTrio(ctx);
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=51', 'limit'],
      ['limit=ten', 'limit'],
      ['cursor=not-a-cursor!', 'cursor'],
      [`cursor=${Buffer.from('2026-02-30T00:00:00.000000Z_1').toString('base64url')}`, 'cursor'],
    ] as const) {
      const res = await clients.bob.get(`/api/bookmarks?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ code: 'INVALID_INPUT', field });
    }
  });
});
