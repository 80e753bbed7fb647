import type { MutedAccount, MutedWord, Notification, Post, User } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { createPost, follow, getAll, getPage, like, notificationsOf, rowsOf } from '../helpers/social.ts';

/** The texts a list call shows, in order. */
async function texts(client: TestClient, url: string): Promise<string[]> {
  return (await getAll<Post>(client, url, 50)).map((p) => p.repostedBy?.username ?? p.text);
}

async function block(client: TestClient, userId: number): Promise<User> {
  const res = await client.put(`/api/users/${userId}/block`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as User;
}

async function mute(client: TestClient, userId: number, durationSeconds?: number | null): Promise<User> {
  const res = await client.put(`/api/users/${userId}/mute`, durationSeconds === undefined ? {} : { durationSeconds });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as User;
}

describe('blocks', () => {
  const ctx = useTestApp();

  it('a block removes follows both ways (with the counts), prevents new ones and answers isBlocking', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    await follow(clients.alice, bob.id);
    await follow(clients.bob, alice.id);
    const blocked = await block(clients.alice, bob.id);
    expect(blocked).toMatchObject({ isBlocking: true, isFollowing: false, followersCount: 0, followingCount: 0 });
    // Twice is one block.
    expect(await block(clients.alice, bob.id)).toMatchObject({ isBlocking: true });
    const me = (await clients.alice.get('/api/current')).json();
    expect(me).toMatchObject({ followersCount: 0, followingCount: 0 });

    for (const [client, target] of [
      [clients.alice, bob.id],
      [clients.bob, alice.id],
    ] as const) {
      const res = await client.put(`/api/users/${target}/follow`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
    // The blocked person's view of the blocker never says who blocked whom.
    const seen = (await clients.bob.get(`/api/users/${alice.id}`)).json() as User;
    expect(seen).toMatchObject({ isBlocking: false, isFollowing: false });
  });

  it('neither sees the other: timelines, profile posts, replies, search, hashtags, suggestions, notifications, one post', async () => {
    const { alice, bob, carol, clients } = await seedTrio(ctx);
    await follow(clients.alice, carol.id);
    await follow(clients.bob, carol.id);
    const fromBob = await createPost(clients.bob, 'bob speaks of #kites and more');
    const fromAlice = await createPost(clients.alice, 'alice speaks of #kites and more');
    const carols = await createPost(clients.carol, 'carol asks');
    await createPost(clients.bob, 'bob replies', carols.id);
    await createPost(clients.alice, 'alice replies', carols.id);
    // Carol reposts Bob: Alice follows Carol.
    expect((await clients.carol.put(`/api/posts/${fromBob.id}/repost`)).statusCode).toBe(200);
    await like(clients.bob, fromAlice.id);
    expect((await notificationsOf(clients.alice)).length).toBe(1);

    await block(clients.alice, bob.id);

    for (const [viewer, other, hidden] of [
      [clients.alice, bob, 'bob'],
      [clients.bob, alice, 'alice'],
    ] as const) {
      const lists = [
        '/api/timeline/everyone',
        '/api/timeline/following',
        `/api/posts/${carols.id}/replies`,
        '/api/search/posts?q=speaks',
        '/api/hashtags/kites/posts',
      ];
      for (const url of lists) {
        const shown = await texts(viewer, url);
        expect(
          shown.filter((t) => t.startsWith(hidden)),
          url,
        ).toEqual([]);
      }
      expect(await texts(viewer, `/api/users/${other.id}/posts`)).toEqual([]);
      const people = (await viewer.get(`/api/search/people?q=${hidden}`)).json() as { items: User[] };
      expect(people.items).toEqual([]);
      const suggestions = (await viewer.get('/api/users?limit=20')).json() as User[];
      expect(suggestions.map((u) => u.username)).not.toContain(hidden);
      expect((await notificationsOf(viewer)).filter((n) => n.actor.id === String(other.id))).toEqual([]);
    }
    expect(await notificationsOf(clients.alice)).toEqual([]);
    // Alice's Following still shows Carol's own post, not Carol's repost of Bob.
    expect(await texts(clients.alice, '/api/timeline/following')).toEqual([
      'alice replies',
      'carol asks',
      'alice speaks of #kites and more',
    ]);
    // One post: 404 either way; the blocker's own posts stay for everyone else.
    expect((await clients.alice.get(`/api/posts/${fromBob.id}`)).statusCode).toBe(404);
    expect((await clients.bob.get(`/api/posts/${fromAlice.id}`)).statusCode).toBe(404);
    expect((await clients.carol.get(`/api/posts/${fromAlice.id}`)).statusCode).toBe(200);
  });

  it('the blocked person cannot reply to, quote, like, repost or mention-notify the blocker: 404 as if it were gone', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'mine');
    await block(clients.alice, bob.id);
    const attempts = [
      await clients.bob.post('/api/posts', { text: 'a reply', parentId: post.id }),
      await clients.bob.post('/api/posts', { text: 'a quote', quoteOfId: post.id }),
      await clients.bob.put(`/api/posts/${post.id}/like`),
      await clients.bob.put(`/api/posts/${post.id}/repost`),
    ];
    for (const res of attempts) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    // Nothing was written: counts as they were.
    const mine = (await clients.alice.get(`/api/posts/${post.id}`)).json() as Post;
    expect(mine).toMatchObject({ replyCount: 0, likeCount: 0, repostCount: 0 });
    // A mention goes through as a post, but tells Alice nothing.
    await createPost(clients.bob, 'hello @alice');
    expect(await notificationsOf(clients.alice)).toEqual([]);
    expect((await clients.alice.get('/api/current')).json()).toMatchObject({ hasNotification: false });
    void alice;
  });

  it('unblocking restores nothing by itself; the Blocked accounts list pages newest first', async () => {
    const { alice, bob, carol, clients } = await seedTrio(ctx);
    await follow(clients.alice, bob.id);
    await block(clients.alice, bob.id);
    await block(clients.alice, carol.id);
    const list = await getAll<User>(clients.alice, '/api/blocks', 1);
    expect(list.map((u) => u.username)).toEqual(['carol', 'bob']);
    expect(list.every((u) => u.isBlocking)).toBe(true);

    const res = await clients.alice.delete(`/api/users/${bob.id}/block`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isBlocking: false, isFollowing: false });
    expect((await getAll<User>(clients.alice, '/api/blocks', 10)).map((u) => u.username)).toEqual(['carol']);
    // Following again is allowed now.
    expect(await follow(clients.alice, bob.id)).toMatchObject({ isFollowing: true });
    void alice;
  });

  it('errors: yourself is 400 on id, an unknown person 404, a visitor 401', async () => {
    const { alice, clients } = await seedTrio(ctx);
    for (const path of ['block', 'mute']) {
      for (const res of [
        await clients.alice.put(`/api/users/${alice.id}/${path}`, {}),
        await clients.alice.delete(`/api/users/${alice.id}/${path}`),
      ]) {
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'id' });
      }
      for (const res of [
        await clients.alice.put(`/api/users/999999/${path}`, {}),
        await clients.alice.delete(`/api/users/999999/${path}`),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      }
      const visitor = await clients.visitor.put(`/api/users/${alice.id}/${path}`, {});
      expect(visitor.statusCode).toBe(401);
      expect(visitor.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
    for (const url of ['/api/blocks', '/api/mutes', '/api/muted-words']) {
      const res = await clients.visitor.get(url);
      expect(res.statusCode, url).toBe(401);
    }
  });
});

