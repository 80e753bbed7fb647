import { userSummary } from '@pipit/contract';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { follows, posts, users } from '../../src/db/schema.ts';
import { insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';

describe('GET /api/users (Who To Follow)', () => {
  const ctx = useTestApp();

  const follow = (followerId: number, followeeId: number) =>
    ctx.db.db.insert(follows).values({ followerId, followeeId });
  const usernames = (res: { json(): unknown }) => (res.json() as Array<{ username: string }>).map((u) => u.username);

  /** n people created one second apart, the last one newest. */
  async function crowd(n: number) {
    const rows = [];
    for (let i = 0; i < n; i++) {
      const row = await insertUser(ctx.db, { username: `user${i}` });
      await ctx.db.db
        .update(users)
        .set({ createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) })
        .where(eq(users.id, row.id));
      rows.push(row);
    }
    return rows;
  }

  it('gives visitors suggestions too: 5 by default, summaries only, newest first', async () => {
    await crowd(8);
    const res = await new TestClient(ctx).get('/api/users');
    expect(res.statusCode).toBe(200);
    const body = res.json() as unknown[];
    expect(body).toHaveLength(5);
    for (const item of body) expect(userSummary.strict().safeParse(item).success).toBe(true);
    expect(usernames(res)).toEqual(['user7', 'user6', 'user5', 'user4', 'user3']);
  });

  it('takes a limit up to 20', async () => {
    await crowd(25);
    expect((await new TestClient(ctx).get('/api/users?limit=20')).json()).toHaveLength(20);
    expect((await new TestClient(ctx).get('/api/users?limit=2')).json()).toHaveLength(2);
  });

  it.each(['0', '21', '-1', 'x', '2.5'])('400 INVALID_INPUT for limit=%s', async (limit) => {
    const res = await new TestClient(ctx).get(`/api/users?limit=${limit}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'limit' });
  });

  it('never suggests yourself or people you follow', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    await follow(alice.id, bob.id);
    expect(usernames(await clients.alice.get('/api/users'))).toEqual(['carol']);
    await follow(alice.id, (await ctx.db.db.select().from(users).where(eq(users.username, 'carol')))[0]!.id);
    expect((await clients.alice.get('/api/users')).json()).toEqual([]);
  });

  it('ranks people followed by the people you follow first, most shared first', async () => {
    const { alice, bob, carol, clients } = await seedTrio(ctx);
    const [dave, erin, frank] = await crowd(3);
    await follow(alice.id, bob.id);
    await follow(alice.id, carol.id);
    await follow(bob.id, erin!.id);
    await follow(carol.id, erin!.id);
    await follow(bob.id, dave!.id);
    // frank is the newest account, but erin (followed by bob and carol) and dave (by bob) come first.
    expect(usernames(await clients.alice.get('/api/users'))).toEqual([erin!.username, dave!.username, frank!.username]);
  });

  it('puts recent authors (most followed first) before other accounts', async () => {
    const { alice, bob, carol } = await seedTrio(ctx);
    await crowd(2);
    await ctx.db.db.insert(posts).values([
      { authorId: bob.id, text: 'hello' },
      { authorId: carol.id, text: 'hi' },
    ]);
    await ctx.db.db.update(users).set({ followersCount: 10 }).where(eq(users.id, carol.id));
    const names = usernames(await new TestClient(ctx).get('/api/users'));
    expect(names.slice(0, 2)).toEqual(['carol', 'bob']);
    expect(names).toContain('alice');
    expect(names).toHaveLength(5);
    expect(alice).toBeDefined();
  });

  it('stays one statement however many people there are', async () => {
    const { clients } = await seedTrio(ctx);
    await ctx.db.db.execute(sql`
      insert into users (email, username, name, password_hash)
      select 'bulk' || g || '@example.com', 'bulk' || g, 'Bulk ' || g, 'x' from generate_series(1, 2000) g`);
    const before = ctx.db.queries.count;
    const res = await clients.alice.get('/api/users?limit=20');
    expect(res.json()).toHaveLength(20);
    expect(ctx.db.queries.count - before).toBeLessThanOrEqual(2); // session lookup + suggestions
  });
});
