/**
 * Locked accounts ("Approve followers"): following one sends a request the owner approves or
 * rejects; approving makes the follow as any follow (counts, the follower's Following timeline);
 * turning the setting off approves whatever waits. Every refusal by its code.
 */
import type { CurrentUser, Notification, Post, User } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { createPost, follow, getPage, notificationsOf, type Page, rowsOf } from '../helpers/social.ts';

describe('follow requests', () => {
  const ctx = useTestApp();

  /** alice, bob, carol, with bob approving followers. */
  async function lockedBob() {
    const trio = await seedTrio(ctx);
    const res = await trio.clients.bob.patch('/api/edit', { locked: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CurrentUser>().locked).toBe(true);
    return trio;
  }

  const requestsOf = async (client: TestClient) => (await getPage<User>(client, '/api/follow-requests')).items;
  const followingTexts = async (client: TestClient) =>
    (await getPage<Post>(client, '/api/timeline/following')).items.map((p) => p.text);
  const requestRows = async () =>
    rowsOf<{ requester_id: string; target_id: string }>(
      await ctx.db.db.execute('select requester_id::text, target_id::text from follow_requests order by 1, 2'),
    );

  it('following a locked account asks: followRequested, no follow, no counts, a follow_request notification', async () => {
    const { alice, bob, clients } = await lockedBob();
    await createPost(clients.bob, 'for my followers');
    for (let i = 0; i < 2; i++) {
      const answer = await follow(clients.alice, bob.id);
      expect(answer).toMatchObject({ locked: true, isFollowing: false, followRequested: true, followersCount: 0 });
    }
    expect(await requestRows()).toEqual([{ requester_id: String(alice.id), target_id: String(bob.id) }]);
    // Asking twice is one request and one notification.
    const told = await notificationsOf(clients.bob);
    expect(told.map((n) => [n.type, n.actor.username, n.post])).toEqual([['follow_request', 'alice', null]]);
    expect(await followingTexts(clients.alice)).toEqual([]);
    // Others see the account locked, and no request of theirs.
    expect((await clients.carol.get(`/api/users/${bob.id}`)).json()).toMatchObject({
      locked: true,
      followRequested: false,
    });
    expect((await clients.visitor.get(`/api/users/${bob.id}`)).json()).toMatchObject({
      locked: true,
      followRequested: false,
    });
    const [listed] = await requestsOf(clients.bob);
    expect(listed).toMatchObject({ id: String(alice.id), username: 'alice', isFollowing: false });
  });

  it('approving makes the follow with its counts and brings the posts into the follower’s Following; the request and its notification go', async () => {
    const { alice, bob, clients } = await lockedBob();
    await createPost(clients.bob, 'for my followers');
    await follow(clients.alice, bob.id);
    const res = await clients.bob.post(`/api/follow-requests/${alice.id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    // The answer is the requester as the owner sees them.
    expect(res.json<User>()).toMatchObject({ id: String(alice.id), followingCount: 1 });
    expect((await clients.alice.get(`/api/users/${bob.id}`)).json()).toMatchObject({
      isFollowing: true,
      followRequested: false,
      followersCount: 1,
    });
    expect(await followingTexts(clients.alice)).toEqual(['for my followers']);
    expect(await requestRows()).toEqual([]);
    expect(await requestsOf(clients.bob)).toEqual([]);
    // As Mastodon: the request's notification goes, and nobody is told of the approval.
    expect(await notificationsOf(clients.bob)).toEqual([]);
    expect(await notificationsOf(clients.alice)).toEqual([]);
    // Following again is the follow that is there.
    expect(await follow(clients.alice, bob.id)).toMatchObject({ isFollowing: true, followersCount: 1 });
    expect(await requestRows()).toEqual([]);
  });

  it('rejecting removes the request and its notification; the requester may ask again', async () => {
    const { alice, bob, clients } = await lockedBob();
    await follow(clients.alice, bob.id);
    const res = await clients.bob.post(`/api/follow-requests/${alice.id}/reject`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<User>()).toMatchObject({ id: String(alice.id), isFollowing: false });
    expect(await requestRows()).toEqual([]);
    expect(await notificationsOf(clients.bob)).toEqual([]);
    expect((await clients.alice.get(`/api/users/${bob.id}`)).json()).toMatchObject({
      isFollowing: false,
      followRequested: false,
      followersCount: 0,
    });
    expect(await follow(clients.alice, bob.id)).toMatchObject({ followRequested: true });
  });

  it('the requester withdraws with an unfollow: the request and its notification go', async () => {
    const { bob, clients } = await lockedBob();
    await follow(clients.alice, bob.id);
    const res = await clients.alice.delete(`/api/users/${bob.id}/follow`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ isFollowing: false, followRequested: false, followersCount: 0 });
    expect(await requestRows()).toEqual([]);
    expect(await notificationsOf(clients.bob)).toEqual([]);
  });

  it('approving or rejecting when no request waits answers 404 NOT_FOUND, and changes nothing', async () => {
    const { alice, bob, carol, clients } = await lockedBob();
    await follow(clients.alice, bob.id);
    const refused = [
      // Someone who never asked.
      await clients.bob.post(`/api/follow-requests/${carol.id}/approve`),
      await clients.bob.post(`/api/follow-requests/${carol.id}/reject`),
      // Someone else's request: alice asked bob, not carol.
      await clients.carol.post(`/api/follow-requests/${alice.id}/approve`),
      await clients.carol.post(`/api/follow-requests/${alice.id}/reject`),
      // Nobody with that id.
      await clients.bob.post('/api/follow-requests/999999/approve'),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    // Approved once, then again: the second finds nothing waiting.
    expect((await clients.bob.post(`/api/follow-requests/${alice.id}/approve`)).statusCode).toBe(200);
    const again = await clients.bob.post(`/api/follow-requests/${alice.id}/approve`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await clients.bob.get(`/api/users/${bob.id}`)).json()).toMatchObject({ followersCount: 1 });
    // What is not an id names nobody, as everywhere in the API.
    const bad = await clients.bob.post('/api/follow-requests/not-an-id/approve');
    expect(bad.statusCode).toBe(404);
    expect(bad.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('approving after the requester deleted their account answers 404; their request went with them', async () => {
    const { alice, bob, clients } = await lockedBob();
    await follow(clients.alice, bob.id);
    await ctx.db.db.execute(`delete from users where id = ${alice.id}`);
    const res = await clients.bob.post(`/api/follow-requests/${alice.id}/approve`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(await requestsOf(clients.bob)).toEqual([]);
    expect((await clients.bob.get(`/api/users/${bob.id}`)).json()).toMatchObject({ followersCount: 0 });
  });

  it('following an account that does not approve followers simply follows: no request', async () => {
    const { bob, clients } = await seedTrio(ctx);
    expect(await follow(clients.alice, bob.id)).toMatchObject({
      locked: false,
      isFollowing: true,
      followRequested: false,
      followersCount: 1,
    });
    expect(await requestRows()).toEqual([]);
    expect((await notificationsOf(clients.bob)).map((n) => n.type)).toEqual(['follow']);
  });

  it('asking to follow oneself is refused (400 CANNOT_FOLLOW_SELF), locked or not', async () => {
    const { bob, clients } = await lockedBob();
    const res = await clients.bob.put(`/api/users/${bob.id}/follow`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'CANNOT_FOLLOW_SELF' });
    expect(await requestRows()).toEqual([]);
  });

  it('a block removes waiting requests both ways, and the blocked person cannot ask (403)', async () => {
    const { alice, bob, carol, clients } = await lockedBob();
    await clients.alice.patch('/api/edit', { locked: true });
    await follow(clients.alice, bob.id);
    await follow(clients.bob, alice.id);
    await follow(clients.carol, bob.id);
    expect((await requestRows()).length).toBe(3);
    expect((await clients.bob.put(`/api/users/${alice.id}/block`)).statusCode).toBe(200);
    expect(await requestRows()).toEqual([{ requester_id: String(carol.id), target_id: String(bob.id) }]);
    expect((await notificationsOf(clients.alice)).filter((n) => n.type === 'follow_request')).toEqual([]);
    for (const res of [
      await clients.alice.put(`/api/users/${bob.id}/follow`),
      await clients.bob.put(`/api/users/${alice.id}/follow`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
    expect((await requestRows()).length).toBe(1);
    // A request from the blocked person cannot be approved either: none waits.
    const approve = await clients.bob.post(`/api/follow-requests/${alice.id}/approve`);
    expect(approve.statusCode).toBe(404);
  });

  it('turning "Approve followers" off approves every waiting request in the same change, with the counts', async () => {
    const { alice, bob, carol, clients } = await lockedBob();
    const dave = await insertUser(ctx.db, { username: 'dave' });
    const daveClient = await new TestClient(ctx).signInAs(dave.id);
    await createPost(clients.bob, 'now public to followers');
    await follow(clients.alice, bob.id);
    await follow(clients.carol, bob.id);
    await follow(daveClient, bob.id);
    // dave changed his mind before bob decided.
    await daveClient.delete(`/api/users/${bob.id}/follow`);
    const res = await clients.bob.patch('/api/edit', { locked: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CurrentUser>()).toMatchObject({ locked: false, followersCount: 2 });
    expect(await requestRows()).toEqual([]);
    for (const client of [clients.alice, clients.carol]) {
      expect((await client.get(`/api/users/${bob.id}`)).json()).toMatchObject({
        isFollowing: true,
        followRequested: false,
        locked: false,
      });
      expect(await followingTexts(client)).toEqual(['now public to followers']);
      expect((await client.get('/api/current')).json()).toMatchObject({ followingCount: 1 });
    }
    expect((await daveClient.get(`/api/users/${bob.id}`)).json()).toMatchObject({ isFollowing: false });
    expect((await notificationsOf(clients.bob)).filter((n) => n.type === 'follow_request')).toEqual([]);
    // From now on a follow is a follow.
    expect(await follow(daveClient, bob.id)).toMatchObject({ isFollowing: true, followersCount: 3 });
    const followers = (await getPage<User>(clients.bob, `/api/users/${bob.id}/followers`)).items.map((u) => u.id);
    expect(followers.sort()).toEqual([alice.id, carol.id, dave.id].map(String).sort());
  });

  it('follows racing the switch off: all of them end as follows, nothing waits on the unlocked account, no deadlock', async () => {
    const { bob, clients } = await lockedBob();
    const people = await Promise.all(
      Array.from({ length: 8 }, (_, i) => insertUser(ctx.db, { username: `racer${i}` })),
    );
    const racers = await Promise.all(people.map((p) => new TestClient(ctx).signInAs(p.id)));
    // Half ask before the switch; the rest race it (on PostgreSQL these run side by side).
    for (const racer of racers.slice(0, 4)) await follow(racer, bob.id);
    const answers = await Promise.all([
      ...racers.slice(4).map((racer) => racer.put(`/api/users/${bob.id}/follow`)),
      clients.bob.patch('/api/edit', { locked: false }),
      ...racers.slice(4).map((racer) => racer.put(`/api/users/${bob.id}/follow`)),
    ]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect(await requestRows()).toEqual([]);
    expect((await clients.bob.get(`/api/users/${bob.id}`)).json()).toMatchObject({ locked: false, followersCount: 8 });
  });

  it('"Approve followers" takes only a boolean', async () => {
    const { clients } = await seedTrio(ctx);
    for (const locked of ['yes', 1, null]) {
      const res = await clients.alice.patch('/api/edit', { locked });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT' });
    }
    expect((await clients.alice.get('/api/current')).json()).toMatchObject({ locked: false });
  });

  it('the requests page is newest first, paged, members only, and leaves out a suspended requester', async () => {
    const { bob, clients } = await lockedBob();
    const people = await Promise.all(['p1', 'p2', 'p3'].map((username) => insertUser(ctx.db, { username })));
    for (const person of people) {
      await follow(await new TestClient(ctx).signInAs(person.id), bob.id);
    }
    const first = await getPage<User>(clients.bob, '/api/follow-requests', null, 2);
    expect(first.items.map((u) => u.username)).toEqual(['p3', 'p2']);
    const second = await getPage<User>(clients.bob, '/api/follow-requests', first.nextCursor, 2);
    expect(second.items.map((u) => u.username)).toEqual(['p1']);
    expect(second.nextCursor).toBeNull();

    await ctx.db.db.execute(`update users set suspended_at = now() where id = ${people[1]!.id}`);
    ctx.app.services.events.resync();
    expect((await requestsOf(clients.bob)).map((u) => u.username)).toEqual(['p3', 'p1']);
    const suspended = await clients.bob.post(`/api/follow-requests/${people[1]!.id}/approve`);
    expect(suspended.statusCode).toBe(404);

    const visitor = await clients.visitor.get('/api/follow-requests');
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    // Someone else's list is their own (empty): nobody asked alice.
    expect(await requestsOf(clients.alice)).toEqual([]);
  });

  it('the follow_request notification is listed with the requester and no post', async () => {
    const { bob, clients } = await lockedBob();
    await follow(clients.carol, bob.id);
    const res = await clients.bob.get('/api/notifications');
    const [n] = (res.json() as Page<Notification>).items;
    expect(n).toMatchObject({ type: 'follow_request', read: false, post: null, actor: { username: 'carol' } });
    expect((await clients.bob.get('/api/notifications/unread')).json()).toEqual({ count: 1 });
  });
});