describe('mutes', () => {
  const ctx = useTestApp();

  it("a muted person's posts and reposts leave the muter's timelines and notifications, silently", async () => {
    const { alice, bob, carol, clients } = await seedTrio(ctx);
    await follow(clients.alice, bob.id);
    await follow(clients.alice, carol.id);
    const fromBob = await createPost(clients.bob, 'bob here');
    await createPost(clients.carol, 'carol here');
    expect((await clients.carol.put(`/api/posts/${fromBob.id}/repost`)).statusCode).toBe(200);
    const mine = await createPost(clients.alice, 'alice here');
    await like(clients.bob, mine.id);
    expect((await clients.alice.get('/api/current')).json()).toMatchObject({ hasNotification: true });

    expect(await mute(clients.alice, bob.id)).toMatchObject({ isMuting: true, isFollowing: true });
    // The unread dot does not stay lit for them.
    expect((await clients.alice.get('/api/current')).json()).toMatchObject({ hasNotification: false });
    expect(await texts(clients.alice, '/api/timeline/following')).toEqual(['alice here', 'carol here']);
    expect(await texts(clients.alice, '/api/timeline/everyone')).toEqual(['alice here', 'carol here']);
    expect(await notificationsOf(clients.alice)).toEqual([]);
    // New likes from them tell nothing either.
    await clients.bob.delete(`/api/posts/${mine.id}/like`);
    await like(clients.bob, mine.id);
    expect((await clients.alice.get('/api/current')).json()).toMatchObject({ hasNotification: false });
    // Their own profile still shows their posts; Bob sees nothing different.
    expect(await texts(clients.alice, `/api/users/${bob.id}/posts`)).toEqual(['bob here']);
    expect((await clients.bob.get(`/api/users/${alice.id}`)).json()).toMatchObject({ isMuting: false });
    expect(await texts(clients.bob, '/api/timeline/everyone')).toContain('alice here');

    // Unmuted: everything is back, Following included.
    expect((await clients.alice.delete(`/api/users/${bob.id}/mute`)).json()).toMatchObject({ isMuting: false });
    // Carol's repost stays out: Alice follows Bob, so his post is its own first entry.
    expect(await texts(clients.alice, '/api/timeline/following')).toEqual(['alice here', 'carol here', 'bob here']);
  });

  it('a mute for a time lists its end and stops hiding once it has passed; the list pages', async () => {
    const { alice, bob, carol, clients } = await seedTrio(ctx);
    await createPost(clients.bob, 'bob here');
    await mute(clients.alice, bob.id, 3600);
    await mute(clients.alice, carol.id);
    const list = await getAll<MutedAccount>(clients.alice, '/api/mutes', 1);
    expect(list.map((u) => u.username)).toEqual(['carol', 'bob']);
    expect(list[0]!.mutedUntil).toBeNull();
    const until = Date.parse(list[1]!.mutedUntil!);
    expect(until - Date.now()).toBeGreaterThan(3_500_000);
    expect(until - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect(await texts(clients.alice, '/api/timeline/everyone')).toEqual([]);

    // The hour passes (moved back in the database rather than waited for).
    await ctx.db.db.execute(sql`update mutes set expires_at = now() - interval '1 second' where muted_id = ${bob.id}`);
    expect(await texts(clients.alice, '/api/timeline/everyone')).toEqual(['bob here']);
    expect((await getAll<MutedAccount>(clients.alice, '/api/mutes', 10)).map((u) => u.username)).toEqual(['carol']);
    expect((await clients.alice.get(`/api/users/${bob.id}`)).json()).toMatchObject({ isMuting: false });
    // The sweep removes it for good.
    await ctx.app.services.safety.expireMutes();
    const left = rowsOf<{ n: number }>(await ctx.db.db.execute(sql`select count(*)::int as n from mutes`));
    expect(left[0]!.n).toBe(1);
    void alice;
  });

  it('a duration out of range, not whole, or of the wrong type is 400 on durationSeconds; unknown fields are refused', async () => {
    const { bob, clients } = await seedTrio(ctx);
    for (const body of [
      { durationSeconds: 5 },
      { durationSeconds: 1.5 },
      { durationSeconds: '60' },
      { durationSeconds: 10 ** 9 },
    ]) {
      const res = await clients.alice.put(`/api/users/${bob.id}/mute`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'durationSeconds' });
    }
    const extra = await clients.alice.put(`/api/users/${bob.id}/mute`, { forever: true });
    expect(extra.statusCode).toBe(400);
    expect((await getPage<MutedAccount>(clients.alice, '/api/mutes')).items).toEqual([]);
  });

  it("muted words hide posts containing them as whole words, ignoring case, in every list but the author's own", async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    await follow(clients.alice, bob.id);
    await createPost(clients.bob, 'The Spoiler is here');
    await createPost(clients.bob, 'a spoilers-free post');
    await createPost(clients.bob, 'we love #Cats');
    await createPost(clients.bob, 'C++ or rust?');
    await createPost(clients.alice, 'my own spoiler');
    for (const phrase of ['spoiler', '#cats', 'c++']) {
      const res = await clients.alice.post('/api/muted-words', { phrase });
      expect(res.statusCode, res.body).toBe(201);
    }
    expect(await texts(clients.alice, '/api/timeline/following')).toEqual(['my own spoiler', 'a spoilers-free post']);
    expect(await texts(clients.alice, '/api/search/posts?q=spoiler')).toEqual(['my own spoiler']);
    // A mention containing a muted word tells nothing.
    await createPost(clients.bob, '@alice spoiler ahead');
    expect(await notificationsOf(clients.alice)).toEqual([]);

    const words = (await clients.alice.get('/api/muted-words')).json() as { items: MutedWord[] };
    expect(words.items.map((w) => w.phrase)).toEqual(['c++', '#cats', 'spoiler']);
    // The same word again answers the one there; removing one brings its posts back.
    const again = await clients.alice.post('/api/muted-words', { phrase: '  SPOILER ' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ id: words.items[2]!.id });
    const removed = await clients.alice.delete(`/api/muted-words/${words.items[2]!.id}`);
    expect(removed.statusCode).toBe(204);
    expect(await texts(clients.alice, '/api/timeline/following')).toContain('The Spoiler is here');
    // Someone else's id, or one gone, is 404.
    expect((await clients.bob.delete(`/api/muted-words/${words.items[0]!.id}`)).statusCode).toBe(404);
    expect((await clients.alice.delete(`/api/muted-words/${words.items[2]!.id}`)).statusCode).toBe(404);
    void alice;
  });

  it('a muted word must be 1–100 visible characters on one line; at most 100 of them', async () => {
    const { clients } = await seedTrio(ctx);
    for (const phrase of ['', '   ', 'x'.repeat(101), 'two\nlines', '\u200b', 5]) {
      const res = await clients.alice.post('/api/muted-words', { phrase });
      expect(res.statusCode, JSON.stringify(phrase)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'phrase' });
    }
    for (let i = 0; i < 100; i++) {
      expect((await clients.alice.post('/api/muted-words', { phrase: `word${i}` })).statusCode).toBe(201);
    }
    const over = await clients.alice.post('/api/muted-words', { phrase: 'one more' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'phrase' });
    expect(((await clients.alice.get('/api/muted-words')).json() as { items: unknown[] }).items).toHaveLength(100);
  });

  it('regex characters in a muted word are taken literally', async () => {
    const { clients } = await seedTrio(ctx);
    await createPost(clients.bob, 'price is $5.00 (really)');
    await createPost(clients.bob, 'price is $5x00');
    expect((await clients.alice.post('/api/muted-words', { phrase: '$5.00' })).statusCode).toBe(201);
    expect((await clients.alice.post('/api/muted-words', { phrase: '(really' })).statusCode).toBe(201);
    expect(await texts(clients.alice, '/api/timeline/everyone')).toEqual(['price is $5x00']);
    const notes: Notification[] = await notificationsOf(clients.alice);
    expect(notes).toEqual([]);
  });
});
