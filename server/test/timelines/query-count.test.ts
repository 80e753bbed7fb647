/**
 * No list call issues a query per item: a page costs the same small number of SQL statements
 * (one for the page; the member's session comes from the sessions cache after their first call)
 * whether it holds 5 items or 50, and whatever the number of people followed. Counted with the QueryCounter every Drizzle statement goes through.
 */
import { describe, expect, it } from 'vitest';
import { follows, likes, notifications } from '../../src/db/schema.ts';
import { insertUser, seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { seedPosts } from '../helpers/social.ts';

describe('statements per page', () => {
  const ctx = useTestApp();

  async function statementsFor(client: TestClient, url: string, limit: number) {
    const before = ctx.db.queries.count;
    const res = await client.get(`${url}${url.includes('?') ? '&' : '?'}limit=${limit}`);
    const statements = ctx.db.queries.count - before;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items, url).toHaveLength(limit);
    return statements;
  }

  /** Each member's session, resolved once: from then on it is cached (SessionsService) and costs no statement. */
  async function resolveSessions(...members: TestClient[]) {
    for (const client of members) expect((await client.get('/api/current')).statusCode).toBe(200);
  }

  it('is the same for a page of 5 and a page of 50, for every list call, members and visitors', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const crowd = [];
    for (let i = 0; i < 60; i++) crowd.push(await insertUser(ctx.db, { username: `crowd${i}` }));
    await ctx.db.db
      .insert(follows)
      .values([
        ...crowd.map((u) => ({ followerId: alice.id, followeeId: u.id })),
        ...crowd.map((u) => ({ followerId: u.id, followeeId: alice.id })),
      ]);
    const [root] = await seedPosts(ctx.db, [{ authorId: bob.id, text: 'root' }]);
    const authored = await seedPosts(
      ctx.db,
      crowd.flatMap((u) => [{ authorId: u.id, parentId: root! }, { authorId: alice.id }]),
    );
    await ctx.db.db.insert(likes).values(authored.map((postId) => ({ userId: alice.id, postId })));
    await ctx.db.db
      .insert(notifications)
      .values(crowd.map((u, i) => ({ userId: alice.id, actorId: u.id, type: 'like', postId: authored[2 * i + 1]! })));

    await resolveSessions(clients.alice, clients.bob);
    const calls: [TestClient, string][] = [
      [clients.alice, '/api/timeline/everyone'],
      [clients.visitor, '/api/timeline/everyone'],
      [clients.alice, '/api/timeline/following'],
      [clients.alice, `/api/posts/${root}/replies`],
      [clients.visitor, `/api/posts/${root}/replies`],
      [clients.alice, `/api/users/${alice.id}/posts`],
      [clients.alice, '/api/notifications'],
      [clients.alice, `/api/users/${alice.id}/followers`],
      [clients.bob, `/api/users/${alice.id}/following`],
      [clients.visitor, `/api/users/${alice.id}/following`],
    ];
    for (const [client, url] of calls) {
      const small = await statementsFor(client, url, 5);
      const large = await statementsFor(client, url, 50);
      expect(large, url).toBe(small);
      // One statement for the page: the session was resolved, and cached, before.
      expect(large, url).toBe(1);
    }
  });

  it('the Following timeline is one statement whether I follow 1 person or 60', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    await ctx.db.db.insert(follows).values({ followerId: alice.id, followeeId: bob.id });
    await seedPosts(ctx.db, [{ authorId: bob.id }]);
    await resolveSessions(clients.alice);
    const few = await statementsFor(clients.alice, '/api/timeline/following', 1);
    const crowd = [];
    for (let i = 0; i < 60; i++) crowd.push(await insertUser(ctx.db, { username: `crowd${i}` }));
    await ctx.db.db.insert(follows).values(crowd.map((u) => ({ followerId: alice.id, followeeId: u.id })));
    await seedPosts(
      ctx.db,
      crowd.map((u) => ({ authorId: u.id })),
    );
    expect(few).toBe(1);
    expect(await statementsFor(clients.alice, '/api/timeline/following', 50)).toBe(few);
  });

  it('a post that is no reply and mentions nobody is written in one statement (post, count, hashtags and outbox together)', async () => {
    const { alice, clients } = await seedTrio(ctx);
    await resolveSessions(clients.alice);
    const before = ctx.db.queries.count;
    const res = await clients.alice.post('/api/posts', { text: 'one round trip' });
    expect(res.statusCode, res.body).toBe(201);
    // And nothing after it: the live stream sends the post from the event, without reading it back
    // (waited for, so the count is exact).
    await ctx.app.services.stream.idle();
    expect(ctx.db.queries.count - before).toBe(1);
    // Both writes of that statement landed: the post, and its author's count.
    const profile = (await clients.alice.get(`/api/users/${alice.id}`)).json() as { postsCount: number };
    expect(profile.postsCount).toBe(1);
    expect(res.json()).toMatchObject({ text: 'one round trip', parentId: null, replyCount: 0, likedByMe: false });

    // Hashtags go in the same statement.
    const tagged = ctx.db.queries.count;
    expect((await clients.alice.post('/api/posts', { text: 'still one #Trip #round' })).statusCode).toBe(201);
    await ctx.app.services.stream.idle();
    expect(ctx.db.queries.count - tagged).toBe(1);
    const page = (await clients.alice.get('/api/hashtags/trip/posts')).json() as { items: { text: string }[] };
    expect(page.items.map((p) => p.text)).toEqual(['still one #Trip #round']);
  });
});
