import type { Notification } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { notifications, posts } from '../../src/db/schema.ts';
import { insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { createPost, follow, getAll, getPage, getPost, like, notificationsOf } from '../helpers/social.ts';

const summary = (n: Notification) => `${n.type}:${n.actor.username}:${n.post?.text ?? '-'}`;

describe('notifications', () => {
  const ctx = useTestApp();

  it('a like notifies the author once, with the actor and the post; unliking removes it', async () => {
    const { bob, clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'like me');
    await like(clients.bob, post.id);
    await like(clients.bob, post.id);
    const [note, ...rest] = await notificationsOf(clients.alice);
    expect(rest).toEqual([]);
    expect(note).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 'like',
      createdAt: expect.any(String),
      read: false,
      actor: { id: String(bob.id), name: 'Bob', username: 'bob', profileImage: null, domain: null },
      post: { ...post, likeCount: 1, likedByMe: false },
    });

    expect((await clients.bob.delete(`/api/posts/${post.id}/like`)).statusCode).toBe(200);
    expect(await notificationsOf(clients.alice)).toEqual([]);
    // Liking again is a new like, and a new notification.
    await like(clients.bob, post.id);
    expect((await notificationsOf(clients.alice)).map(summary)).toEqual(['like:bob:like me']);
  });

  it('a reply notifies the parent author with the reply as the post', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'question?');
    const reply = await createPost(clients.carol, 'answer!', post.id);
    const [note] = await notificationsOf(clients.alice);
    expect(note).toMatchObject({
      type: 'reply',
      actor: { username: 'carol' },
      post: { id: reply.id, parentId: post.id },
    });
  });

  it('a follow notifies the followed person with no post; unfollowing removes it', async () => {
    const { alice, clients } = await seedTrio(ctx);
    await follow(clients.bob, alice.id);
    await follow(clients.bob, alice.id);
    const notes = await notificationsOf(clients.alice);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ type: 'follow', actor: { username: 'bob' }, post: null });
    await clients.bob.delete(`/api/users/${alice.id}/follow`);
    expect(await notificationsOf(clients.alice)).toEqual([]);
  });

  it('@mentions notify each existing person once, ignoring case, never the author or unknown names', async () => {
    const { clients } = await seedTrio(ctx);
    const dave = await new TestClient(ctx).signInAs((await insertUser(ctx.db, { username: 'Dave_1' })).id);
    await createPost(clients.alice, 'hey @bob @BOB and @dave_1, also @alice, @nobody and bob@example.com (@carol)');
    expect((await notificationsOf(clients.bob)).map(summary)).toEqual([
      'mention:alice:hey @bob @BOB and @dave_1, also @alice, @nobody and bob@example.com (@carol)',
    ]);
    expect((await notificationsOf(clients.carol)).map((n) => n.type)).toEqual(['mention']);
    expect(await notificationsOf(clients.alice)).toEqual([]);
    expect((await notificationsOf(dave)).map((n) => n.type)).toEqual(['mention']);
  });

  it('a reply that also mentions the parent author notifies them once, as a reply', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'thoughts?');
    await createPost(clients.bob, '@alice I agree, and so does @carol', post.id);
    expect((await notificationsOf(clients.alice)).map((n) => n.type)).toEqual(['reply']);
    expect((await notificationsOf(clients.carol)).map((n) => n.type)).toEqual(['mention']);
  });

  it('never notifies you of your own actions', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'talking to myself, @alice');
    await like(clients.alice, post.id);
    await createPost(clients.alice, 'and replying to myself', post.id);
    expect(await notificationsOf(clients.alice)).toEqual([]);
  });

  it('deleting a post removes the notifications about it', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'hi');
    const reply = await createPost(clients.bob, 'hello @carol', post.id);
    await like(clients.carol, reply.id);
    expect((await notificationsOf(clients.alice)).map((n) => n.type)).toEqual(['reply']);
    expect((await notificationsOf(clients.bob)).map((n) => n.type)).toEqual(['like']);
    expect((await notificationsOf(clients.carol)).map((n) => n.type)).toEqual(['mention']);
    await clients.bob.delete(`/api/posts/${reply.id}`);
    expect(await notificationsOf(clients.alice)).toEqual([]);
    expect(await notificationsOf(clients.bob)).toEqual([]);
    expect(await notificationsOf(clients.carol)).toEqual([]);
  });

  it('lists newest first, paginated, with likedByMe of the recipient on the post', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'first');
    await like(clients.alice, post.id);
    await like(clients.bob, post.id);
    await follow(clients.bob, alice.id);
    await createPost(clients.carol, 'reply', post.id);
    await like(clients.carol, post.id);
    await follow(clients.carol, alice.id);

    const all = await getAll<Notification>(clients.alice, '/api/notifications', 2);
    expect(all.map(summary)).toEqual([
      'follow:carol:-',
      'like:carol:first',
      'reply:carol:reply',
      'follow:bob:-',
      'like:bob:first',
    ]);
    expect(all[1]!.post).toMatchObject({ likedByMe: true, likeCount: 3, replyCount: 1 });
    expect(new Set(all.map((n) => n.id)).size).toBe(5);
  });

  it('visitors get 401 UNAUTHENTICATED; a malformed cursor is 400 on the field cursor', async () => {
    const { clients } = await seedTrio(ctx);
    for (const res of [
      await clients.visitor.get('/api/notifications'),
      await clients.visitor.get('/api/notifications/unread'),
      await clients.visitor.post('/api/notifications/read'),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
    const bad = await clients.alice.get('/api/notifications?cursor=!!');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'cursor' });
  });

  it('reading the list changes nothing; POST /api/notifications/read marks everything read', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'hi');
    await like(clients.bob, post.id);
    await follow(clients.carol, alice.id);

    await getPage(clients.alice, '/api/notifications');
    expect((await notificationsOf(clients.alice)).map((n) => n.read)).toEqual([false, false]);

    const res = await clients.alice.post('/api/notifications/read');
    expect(res.statusCode).toBe(204);
    expect((await notificationsOf(clients.alice)).map((n) => n.read)).toEqual([true, true]);

    await like(clients.carol, post.id);
    expect((await notificationsOf(clients.alice)).map((n) => n.read)).toEqual([false, true, true]);
    expect((await getPost(clients.alice, post.id)).likeCount).toBe(2);
  });

  it('hasNotification on GET /api/current is true while unread notifications exist', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const probe = await clients.alice.get('/api/current');
    expect(probe.statusCode).toBe(200);
    expect(probe.json()).toMatchObject({ hasNotification: false });

    await follow(clients.bob, alice.id);
    expect((await clients.alice.get('/api/current')).json()).toMatchObject({ hasNotification: true });
    await clients.alice.post('/api/notifications/read');
    expect((await clients.alice.get('/api/current')).json()).toMatchObject({ hasNotification: false });
    await clients.carol.put(`/api/users/${alice.id}/follow`);
    expect((await clients.alice.get('/api/current')).json()).toMatchObject({ hasNotification: true });
    // Unfollowing removes the only unread notification: the dot goes away.
    await clients.carol.delete(`/api/users/${alice.id}/follow`);
    expect((await clients.alice.get('/api/current')).json()).toMatchObject({ hasNotification: false });
  });

  it('GET /api/notifications/unread counts the unread ones, up to 100', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const unread = async () => {
      const res = await clients.alice.get('/api/notifications/unread');
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toMatch(/^private,.*no-store/);
      return res.json().count as number;
    };
    expect(await unread()).toBe(0);
    const post = await createPost(clients.alice, 'count me');
    await like(clients.bob, post.id);
    await follow(clients.carol, alice.id);
    expect(await unread()).toBe(2);
    await clients.alice.post('/api/notifications/read');
    expect(await unread()).toBe(0);

    // Past the cap the count stops at 100 (the title says "(99+)"); counting more would be wasted work.
    const liked = await ctx.db.db
      .insert(posts)
      .values(Array.from({ length: 105 }, (_, i) => ({ authorId: alice.id, text: `post ${i}` })))
      .returning({ id: posts.id });
    await ctx.db.db
      .insert(notifications)
      .values(liked.map(({ id }) => ({ userId: alice.id, actorId: bob.id, type: 'like', postId: id })));
    expect(await unread()).toBe(100);
  });
});
