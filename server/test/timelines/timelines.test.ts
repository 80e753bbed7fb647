import { type Post, postPage } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { follows } from '../../src/db/schema.ts';
import { insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { createPost, follow, getAll, getPage, like, type Page, rowsOf, seedPosts } from '../helpers/social.ts';

const ids = (posts: Post[]) => posts.map((p) => p.id);

describe('timelines', () => {
  const ctx = useTestApp();

  describe('Everyone', () => {
    it('shows every post (replies too), newest first, to visitors and members', async () => {
      const { clients } = await seedTrio(ctx);
      const a = await createPost(clients.alice, 'a');
      const b = await createPost(clients.bob, 'b');
      const c = await createPost(clients.carol, 'c', a.id);
      await like(clients.bob, a.id);
      const visitor = await getPage<Post>(clients.visitor, '/api/timeline/everyone');
      expect(ids(visitor.items)).toEqual([c.id, b.id, a.id]);
      expect(visitor.nextCursor).toBeNull();
      expect(visitor.items.every((p) => !p.likedByMe)).toBe(true);
      const bob = await getPage<Post>(clients.bob, '/api/timeline/everyone');
      expect(bob.items.map((p) => p.likedByMe)).toEqual([false, false, true]);
      expect(bob.items[2]).toMatchObject({ likeCount: 1, replyCount: 1, author: { username: 'alice' } });
    });

    it('pages hold 20 posts by default, at most 50; other sizes are 400 INVALID_INPUT on limit', async () => {
      const { alice, clients } = await seedTrio(ctx);
      await seedPosts(
        ctx.db,
        Array.from({ length: 60 }, () => ({ authorId: alice.id })),
      );
      expect((await getPage(clients.visitor, '/api/timeline/everyone')).items).toHaveLength(20);
      expect((await getPage(clients.visitor, '/api/timeline/everyone', null, 50)).items).toHaveLength(50);
      for (const limit of ['0', '51', 'x', '-1', '2.5']) {
        const res = await clients.visitor.get(`/api/timeline/everyone?limit=${limit}`);
        expect(res.statusCode, limit).toBe(400);
        expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'limit' });
      }
    });

    it('refuses cursors it did not produce with 400 INVALID_INPUT on the field cursor', async () => {
      const { clients } = await seedTrio(ctx);
      const b64 = (s: string) => Buffer.from(s).toString('base64url');
      const bad = [
        'garbage',
        '!!!',
        b64('x_1'),
        b64('2024-01-01T00:00:00.000000Z'),
        b64('2024-01-01T00:00:00.000000Z_0'),
        b64('2024-01-01T00:00:00.000000Z_1_2'),
        b64('2024-13-01T00:00:00.000000Z_1'),
        b64('2024-02-30T00:00:00.000000Z_1'),
        b64('2024-01-01T24:00:00.000000Z_1'),
        b64('2024-01-01T00:00:00.000Z_1'),
        b64('2024-01-01T00:00:00.000000Z_99999999999999999'),
        'a'.repeat(201),
      ];
      for (const cursor of bad) {
        for (const url of ['/api/timeline/everyone', '/api/timeline/following']) {
          const res = await clients.alice.get(`${url}?cursor=${cursor}`);
          expect(res.statusCode, `${url} ${cursor}`).toBe(400);
          expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'cursor' });
        }
      }
      const good = b64('2024-01-01T00:00:00.000000Z_1');
      expect((await clients.alice.get(`/api/timeline/everyone?cursor=${good}`)).statusCode).toBe(200);
    });

    it('orders and pages by microseconds: posts a few µs apart, ids out of time order, no skip, no repeat', async () => {
      const { alice, bob } = await seedTrio(ctx);
      // 25 instants within one millisecond, some shared by two posts; inserted in shuffled order.
      const instants = fc.sample(fc.integer({ min: 0, max: 999 }), { numRuns: 25, seed: 7 });
      const rows = instants.flatMap((us, i) => {
        const at = `2024-05-05T10:00:00.123${String(us).padStart(3, '0')}Z`;
        return i % 5 === 0 ? [at, at] : [at];
      });
      for (const at of fc.sample(fc.shuffledSubarray(rows, { minLength: rows.length }), { numRuns: 1, seed: 3 })[0]!) {
        await ctx.db.db.execute(
          sql`insert into posts (author_id, text, created_at) values (${alice.id}, ${at}, ${at}::timestamptz)`,
        );
      }
      const expected = rowsOf<{ id: string | number }>(
        await ctx.db.db.execute(sql`select id from posts order by created_at desc, id desc`),
      ).map((r) => String(r.id));
      expect(expected).toHaveLength(rows.length);
      const client = await new TestClient(ctx).signInAs(bob.id);
      for (const limit of [1, 2, 3, 7, 50]) {
        expect(ids(await getAll<Post>(client, '/api/timeline/everyone', limit)), `limit ${limit}`).toEqual(expected);
        const mine = await getAll<Post>(client, `/api/users/${alice.id}/posts`, limit);
        expect(ids(mine)).toEqual(expected);
      }
    });
  });

  describe('Following', () => {
    it('is for members only: visitors get 401 UNAUTHENTICATED', async () => {
      const { clients } = await seedTrio(ctx);
      const res = await clients.visitor.get('/api/timeline/following');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    it('shows my own posts and the posts of people I follow, newest first', async () => {
      const { bob, carol, clients } = await seedTrio(ctx);
      const a1 = await createPost(clients.alice, 'alice 1');
      const b1 = await createPost(clients.bob, 'bob 1');
      const c1 = await createPost(clients.carol, 'carol 1');
      const a2 = await createPost(clients.alice, 'alice 2');
      expect(ids((await getPage<Post>(clients.alice, '/api/timeline/following')).items)).toEqual([a2.id, a1.id]);

      await follow(clients.alice, bob.id);
      await follow(clients.alice, carol.id);
      expect(ids((await getPage<Post>(clients.alice, '/api/timeline/following')).items)).toEqual([
        a2.id,
        c1.id,
        b1.id,
        a1.id,
      ]);
      await clients.alice.delete(`/api/users/${carol.id}/follow`);
      const page = await getPage<Post>(clients.alice, '/api/timeline/following');
      expect(ids(page.items)).toEqual([a2.id, b1.id, a1.id]);
      expect(page.items.map((p) => p.likedByMe)).toEqual([false, false, false]);
      // Someone who follows nobody and never posted sees an empty page.
      const dave = await new TestClient(ctx).signInAs((await insertUser(ctx.db, { username: 'dave' })).id);
      expect(await getPage(dave, '/api/timeline/following')).toEqual({ items: [], nextCursor: null });
    });

    it("sends exactly the contract's shape (it is serialized as built, not through the response schema)", async () => {
      const { bob, clients } = await seedTrio(ctx);
      await follow(clients.alice, bob.id);
      const root = await createPost(clients.bob, 'root with "quotes", <b>tags</b>, a back\\slash, a\nnewline and 🐦');
      await createPost(clients.alice, 'a reply', root.id);
      await like(clients.alice, root.id);
      const first = await clients.alice.get('/api/timeline/following?limit=1');
      const cursor = first.json<Page<Post>>().nextCursor;
      const second = await clients.alice.get(`/api/timeline/following?limit=1&cursor=${cursor}`);
      for (const res of [first, second, await clients.alice.get('/api/timeline/following')]) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body).toBe(JSON.stringify(postPage.parse(JSON.parse(res.body))));
      }
      expect(second.json<Page<Post>>().items[0]).toMatchObject({ text: root.text, likedByMe: true, replyCount: 1 });
    });

    it('equals "own and followed posts, newest first" for random follow graphs and page sizes', async () => {
      const people: Awaited<ReturnType<typeof insertUser>>[] = [];
      for (let i = 0; i < 8; i++) people.push(await insertUser(ctx.db, { username: `u${i}` }));
      const client = await new TestClient(ctx).signInAs(people[0]!.id);
      const base = Date.parse('2024-01-01T00:00:00Z');
      await fc.assert(
        fc.asyncProperty(
          fc.subarray(people.slice(1)),
          fc.array(fc.record({ author: fc.nat(7), minute: fc.nat(300) }), { maxLength: 60 }),
          fc.integer({ min: 1, max: 12 }),
          async (followed, posts, limit) => {
            await ctx.db.db.execute(sql`truncate posts, follows restart identity cascade`);
            if (followed.length > 0) {
              await ctx.db.db
                .insert(follows)
                .values(followed.map((u) => ({ followerId: people[0]!.id, followeeId: u.id })));
            }
            const made = await seedPosts(
              ctx.db,
              posts.map((p) => ({ authorId: people[p.author]!.id, createdAt: new Date(base + p.minute * 60_000) })),
            );
            const visible = new Set([people[0]!.id, ...followed.map((u) => u.id)]);
            const expected = posts
              .map((p, i) => ({ id: made[i]!, at: p.minute, author: people[p.author]!.id }))
              .filter((p) => visible.has(p.author))
              .sort((x, y) => y.at - x.at || y.id - x.id)
              .map((p) => String(p.id));
            expect(ids(await getAll<Post>(client, '/api/timeline/following', limit))).toEqual(expected);
          },
        ),
        { numRuns: 25, seed: 42 },
      );
    });
  });

  describe('pagination while new posts arrive', () => {
    const scenarios = [
      { name: 'Everyone', url: () => '/api/timeline/everyone' },
      { name: 'Following', url: () => '/api/timeline/following' },
    ];
    for (const scenario of scenarios) {
      it(`${scenario.name}: neither skips nor repeats a post`, async () => {
        const { bob, carol, clients } = await seedTrio(ctx);
        await follow(clients.alice, bob.id);
        await follow(clients.alice, carol.id);
        const before: Post[] = [];
        for (let i = 0; i < 23; i++) {
          const author = [clients.alice, clients.bob, clients.carol][i % 3]!;
          before.push(await createPost(author, `before ${i}`));
        }
        const seen: Post[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          // Others post while alice scrolls, some at the very moment she asks for the next page.
          const [page]: [Page<Post>, ...unknown[]] = await Promise.all([
            getPage<Post>(clients.alice, scenario.url(), cursor, 4),
            createPost(clients.bob, `during ${pages} a`),
            createPost(clients.carol, `during ${pages} b`),
          ]);
          if (pages === 0) {
            // The first page may or may not include what was posted at the same moment.
            seen.push(...page.items.filter((p) => p.text.startsWith('before')));
          } else {
            seen.push(...page.items);
          }
          await createPost(clients.alice, `between ${pages}`);
          cursor = page.nextCursor;
          pages++;
        } while (cursor && pages < 50);
        expect(ids(seen)).toEqual(ids(before).reverse());
      });
    }

    it('Replies (oldest first): neither skips nor repeats; new replies come at the end', async () => {
      const { clients } = await seedTrio(ctx);
      const parent = await createPost(clients.alice, 'thread');
      const before: Post[] = [];
      for (let i = 0; i < 11; i++) before.push(await createPost(clients.bob, `reply ${i}`, parent.id));
      const seen: Post[] = [];
      const added: Post[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const [page, extra]: [Page<Post>, Post | null] = await Promise.all([
          getPage<Post>(clients.carol, `/api/posts/${parent.id}/replies`, cursor, 3),
          pages < 3 ? createPost(clients.carol, `late ${pages}`, parent.id) : Promise.resolve(null),
        ]);
        if (extra) added.push(extra);
        seen.push(...page.items);
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 50);
      expect(ids(seen).slice(0, before.length)).toEqual(ids(before));
      expect(new Set(ids(seen)).size).toBe(seen.length);
      expect(new Set(ids(seen))).toEqual(new Set([...ids(before), ...ids(added)]));
    });
  });
});
