/**
 * Reposts (issue 10, part 2): PUT/DELETE /api/posts/:id/repost are idempotent, counted and answer the
 * post; the author is notified (and the notification withdrawn on undo). A repost puts the post into
 * the reposter's followers' Following timelines as "<name> reposted" (`repostedBy`), once per post
 * however many people they follow reposted it (its first entry wins: the post itself when they follow
 * its author). Everyone lists posts, not reposts. Runs on PGlite and on PostgreSQL + Redis, where the
 * Following page comes from the home feeds: both must answer the same.
 */
import type { Notification, Post } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { type TestClient as Client, insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { createPost, follow, getPage, getPost, like, notificationsOf } from '../helpers/social.ts';

async function repost(client: Client, id: string): Promise<Post> {
  const res = await client.put(`/api/posts/${id}/repost`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Post>();
}

async function unrepost(client: Client, id: string): Promise<Post> {
  const res = await client.delete(`/api/posts/${id}/repost`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Post>();
}

/** The entries of a Following page as (post id, reposted by). */
async function home(client: Client) {
  const page = await getPage<Post>(client, '/api/timeline/following');
  return page.items.map((p) => [p.id, p.repostedBy?.username ?? null] as const);
}

describe('reposts', () => {
  const ctx = useTestApp();

  it('is idempotent, counted and undoable; the author is told, and untold on undo', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'worth passing on');
    for (let i = 0; i < 2; i++) {
      expect(await repost(clients.bob, post.id)).toMatchObject({
        id: post.id,
        repostCount: 1,
        repostedByMe: true,
        repostedBy: null,
      });
    }
    expect(await getPost(clients.carol, post.id)).toMatchObject({ repostCount: 1, repostedByMe: false });
    const told = (await notificationsOf(clients.alice)).filter((n: Notification) => n.type === 'repost');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ actor: { username: 'bob' }, post: { id: post.id } });

    for (let i = 0; i < 2; i++) {
      expect(await unrepost(clients.bob, post.id)).toMatchObject({ repostCount: 0, repostedByMe: false });
    }
    expect((await notificationsOf(clients.alice)).filter((n) => n.type === 'repost')).toEqual([]);
    // Reposting one's own post tells nobody.
    expect(await repost(clients.alice, post.id)).toMatchObject({ repostCount: 1, repostedByMe: true });
    expect((await notificationsOf(clients.alice)).filter((n) => n.type === 'repost')).toEqual([]);
  });

  it('an unknown post is 404 NOT_FOUND either way', async () => {
    const { clients } = await seedTrio(ctx);
    for (const res of [
      await clients.bob.put('/api/posts/999999/repost'),
      await clients.bob.delete('/api/posts/999999/repost'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
  });

  it("puts the post into the reposter's followers' Following as reposted, not into Everyone twice", async () => {
    const { bob, clients } = await seedTrio(ctx);
    await follow(clients.carol, bob.id);
    const post = await createPost(clients.alice, 'from someone Carol does not follow');
    const bobs = await createPost(clients.bob, 'bob’s own words');
    expect(await home(clients.carol)).toEqual([[bobs.id, null]]);
    await repost(clients.bob, post.id);

    const page = await getPage<Post>(clients.carol, '/api/timeline/following');
    expect(page.items.map((p) => [p.id, p.repostedBy?.username ?? null])).toEqual([
      [post.id, 'bob'],
      [bobs.id, null],
    ]);
    // The entry is the post itself (text, author, counts), as Carol sees it.
    expect(page.items[0]).toMatchObject({
      text: 'from someone Carol does not follow',
      author: { username: 'alice' },
      repostCount: 1,
      likedByMe: false,
    });
    // Bob's profile shows it too; Everyone lists the post once, as a post.
    const profile = await getPage<Post>(clients.visitor, `/api/users/${bob.id}/posts`);
    expect(profile.items.map((p) => [p.id, p.repostedBy?.username ?? null])).toEqual([
      [post.id, 'bob'],
      [bobs.id, null],
    ]);
    const everyone = await getPage<Post>(clients.visitor, '/api/timeline/everyone');
    expect(everyone.items.filter((p) => p.id === post.id).map((p) => p.repostedBy)).toEqual([null]);

    // Carol's like of the entry is a like of the post; the entry follows the counts.
    await like(clients.carol, post.id);
    const after = await getPage<Post>(clients.carol, '/api/timeline/following');
    expect(after.items[0]).toMatchObject({
      id: post.id,
      likeCount: 1,
      likedByMe: true,
      repostedBy: { username: 'bob' },
    });

    // Undone: the entry leaves Carol's home.
    await unrepost(clients.bob, post.id);
    expect(await home(clients.carol)).toEqual([[bobs.id, null]]);
  });

  it('one entry per post, however many people you follow reposted it: its first entry', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const dave = await new TestClient(ctx).signInAs((await insertUser(ctx.db, { username: 'dave' })).id);
    await follow(clients.carol, bob.id);
    await follow(clients.carol, (await dave.get('/api/current')).json().id);
    const post = await createPost(clients.alice, 'popular');
    await repost(clients.bob, post.id);
    await repost(dave, post.id);
    await repost(clients.carol, post.id);
    expect(await home(clients.carol)).toEqual([[post.id, 'bob']]);
    // Bob takes his back: Dave's is now the first.
    await unrepost(clients.bob, post.id);
    expect(await home(clients.carol)).toEqual([[post.id, 'dave']]);
    // Following the author: the post itself is the first entry.
    await follow(clients.carol, alice.id);
    expect(await home(clients.carol)).toEqual([[post.id, null]]);
  });

  it('a deleted post takes its reposts with it', async () => {
    const { bob, clients } = await seedTrio(ctx);
    await follow(clients.carol, bob.id);
    const post = await createPost(clients.alice, 'soon gone');
    await repost(clients.bob, post.id);
    expect(await home(clients.carol)).toEqual([[post.id, 'bob']]);
    expect((await clients.alice.delete(`/api/posts/${post.id}`)).statusCode).toBe(204);
    expect(await home(clients.carol)).toEqual([]);
    expect((await getPage<Post>(clients.visitor, `/api/users/${bob.id}/posts`)).items).toEqual([]);
    // Bob's posts count never counted the repost.
    expect((await clients.visitor.get(`/api/users/${bob.id}`)).json().postsCount).toBe(0);
  });
});
