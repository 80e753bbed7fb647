import type { User } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { follow, getAll, getPage } from '../helpers/social.ts';

describe('follows', () => {
  const ctx = useTestApp();

  it('PUT follow answers the followed person with counts and isFollowing; following twice is one follow', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const first = await follow(clients.alice, bob.id);
    expect(first).toEqual({
      id: String(bob.id),
      name: 'Bob',
      username: 'bob',
      profileImage: null,
      domain: null,
      bio: '',
      coverImage: null,
      createdAt: expect.any(String),
      followersCount: 1,
      followingCount: 0,
      postsCount: 0,
      isFollowing: true,
      locked: false,
      followRequested: false,
      isBlocking: false,
      isMuting: false,
      suspended: false,
    });
    expect(await follow(clients.alice, bob.id)).toMatchObject({ followersCount: 1, isFollowing: true });
    // The follower's own counter moved too.
    const back = await follow(clients.bob, alice.id);
    expect(back).toMatchObject({ followersCount: 1, followingCount: 1, isFollowing: true });
  });

  it('DELETE follow answers the person; unfollowing twice (or a stranger) changes nothing', async () => {
    const { bob, carol, clients } = await seedTrio(ctx);
    await follow(clients.alice, bob.id);
    await follow(clients.carol, bob.id);
    for (let i = 0; i < 2; i++) {
      const res = await clients.alice.delete(`/api/users/${bob.id}/follow`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ followersCount: 1, isFollowing: false });
    }
    const stranger = await clients.alice.delete(`/api/users/${carol.id}/follow`);
    expect(stranger.json()).toMatchObject({ followersCount: 0, followingCount: 1, isFollowing: false });
  });

  it('following yourself is refused with 400 CANNOT_FOLLOW_SELF (unfollowing too)', async () => {
    const { alice, clients } = await seedTrio(ctx);
    for (const res of [
      await clients.alice.put(`/api/users/${alice.id}/follow`),
      await clients.alice.delete(`/api/users/${alice.id}/follow`),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'CANNOT_FOLLOW_SELF' });
    }
  });

  it('visitors cannot follow or unfollow: 401 UNAUTHENTICATED', async () => {
    const { bob, clients } = await seedTrio(ctx);
    for (const res of [
      await clients.visitor.put(`/api/users/${bob.id}/follow`),
      await clients.visitor.delete(`/api/users/${bob.id}/follow`),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });

  it('following an unknown person is 404 NOT_FOUND', async () => {
    const { clients } = await seedTrio(ctx);
    for (const res of [
      await clients.alice.put('/api/users/777777/follow'),
      await clients.alice.delete('/api/users/777777/follow'),
      await clients.alice.put('/api/users/99999999999999999/follow'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('followers and following lists: newest follow first, paginated, isFollowing as the viewer sees it', async () => {
    const { alice, bob, carol, clients } = await seedTrio(ctx);
    const fans = [];
    for (let i = 0; i < 5; i++) {
      const fan = await insertUser(ctx.db, { username: `fan${i}` });
      await follow(await new TestClient(ctx).signInAs(fan.id), alice.id);
      fans.push(fan);
    }
    await follow(clients.bob, alice.id);
    await follow(clients.carol, fans[2]!.id);

    const followers = await getAll<User>(clients.carol, `/api/users/${alice.id}/followers`, 2);
    expect(followers.map((u) => u.username)).toEqual(['bob', 'fan4', 'fan3', 'fan2', 'fan1', 'fan0']);
    // carol follows fan2 only
    expect(followers.filter((u) => u.isFollowing).map((u) => u.username)).toEqual(['fan2']);
    expect(followers.find((u) => u.username === 'bob')).toMatchObject({ followingCount: 1 });

    await follow(clients.bob, carol.id);
    const following = await getAll<User>(clients.visitor, `/api/users/${bob.id}/following`, 1);
    expect(following.map((u) => u.username)).toEqual(['carol', 'alice']);
    expect(following.every((u) => !u.isFollowing)).toBe(true);
    expect(following[1]).toMatchObject({ followersCount: 6 });
  });

  it('lists of an unknown person are 404 NOT_FOUND; nobody yet is an empty page', async () => {
    const { carol, clients } = await seedTrio(ctx);
    for (const path of ['followers', 'following']) {
      const res = await clients.visitor.get(`/api/users/555555/${path}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect(await getPage(clients.visitor, `/api/users/${carol.id}/${path}`)).toEqual({ items: [], nextCursor: null });
    }
  });

  it('two people following each other at the same moment both succeed (no deadlock)', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    for (let round = 0; round < 5; round++) {
      const results = await Promise.all([
        clients.alice.put(`/api/users/${bob.id}/follow`),
        clients.bob.put(`/api/users/${alice.id}/follow`),
      ]);
      expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
      const undo = await Promise.all([
        clients.alice.delete(`/api/users/${bob.id}/follow`),
        clients.bob.delete(`/api/users/${alice.id}/follow`),
      ]);
      expect(undo.map((r) => r.statusCode)).toEqual([200, 200]);
    }
    expect((await follow(clients.alice, bob.id)).followersCount).toBe(1);
  });

  it('malformed cursors are 400 INVALID_INPUT on the field cursor', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const res = await clients.visitor.get(`/api/users/${alice.id}/followers?cursor=nope`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'cursor' });
  });
});
