/**
 * Counters stay equal to the rows they count, and notifications appear and disappear exactly as
 * the rules say, after random sequences of posts, replies, likes, unlikes, deletes, follows and
 * unfollows, through HTTP. One property runs the actions one by one against a model of what the
 * answers and the notifications must be; the other fires them in concurrent batches (real
 * concurrency on PostgreSQL) and checks the invariants that must survive any interleaving.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { resetDb, seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { rowsOf } from '../helpers/social.ts';

const NAMES = ['alice', 'bob', 'carol'] as const;
type Name = (typeof NAMES)[number];

type Action =
  | { kind: 'post'; by: Name; mention: Name | null }
  | { kind: 'reply'; by: Name; target: number; mention: Name | null }
  | { kind: 'like' | 'unlike' | 'delete'; by: Name; target: number }
  | { kind: 'follow' | 'unfollow'; by: Name; whom: Name };

const name = fc.constantFrom(...NAMES);
const target = fc.nat(40);
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('post' as const), by: name, mention: fc.option(name) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('reply' as const), by: name, target, mention: fc.option(name) }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('like' as const), by: name, target }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('unlike' as const), by: name, target }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), by: name, target }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('follow' as const), by: name, whom: name }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('unfollow' as const), by: name, whom: name }) },
);

/** Every counter compared with a count of the rows it counts; answers the rows that disagree. */
async function counterMismatches(ctx: { db: { db: Database } }) {
  const postRows = await ctx.db.db.execute(sql`
    select p.id from posts p
    where p.like_count <> (select count(*) from likes l where l.post_id = p.id)
       or p.reply_count <> (select count(*) from posts c where c.parent_id = p.id)`);
  const userRows = await ctx.db.db.execute(sql`
    select u.id from users u
    where u.posts_count <> (select count(*) from posts p where p.author_id = u.id)
       or u.followers_count <> (select count(*) from follows f where f.followee_id = u.id)
       or u.following_count <> (select count(*) from follows f where f.follower_id = u.id)`);
  return [...rowsOf(postRows), ...rowsOf(userRows)];
}

/** Notifications that should not exist given the likes and follows (orphans of an unlike/unfollow). */
async function orphanNotifications(ctx: { db: { db: Database } }) {
  const rows = await ctx.db.db.execute(sql`
    select n.id from notifications n
    where (n.type = 'like' and not exists (select 1 from likes l where l.user_id = n.actor_id and l.post_id = n.post_id))
       or (n.type = 'follow' and not exists (select 1 from follows f where f.follower_id = n.actor_id and f.followee_id = n.user_id))
       or n.user_id = n.actor_id`);
  const missing = await ctx.db.db.execute(sql`
    select l.user_id from likes l join posts p on p.id = l.post_id
    where l.user_id <> p.author_id and not exists (
      select 1 from notifications n where n.type = 'like' and n.actor_id = l.user_id and n.post_id = l.post_id and n.user_id = p.author_id)
    union all
    select f.follower_id from follows f where not exists (
      select 1 from notifications n where n.type = 'follow' and n.actor_id = f.follower_id and n.user_id = f.followee_id)`);
  return [...rowsOf(rows), ...rowsOf(missing)];
}

