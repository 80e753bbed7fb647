/**
 * Posts written at the same moment share one statement (posts.repository `insertTopLevelPost`, lib/group.ts):
 * each is still answered with its own row, once committed; its author's count and hashtags are right;
 * and a post the database refuses fails alone, the others of its group written.
 */
import { describe, expect, it } from 'vitest';
import { GroupRunner } from '../../src/lib/group.ts';
import { insertTopLevelPost } from '../../src/modules/posts/posts.repository.ts';
import { seedTrio, useTestApp } from '../helpers/app.ts';

describe('posts written together', () => {
  const ctx = useTestApp();

  it('answers each of many posts sent at once with its own row, count and hashtags', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const sent = Array.from({ length: 24 }, (_, i) => ({
      client: i % 2 === 0 ? clients.alice : clients.bob,
      text: `post ${i} #n${i} #${i % 2 === 0 ? 'even' : 'odd'}`,
    }));
    const answers = await Promise.all(sent.map(({ client, text }) => client.post('/api/posts', { text })));
    const posts = answers.map((res) => {
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string; text: string; author: { id: string } };
    });
    expect(posts.map((p) => p.text)).toEqual(sent.map((s) => s.text));
    expect(new Set(posts.map((p) => p.id)).size).toBe(sent.length);
    posts.forEach((post, i) => {
      expect(post.author.id).toBe(String(i % 2 === 0 ? alice.id : bob.id));
    });

    for (const [user, count] of [
      [alice, 12],
      [bob, 12],
    ] as const) {
      const profile = (await clients.alice.get(`/api/users/${user.id}`)).json() as { postsCount: number };
      expect(profile.postsCount).toBe(count);
    }
    // Every post under its own tags, and only there.
    for (const [i, post] of posts.entries()) {
      const page = (await clients.alice.get(`/api/hashtags/n${i}/posts`)).json() as { items: { id: string }[] };
      expect(page.items.map((p) => p.id)).toEqual([post.id]);
    }
    const even = (await clients.alice.get('/api/hashtags/even/posts?limit=50')).json() as { items: { id: string }[] };
    expect(new Set(even.items.map((p) => p.id))).toEqual(new Set(posts.filter((_, i) => i % 2 === 0).map((p) => p.id)));
    // Each post reads back as it was answered.
    for (const post of posts) {
      const read = (await clients.alice.get(`/api/posts/${post.id}`)).json() as { id: string; text: string };
      expect(read).toMatchObject({ id: post.id, text: post.text });
    }
  });

  it('fails only the post the database refuses; the others of its statement are written', async () => {
    const { alice, bob } = await seedTrio(ctx);
    const db = ctx.db.db;
    const before = ctx.db.queries.count;
    // Two statements may be on their way at once: the first two posts go alone, the next three wait and
    // go together — where the one by nobody (no such author) makes the statement fail.
    const writes = [
      insertTopLevelPost(
        db,
        { authorId: alice.id, text: 'one', tags: [], visibility: 'public' as const, quotePolicy: 'anyone' as const },
        false,
      ),
      insertTopLevelPost(
        db,
        { authorId: bob.id, text: 'two', tags: [], visibility: 'public' as const, quotePolicy: 'anyone' as const },
        false,
      ),
      insertTopLevelPost(
        db,
        {
          authorId: alice.id,
          text: 'three',
          tags: ['three'],
          visibility: 'public' as const,
          quotePolicy: 'anyone' as const,
        },
        false,
      ),
      insertTopLevelPost(
        db,
        {
          authorId: 999_999,
          text: 'by nobody',
          tags: [],
          visibility: 'public' as const,
          quotePolicy: 'anyone' as const,
        },
        false,
      ),
      insertTopLevelPost(
        db,
        { authorId: bob.id, text: 'five', tags: [], visibility: 'public' as const, quotePolicy: 'anyone' as const },
        false,
      ),
    ];
    const settled = await Promise.allSettled(writes);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((settled[3] as PromiseRejectedResult).reason).toMatchObject({ code: '23503' }); // foreign key
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value.text : null))).toEqual([
      'one',
      'two',
      'three',
      null,
      'five',
    ]);
    // Two alone, the group of three (refused), then each of the three alone.
    expect(ctx.db.queries.count - before).toBe(6);
  });
});

describe('GroupRunner', () => {
  /** A run whose groups are held until the test lets them go. */
  function heldRunner(maxInFlight: number, maxGroup: number) {
    const groups: { items: number[]; release: () => void }[] = [];
    const runner = new GroupRunner<number, number>(
      (items) =>
        new Promise((resolve) => {
          groups.push({ items, release: () => resolve(items.map((n) => n * 10)) });
        }),
      maxInFlight,
      maxGroup,
      () => true,
    );
    return { runner, groups };
  }

  it('runs an item alone at once, and groups what arrives while groups are on their way, up to the cap', async () => {
    const { runner, groups } = heldRunner(1, 3);
    const first = runner.add(1);
    expect(groups.map((g) => g.items)).toEqual([[1]]);
    const rest = [2, 3, 4, 5, 6].map((n) => runner.add(n));
    expect(groups).toHaveLength(1); // the others wait for the one on its way
    groups[0]?.release();
    expect(await first).toBe(10);
    await Promise.resolve();
    expect(groups.map((g) => g.items)).toEqual([[1], [2, 3, 4]]);
    groups[1]?.release();
    await Promise.all(rest.slice(0, 3));
    await Promise.resolve();
    expect(groups.map((g) => g.items)).toEqual([[1], [2, 3, 4], [5, 6]]);
    groups[2]?.release();
    expect(await Promise.all(rest)).toEqual([20, 30, 40, 50, 60]);
  });

  it('fails a group whose run answers the wrong number of results, and never runs it again', async () => {
    let runs = 0;
    const runner = new GroupRunner<number, number>(
      async (items) => {
        runs++;
        return items.slice(1); // one short
      },
      1,
      10,
      () => true,
    );
    const results = await Promise.allSettled([1, 2, 3].map((n) => runner.add(n)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ message: '1 results for 2 items' });
    expect(runs).toBe(2); // [1], then [2, 3]: each failed once, none retried
  });

  it('fails the whole group, running nothing twice, on an error that may have done the work', async () => {
    let runs = 0;
    const runner = new GroupRunner<number, number>(
      async (items) => {
        runs++;
        if (items.length > 1) throw new Error('connection lost');
        return items;
      },
      1,
      10,
      () => false,
    );
    const results = await Promise.allSettled([1, 2, 3].map((n) => runner.add(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(runs).toBe(2); // [1], then [2, 3] — never 2 or 3 again
  });
});
