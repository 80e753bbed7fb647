/**
 * Followed hashtags (issue 27, part 6): a member follows a tag from its page; the tag's public posts
 * join their Home (here the PostgreSQL Following page, `findFollowingPage`: no Redis feeds; the feeds'
 * merge is in test/feeds), each post once, never one hidden from them; unfollowing takes them away
 * again unless their author is followed.
 */
import { type Hashtag, MAX_FOLLOWED_HASHTAGS, type Post } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { createPost, follow, getAll, getPage } from '../helpers/social.ts';

const home = async (client: TestClient, limit = 50) =>
  (await getAll<Post>(client, '/api/timeline/following', limit)).map((p) => p.text);

describe('followed hashtags', () => {
  const ctx = useTestApp();

  it('follows and unfollows a tag by any form of its name, idempotently, and lists the followed ones newest first', async () => {
    const { clients } = await seedTrio(ctx);
    const get = async (tag: string) => (await clients.alice.get(`/api/hashtags/${tag}/follow`)).json<Hashtag>();
    expect(await get('Caf%C3%A9')).toEqual({ tag: 'café', following: false });

    const put = await clients.alice.put(`/api/hashtags/${encodeURIComponent('CAFE\u0301')}/follow`);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ tag: 'café', following: true });
    // Again: the same answer, one follow.
    expect((await clients.alice.put('/api/hashtags/caf%C3%A9/follow')).json()).toEqual({
      tag: 'café',
      following: true,
    });
    expect(await get('caf%C3%A9')).toEqual({ tag: 'café', following: true });
    expect((await clients.alice.put('/api/hashtags/Birds/follow')).statusCode).toBe(200);

    const followed = await getPage<Hashtag>(clients.alice, '/api/followed-hashtags');
    expect(followed).toEqual({
      items: [
        { tag: 'birds', following: true },
        { tag: 'café', following: true },
      ],
      nextCursor: null,
    });
    // Paged without skip or repeat.
    expect((await getAll<Hashtag>(clients.alice, '/api/followed-hashtags', 1)).map((t) => t.tag)).toEqual([
      'birds',
      'café',
    ]);
    // Someone else's list is their own.
    expect((await getPage<Hashtag>(clients.bob, '/api/followed-hashtags')).items).toEqual([]);
    expect((await clients.bob.get('/api/hashtags/birds/follow')).json()).toEqual({ tag: 'birds', following: false });

    const del = await clients.alice.delete('/api/hashtags/BIRDS/follow');
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ tag: 'birds', following: false });
    // Unfollowing a tag one does not follow is no error: it answers the tag, as Mastodon does.
    const again = await clients.alice.delete('/api/hashtags/birds/follow');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ tag: 'birds', following: false });
    expect((await getPage<Hashtag>(clients.alice, '/api/followed-hashtags')).items.map((t) => t.tag)).toEqual(['café']);
  });

  it('refuses names that are no hashtag, visitors, and a follow past the limit', async () => {
    const { clients } = await seedTrio(ctx);
    for (const bad of ['%20', '12', 'bad-tag', 'a.b', '%23tag', 'a'.repeat(101)]) {
      for (const method of ['get', 'put', 'delete'] as const) {
        const res = await clients.alice[method](`/api/hashtags/${bad}/follow`);
        expect(res.statusCode, `${method} ${bad}`).toBe(400);
        expect(res.json(), `${method} ${bad}`).toMatchObject({ code: 'INVALID_INPUT', field: 'tag' });
        expect(res.json().message).toMatch(/hashtag/);
      }
    }
    // An empty name.
    const empty = await clients.alice.put('/api/hashtags//follow');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'tag' });
    // 100 characters is a tag.
    expect((await clients.alice.put(`/api/hashtags/${'a'.repeat(100)}/follow`)).statusCode).toBe(200);

    for (const [method, url] of [
      ['get', '/api/hashtags/birds/follow'],
      ['put', '/api/hashtags/birds/follow'],
      ['delete', '/api/hashtags/birds/follow'],
      ['get', '/api/followed-hashtags'],
    ] as const) {
      const res = await clients.visitor[method](url);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().code).toBe('UNAUTHENTICATED');
    }

    for (let i = 1; i < MAX_FOLLOWED_HASHTAGS; i++) {
      expect((await clients.bob.put(`/api/hashtags/tag${i}/follow`)).statusCode).toBe(200);
    }
    expect((await clients.bob.put('/api/hashtags/tag0/follow')).statusCode).toBe(200);
    const over = await clients.bob.put('/api/hashtags/onemore/follow');
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'LIMIT_REACHED' });
    expect(over.json().message).toContain(String(MAX_FOLLOWED_HASHTAGS));
    // At the limit, following one already followed still answers it; after an unfollow there is room.
    expect((await clients.bob.put('/api/hashtags/tag5/follow')).statusCode).toBe(200);
    await clients.bob.delete('/api/hashtags/tag5/follow');
    expect((await clients.bob.put('/api/hashtags/onemore/follow')).statusCode).toBe(200);
    expect((await getAll<Hashtag>(clients.bob, '/api/followed-hashtags', 50)).length).toBe(MAX_FOLLOWED_HASHTAGS);
  });

  it("brings a followed tag's posts, old and new, into Home; each post once; unfollowing takes them away unless their author is followed", async () => {
    const { bob, clients } = await seedTrio(ctx);
    await createPost(clients.carol, 'carol before #birds');
    await createPost(clients.bob, 'bob #birds');
    await createPost(clients.carol, 'carol untagged');
    await createPost(clients.carol, 'carol #birds and #Owls');
    await createPost(clients.alice, 'alice own #birds');
    expect(await home(clients.alice)).toEqual(['alice own #birds']);

    await clients.alice.put('/api/hashtags/birds/follow');
    expect(await home(clients.alice)).toEqual([
      'alice own #birds',
      'carol #birds and #Owls',
      'bob #birds',
      'carol before #birds',
    ]);
    // A second tag of the same post: still once.
    await clients.alice.put('/api/hashtags/owls/follow');
    await createPost(clients.carol, 'carol after #owls');
    await follow(clients.alice, bob.id);
    await createPost(clients.bob, 'bob untagged');
    const all = [
      'bob untagged',
      'carol after #owls',
      'alice own #birds',
      'carol #birds and #Owls',
      'bob #birds',
      'carol before #birds',
    ];
    expect(await home(clients.alice)).toEqual(all);
    // Every page size pages without skip or repeat (the page bound counts each post once).
    for (const limit of [1, 2, 3, 4]) expect(await home(clients.alice, limit), `limit ${limit}`).toEqual(all);

    await clients.alice.delete('/api/hashtags/birds/follow');
    // Bob is followed: his tagged post stays; carol's #birds posts go, but not the one also tagged #owls.
    expect(await home(clients.alice)).toEqual([
      'bob untagged',
      'carol after #owls',
      'alice own #birds',
      'carol #birds and #Owls',
      'bob #birds',
    ]);
    await clients.alice.delete('/api/hashtags/owls/follow');
    expect(await home(clients.alice)).toEqual(['bob untagged', 'alice own #birds', 'bob #birds']);
    // Nobody else's Home changed.
    expect(await home(clients.carol)).toEqual([
      'carol after #owls',
      'carol #birds and #Owls',
      'carol untagged',
      'carol before #birds',
    ]);
  });

  it('shows a reposted tagged post once, at its own time, and a repost of it by someone followed not again', async () => {
    const { bob, clients } = await seedTrio(ctx);
    const tagged = await createPost(clients.carol, 'carol #birds');
    await follow(clients.alice, bob.id);
    expect((await clients.bob.put(`/api/posts/${tagged.id}/repost`)).statusCode).toBe(200);
    // Before: bob's repost is the entry.
    let page = await getAll<Post>(clients.alice, '/api/timeline/following', 10);
    expect(page.map((p) => [p.text, p.repostedBy?.username ?? null])).toEqual([['carol #birds', 'bob']]);

    await clients.alice.put('/api/hashtags/birds/follow');
    page = await getAll<Post>(clients.alice, '/api/timeline/following', 10);
    expect(page.map((p) => [p.id, p.repostedBy?.username ?? null])).toEqual([[tagged.id, null]]);

    // Unfollowed again: the repost is the entry once more.
    await clients.alice.delete('/api/hashtags/birds/follow');
    page = await getAll<Post>(clients.alice, '/api/timeline/following', 10);
    expect(page.map((p) => [p.text, p.repostedBy?.username ?? null])).toEqual([['carol #birds', 'bob']]);
  });

  it('never brings in a post hidden from the reader: blocked, muted, muted words, suspended', async () => {
    const { alice, bob, carol, clients } = await seedTrio(ctx);
    await clients.alice.put('/api/hashtags/birds/follow');
    await createPost(clients.bob, 'bob #birds');
    await createPost(clients.carol, 'carol #birds kite');
    await createPost(clients.carol, 'carol #birds');
    expect(await home(clients.alice)).toEqual(['carol #birds', 'carol #birds kite', 'bob #birds']);

    expect((await clients.alice.put(`/api/users/${bob.id}/mute`, {})).statusCode).toBe(200);
    expect((await clients.alice.post('/api/muted-words', { phrase: 'kite' })).statusCode).toBe(201);
    expect(await home(clients.alice)).toEqual(['carol #birds']);
    // A block either way.
    expect((await clients.carol.put(`/api/users/${alice.id}/block`)).statusCode).toBe(200);
    expect(await home(clients.alice)).toEqual([]);
    expect((await clients.carol.delete(`/api/users/${alice.id}/block`)).statusCode).toBe(200);
    expect(await home(clients.alice)).toEqual(['carol #birds']);
    // A suspension, by a moderator.
    const mod = await new TestClient(ctx).signInAs(
      (await insertUser(ctx.db, { username: 'mo', role: 'moderator' })).id,
    );
    expect((await mod.put(`/api/moderation/users/${carol.id}/suspension`)).statusCode).toBe(200);
    expect(await home(clients.alice)).toEqual([]);
  });
});