describe('counters and notifications under random sequences', () => {
  const ctx = useTestApp();

  it('match a model of the rules, action after action', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 35 }), async (actions) => {
        await resetDb(ctx.db);
        const trio = await seedTrio(ctx);
        const idOf = (n: Name) => String(trio[n].id);
        const client = (n: Name): TestClient => trio.clients[n];

        // The model: posts (alive or not), likes, follows, and the notifications they imply.
        const posts: { id: string; author: Name; alive: boolean; parent: string | null }[] = [];
        const likes = new Set<string>();
        const follows = new Set<string>();
        const notes = new Set<string>();
        const note = (user: Name, actor: Name, type: string, post: string | null) =>
          `${idOf(user)}|${idOf(actor)}|${type}|${post ?? '-'}`;
        const pick = (i: number) => posts[i % Math.max(posts.length, 1)];
        const dropPostNotes = (postId: string) => {
          for (const n of [...notes]) if (n.endsWith(`|${postId}`)) notes.delete(n);
        };

        for (const a of actions) {
          if (a.kind === 'post' || a.kind === 'reply') {
            const parent = a.kind === 'reply' ? pick(a.target) : undefined;
            const parentId = a.kind === 'reply' ? (parent?.id ?? '999999') : undefined;
            const text = a.mention ? `hello @${a.mention}` : 'hello';
            const res = await client(a.by).post('/api/posts', parentId ? { text, parentId } : { text });
            if (a.kind === 'reply' && !parent?.alive) {
              expect(res.statusCode).toBe(404);
              continue;
            }
            expect(res.statusCode, res.body).toBe(201);
            const id = res.json().id as string;
            posts.push({ id, author: a.by, alive: true, parent: parent?.id ?? null });
            if (parent && parent.author !== a.by) notes.add(note(parent.author, a.by, 'reply', id));
            if (a.mention && a.mention !== a.by && a.mention !== parent?.author) {
              notes.add(note(a.mention, a.by, 'mention', id));
            }
          } else if (a.kind === 'like' || a.kind === 'unlike' || a.kind === 'delete') {
            const post = pick(a.target);
            const id = post?.id ?? '999999';
            const res =
              a.kind === 'like'
                ? await client(a.by).put(`/api/posts/${id}/like`)
                : a.kind === 'unlike'
                  ? await client(a.by).delete(`/api/posts/${id}/like`)
                  : await client(a.by).delete(`/api/posts/${id}`);
            if (!post?.alive) {
              expect(res.statusCode).toBe(404);
              expect(res.json().code).toBe('NOT_FOUND');
              continue;
            }
            const key = `${a.by}|${id}`;
            if (a.kind === 'delete') {
              if (post.author !== a.by) {
                expect(res.statusCode).toBe(403);
                expect(res.json().code).toBe('FORBIDDEN');
                continue;
              }
              expect(res.statusCode).toBe(204);
              post.alive = false;
              for (const l of [...likes]) if (l.endsWith(`|${id}`)) likes.delete(l);
              for (const p of posts) if (p.parent === id) p.parent = null;
              dropPostNotes(id);
              continue;
            }
            expect(res.statusCode, res.body).toBe(200);
            if (a.kind === 'like') {
              likes.add(key);
              if (post.author !== a.by) notes.add(note(post.author, a.by, 'like', id));
            } else {
              likes.delete(key);
              notes.delete(note(post.author, a.by, 'like', id));
            }
            const likeCount = [...likes].filter((l) => l.endsWith(`|${id}`)).length;
            expect(res.json()).toMatchObject({ likeCount, likedByMe: a.kind === 'like' });
          } else if (a.kind === 'follow' || a.kind === 'unfollow') {
            const res =
              a.kind === 'follow'
                ? await client(a.by).put(`/api/users/${idOf(a.whom)}/follow`)
                : await client(a.by).delete(`/api/users/${idOf(a.whom)}/follow`);
            if (a.by === a.whom) {
              expect(res.statusCode).toBe(400);
              expect(res.json().code).toBe('CANNOT_FOLLOW_SELF');
              continue;
            }
            expect(res.statusCode, res.body).toBe(200);
            const key = `${a.by}|${a.whom}`;
            if (a.kind === 'follow') {
              follows.add(key);
              notes.add(note(a.whom, a.by, 'follow', null));
            } else {
              follows.delete(key);
              notes.delete(note(a.whom, a.by, 'follow', null));
            }
            const followersCount = [...follows].filter((f) => f.endsWith(`|${a.whom}`)).length;
            expect(res.json()).toMatchObject({ followersCount, isFollowing: a.kind === 'follow' });
          }
        }

        expect(await counterMismatches(ctx)).toEqual([]);
        // What each post shows equals the model.
        for (const post of posts.filter((p) => p.alive)) {
          const res = await trio.clients.visitor.get(`/api/posts/${post.id}`);
          expect(res.json()).toMatchObject({
            likeCount: [...likes].filter((l) => l.endsWith(`|${post.id}`)).length,
            replyCount: posts.filter((p) => p.alive && p.parent === post.id).length,
            parentId: post.parent,
          });
        }
        const stored = rowsOf<{ user_id: unknown; actor_id: unknown; type: string; post_id: unknown }>(
          await ctx.db.db.execute(sql`select user_id, actor_id, type, post_id from notifications`),
        );
        const actual = stored.map((r) => `${r.user_id}|${r.actor_id}|${r.type}|${r.post_id ?? '-'}`);
        expect(actual.sort()).toEqual([...notes].sort());
        // And each person's list shows exactly their own.
        for (const n of NAMES) {
          const res = await client(n).get('/api/notifications?limit=50');
          expect(res.json().items).toHaveLength([...notes].filter((x) => x.startsWith(`${idOf(n)}|`)).length);
        }
      }),
      { numRuns: 40, seed: 20261121, endOnFailure: true },
    );
  });

  it('hold after concurrent batches of the same actions (no deadlock, no lost update)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(action, { minLength: 2, maxLength: 8 }), { minLength: 1, maxLength: 6 }),
        async (batches) => {
          await resetDb(ctx.db);
          const trio = await seedTrio(ctx);
          const ids: string[] = [];
          // A few posts to fight over.
          for (const n of NAMES) {
            const res = await trio.clients[n].post('/api/posts', { text: `seed by ${n}` });
            ids.push(res.json().id);
          }
          const pick = (i: number) => ids[i % ids.length]!;
          for (const batch of batches) {
            const answers = await Promise.all(
              batch.map((a) => {
                const c = trio.clients[a.by];
                switch (a.kind) {
                  case 'post':
                    return c.post('/api/posts', { text: a.mention ? `hey @${a.mention}` : 'hey' });
                  case 'reply':
                    return c.post('/api/posts', { text: 're', parentId: pick(a.target) });
                  case 'like':
                    return c.put(`/api/posts/${pick(a.target)}/like`);
                  case 'unlike':
                    return c.delete(`/api/posts/${pick(a.target)}/like`);
                  case 'delete':
                    return c.delete(`/api/posts/${pick(a.target)}`);
                  case 'follow':
                    return c.put(`/api/users/${trio[a.whom].id}/follow`);
                  default:
                    return c.delete(`/api/users/${trio[a.whom].id}/follow`);
                }
              }),
            );
            for (const res of answers) {
              expect([200, 201, 204, 400, 403, 404], res.body).toContain(res.statusCode);
              if (res.statusCode === 201) ids.push(res.json().id);
            }
          }
          expect(await counterMismatches(ctx)).toEqual([]);
          expect(await orphanNotifications(ctx)).toEqual([]);
        },
      ),
      { numRuns: 20, seed: 7, endOnFailure: true },
    );
  });
});
