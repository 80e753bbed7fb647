/**
 * No list call issues a query per item: a page costs the same small number of SQL statements
 * (the session lookup, then the page) whether it holds 5 items or 50, and whatever the number of
 * people followed. Counted with the QueryCounter every Drizzle statement goes through.
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
      // The session lookup (members only) and one statement for the page.
      expect(large, url).toBe(client === clients.visitor ? 1 : 2);
    }
  });

  it('the Following timeline is one statement whether I follow 1 person or 60', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    await ctx.db.db.insert(follows).values({ followerId: alice.id, followeeId: bob.id });
    await seedPosts(ctx.db, [{ authorId: bob.id }]);
    const few = await statementsFor(clients.alice, '/api/timeline/following', 1);
    const crowd = [];
    for (let i = 0; i < 60; i++) crowd.push(await insertUser(ctx.db, { username: `crowd${i}` }));
    await ctx.db.db.insert(follows).values(crowd.map((u) => ({ followerId: alice.id, followeeId: u.id })));
    await seedPosts(
      ctx.db,
      crowd.map((u) => ({ authorId: u.id })),
    );
    expect(await statementsFor(clients.alice, '/api/timeline/following', 50)).toBe(few);
  });
});
