import { describe, expect, it } from 'vitest';
import { seedTrio, useTestApp } from '../helpers/app.ts';
import { createPost, getPost, like } from '../helpers/social.ts';

describe('likes', () => {
  const ctx = useTestApp();

  it('PUT like answers the updated post; liking twice is one like', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'like me');
    expect(await like(clients.bob, post.id)).toMatchObject({ id: post.id, likeCount: 1, likedByMe: true });
    expect(await like(clients.bob, post.id)).toMatchObject({ likeCount: 1, likedByMe: true });
    expect(await like(clients.carol, post.id)).toMatchObject({ likeCount: 2, likedByMe: true });
    expect(await getPost(clients.alice, post.id)).toMatchObject({ likeCount: 2, likedByMe: false });
    expect(await getPost(clients.visitor, post.id)).toMatchObject({ likeCount: 2, likedByMe: false });
  });

  it('DELETE like answers the updated post; unliking twice (or without a like) changes nothing', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'like me');
    await like(clients.bob, post.id);
    await like(clients.carol, post.id);
    for (let i = 0; i < 2; i++) {
      const res = await clients.bob.delete(`/api/posts/${post.id}/like`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ likeCount: 1, likedByMe: false });
    }
    const never = await clients.alice.delete(`/api/posts/${post.id}/like`);
    expect(never.json()).toMatchObject({ likeCount: 1, likedByMe: false });
  });

  it('you can like your own post (without notifying yourself)', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'me, myself');
    expect(await like(clients.alice, post.id)).toMatchObject({ likeCount: 1, likedByMe: true });
    const res = await clients.alice.get('/api/notifications');
    expect(res.json().items).toEqual([]);
  });

  it('visitors cannot like or unlike: 401 UNAUTHENTICATED', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'like me');
    for (const res of [
      await clients.visitor.put(`/api/posts/${post.id}/like`),
      await clients.visitor.delete(`/api/posts/${post.id}/like`),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
    expect((await getPost(clients.visitor, post.id)).likeCount).toBe(0);
  });

  it('liking or unliking an unknown post is 404 NOT_FOUND', async () => {
    const { clients } = await seedTrio(ctx);
    for (const res of [
      await clients.bob.put('/api/posts/31337/like'),
      await clients.bob.delete('/api/posts/31337/like'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('a deleted post takes its likes with it', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'short-lived');
    await like(clients.bob, post.id);
    expect((await clients.alice.delete(`/api/posts/${post.id}`)).statusCode).toBe(204);
    const res = await clients.bob.put(`/api/posts/${post.id}/like`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('concurrent likes of one post by many people are all counted', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'popular');
    await Promise.all([clients.alice, clients.bob, clients.carol].flatMap((c) => [like(c, post.id), like(c, post.id)]));
    expect((await getPost(clients.visitor, post.id)).likeCount).toBe(3);
  });
});
