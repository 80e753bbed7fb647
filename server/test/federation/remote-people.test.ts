import { Accept, Follow, Reject } from '@fedify/vocab';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRows } from '../../src/db/client.ts';
import { followRequests, follows, remoteActors, users } from '../../src/db/schema.ts';
import { authorizeApp, TestClient } from '../helpers/app.ts';
import { ORIGIN, Peer, useFederatedApp, withCarol } from './peer.ts';

/**
 * Finding and following people elsewhere (modules/federation: lookup.ts, outgoing.ts, the Accept and
 * Reject listeners), and a member's answers to a remote person's request. The other server is a Peer
 * (peer.ts): real HTTP on 127.0.0.1, its activities signed with its person's key; what Pipit sends it
 * is checked against the member's key. The queue is run by hand.
 */

describe('people elsewhere', () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await Peer.start();
  });
  afterAll(() => peer.close());

  const fed = useFederatedApp();
  const { ctx, federation } = fed;
  const { member } = withCarol(fed, () => peer);
  const handle = () => `@carol@${peer.host}`;
  /** The people search, asking the person's server (resolve) unless told not to. */
  const search = (client: TestClient, q: string, resolve = true) =>
    client.get(`/api/search/people?q=${encodeURIComponent(q)}${resolve ? '&resolve=true' : ''}`);

  /** Finds carol through search as `client`: her user id. */
  async function findCarol(client: TestClient): Promise<string> {
    const res = await search(client, handle());
    expect(res.statusCode).toBe(200);
    const [carol] = res.json().items;
    expect(carol).toBeDefined();
    return carol.id;
  }

  describe('search by handle', () => {
    it('finds @carol@host through WebFinger and her actor, and keeps her (bio reduced to text)', async () => {
      const { client } = await member('alice');
      const before = peer.fetched.get('/users/carol') ?? 0;
      const res = await search(client, handle());
      expect(res.statusCode).toBe(200);
      const items = res.json().items;
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        username: 'carol',
        domain: peer.host,
        name: 'Carol Elsewhere',
        // Her avatar, copied through the media pipeline: served from here (400×400 JPEG), not from her server.
        profileImage: expect.stringMatching(/^\/media\/[0-9a-f]{64}\.jpg$/),
        isFollowing: false,
        followRequested: false,
      });
      // Markup, handlers and scripts gone; the link's address kept with its words.
      expect(items[0].bio).toBe('Hi there\n\nsee my page https://carol.example/about & more');
      const [row] = await ctx.db.db.select().from(users).where(eq(users.username, 'carol'));
      expect(row).toMatchObject({ domain: peer.host, email: null, passwordHash: null });
      const [actor] = await ctx.db.db
        .select()
        .from(remoteActors)
        .where(eq(remoteActors.userId, row?.id ?? 0));
      expect(actor).toMatchObject({
        uri: peer.actorId.href,
        inbox: `${peer.origin}/users/carol/inbox`,
        sharedInbox: `${peer.origin}/inbox`,
        url: `${peer.origin}/@carol`,
      });
      expect(actor?.publicKeys).toEqual([expect.objectContaining({ id: peer.keyId.href })]);
      expect(peer.fetched.get('/users/carol')).toBe(before + 1);
      expect(peer.fetched.get('/avatars/carol.png')).toBe(1);
      expect(actor?.avatarSource).toBe(`${peer.origin}/avatars/carol.png`);
      expect((await ctx.app.inject({ url: items[0].profileImage })).statusCode).toBe(200);

      // Asked again: answered from what was kept, nothing fetched.
      expect((await search(client, `carol@${peer.host}`)).json().items[0].id).toBe(items[0].id);
      expect(peer.fetched.get('/users/carol')).toBe(before + 1);

      // Her profile, on the web API and the Mastodon API (acct with her server).
      const profile = await client.get(`/api/users/${items[0].id}`);
      expect(profile.json()).toMatchObject({ username: 'carol', domain: peer.host });
      const { token } = await authorizeApp(ctx.app, Number((await client.get('/api/current')).json().id));
      const account = await ctx.app.inject({
        url: `/api/v1/accounts/${items[0].id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(account.json()).toMatchObject({ username: 'carol', acct: `carol@${peer.host}` });
      const found = await ctx.app.inject({
        url: `/api/v2/search?q=${encodeURIComponent(handle())}&resolve=true&type=accounts`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(found.json().accounts).toEqual([expect.objectContaining({ id: items[0].id, acct: `carol@${peer.host}` })]);
      // Resolving is for the signed in, on the Mastodon API too.
      const anonymous = await ctx.app.inject({ url: `/api/v2/search?q=${encodeURIComponent(handle())}&resolve=true` });
      expect(anonymous.statusCode).toBe(401);
    });

    it('finds nobody for an unknown handle or a server that is not there; only members look up', async () => {
      const { client } = await member('alice');
      expect((await search(client, `@nobody@${peer.host}`)).json().items).toEqual([]);
      expect((await search(client, '@carol@127.0.0.1:1')).json().items).toEqual([]);
      const fetches = peer.fetched.get('/.well-known/webfinger') ?? 0;
      // Suggestions while typing (no resolve) ask no other server.
      expect((await search(client, handle(), false)).json().items).toEqual([]);
      const visitor = new TestClient(ctx).withCsrf();
      expect((await search(visitor, handle(), false)).json().items).toEqual([]);
      const refused = await search(visitor, handle());
      expect(refused.statusCode).toBe(401);
      expect(refused.json().code).toBe('UNAUTHENTICATED');
      expect(peer.fetched.get('/.well-known/webfinger') ?? 0).toBe(fetches);
      expect(await ctx.db.db.select().from(remoteActors)).toEqual([]);
      // Once a member found her, everyone finds her (as kept).
      await findCarol(client);
      expect((await search(visitor, handle(), false)).json().items).toHaveLength(1);
      expect((await search(client, handle(), false)).json().items).toHaveLength(1);
    });

    it('refuses a resolve that is neither true nor false', async () => {
      const { client } = await member('alice');
      const res = await client.get(`/api/search/people?q=${encodeURIComponent(handle())}&resolve=yes`);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('INVALID_INPUT');
    });

    it("a member's own handle on this server is a search of members", async () => {
      const { client } = await member('alice');
      const res = await search(client, '@alice@pipit.test');
      expect(res.json().items.map((u: { username: string }) => u.username)).toEqual(['alice']);
    });
  });

  describe('following someone elsewhere', () => {
    it('sends a signed Follow through the queue; her Accept makes it a follow', async () => {
      const { user: alice, client } = await member('alice');
      const carolId = await findCarol(client);
      const res = await client.put(`/api/users/${carolId}/follow`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ isFollowing: false, followRequested: true });
      expect(await ctx.db.db.select().from(followRequests)).toHaveLength(1);
      // Nobody here is notified of a request to someone elsewhere.
      const [{ n } = { n: -1 }] = await executeRows<{ n: number }>(
        ctx.db.db,
        sql`select count(*)::int as n from notifications`,
      );
      expect(n).toBe(0);

      const arrived = peer.nextDelivery();
      await federation().runQueue();
      const follow = await arrived;
      expect(follow.url).toBe('/users/carol/inbox'); // hers (notes go to her server's shared inbox)
      expect(follow.json).toMatchObject({
        type: 'Follow',
        actor: `${ORIGIN}/users/${alice.id}`,
        object: peer.actorId.href,
      });
      expect(await peer.signerOf(ctx.app, follow)).toBe(`${ORIGIN}/users/${alice.id}`);

      const accept = new Accept({
        id: new URL('/activities/accept-1', peer.origin),
        actor: peer.actorId,
        object: await Follow.fromJsonLd(follow.json),
      });
      expect(
        (await peer.deliver(ctx.app, ORIGIN, `/users/${alice.id}/inbox`, await accept.toJsonLd())).statusCode,
      ).toBe(202);
      await federation().runQueue();
      expect(await ctx.db.db.select().from(followRequests)).toEqual([]);
      expect(await ctx.db.db.select().from(follows)).toEqual([
        expect.objectContaining({ followerId: alice.id, followeeId: Number(carolId) }),
      ]);
      expect((await client.get(`/api/users/${carolId}`)).json()).toMatchObject({
        isFollowing: true,
        followRequested: false,
        followersCount: 1,
      });

      // Unfollowing sends the Undo of that very Follow.
      const undone = peer.nextDelivery();
      expect((await client.delete(`/api/users/${carolId}/follow`)).json()).toMatchObject({ isFollowing: false });
      await federation().runQueue();
      const undo = await undone;
      expect(undo.json).toMatchObject({
        type: 'Undo',
        actor: `${ORIGIN}/users/${alice.id}`,
        object: { type: 'Follow', id: follow.json.id, object: peer.actorId.href },
      });
      expect(await peer.signerOf(ctx.app, undo)).toBe(`${ORIGIN}/users/${alice.id}`);
      expect(await ctx.db.db.select().from(follows)).toEqual([]);
    });

    it('her Reject removes the request', async () => {
      const { user: alice, client } = await member('alice');
      const carolId = await findCarol(client);
      await client.put(`/api/users/${carolId}/follow`);
      const arrived = peer.nextDelivery();
      await federation().runQueue();
      const follow = await arrived;
      const reject = new Reject({
        id: new URL('/activities/reject-1', peer.origin),
        actor: peer.actorId,
        object: new URL(follow.json.id),
      });
      expect((await peer.deliver(ctx.app, ORIGIN, '/inbox', await reject.toJsonLd())).statusCode).toBe(202);
      await federation().runQueue();
      expect(await ctx.db.db.select().from(followRequests)).toEqual([]);
      expect((await client.get(`/api/users/${carolId}`)).json()).toMatchObject({
        isFollowing: false,
        followRequested: false,
      });
      void alice;
    });

    it('an Accept unsigned, or of a Follow to someone else, changes nothing', async () => {
      const { user: alice, client } = await member('alice');
      const { user: dave } = await member('dave');
      const carolId = await findCarol(client);
      await client.put(`/api/users/${carolId}/follow`);
      const arrived = peer.nextDelivery();
      await federation().runQueue();
      const follow = await arrived;
      const acceptOf = (object: unknown, id: string) =>
        new Accept({
          id: new URL(`/activities/${id}`, peer.origin),
          actor: peer.actorId,
          object: object as URL,
        }).toJsonLd();

      const unsigned = await peer.deliver(ctx.app, ORIGIN, '/inbox', await acceptOf(new URL(follow.json.id), 'a1'), {
        unsigned: true,
      });
      expect(unsigned.statusCode).toBe(401);
      // Carol "accepting" a follow of dave's by a member of hers she was never asked for: no follow appears.
      const forged = new URL(`${ORIGIN}/users/${dave.id}#follows/${alice.id}/00000000-0000-4000-8000-000000000000`);
      expect((await peer.deliver(ctx.app, ORIGIN, '/inbox', await acceptOf(forged, 'a2'))).statusCode).toBe(202);
      // An Accept of something that is not one of ours.
      expect(
        (await peer.deliver(ctx.app, ORIGIN, '/inbox', await acceptOf(new URL('https://elsewhere.test/x'), 'a3')))
          .statusCode,
      ).toBe(202);
      await federation().runQueue();
      expect(await ctx.db.db.select().from(follows)).toEqual([]);
      expect(await ctx.db.db.select().from(followRequests)).toHaveLength(1);
    });
  });

  describe("a member's answer to someone elsewhere", () => {
    async function requestFrom(memberId: number) {
      await ctx.db.db.update(users).set({ locked: true }).where(eq(users.id, memberId));
      const follow = await new Follow({
        id: new URL(`/activities/follow-${memberId}`, peer.origin),
        actor: peer.actorId,
        object: new URL(`/users/${memberId}`, ORIGIN),
      }).toJsonLd();
      expect((await peer.deliver(ctx.app, ORIGIN, `/users/${memberId}/inbox`, follow)).statusCode).toBe(202);
      await federation().runQueue();
      const [carol] = await ctx.db.db.select({ id: users.id }).from(users).where(eq(users.username, 'carol'));
      return carol?.id as number;
    }

    it('approving sends an Accept of her Follow', async () => {
      const { user: alice, client } = await member('alice');
      const carolId = await requestFrom(alice.id);
      const arrived = peer.nextDelivery();
      expect((await client.post(`/api/follow-requests/${carolId}/approve`)).statusCode).toBe(200);
      await federation().runQueue();
      const accept = await arrived;
      expect(accept.json).toMatchObject({
        type: 'Accept',
        actor: `${ORIGIN}/users/${alice.id}`,
        object: { type: 'Follow', id: `${peer.origin}/activities/follow-${alice.id}`, actor: peer.actorId.href },
      });
      expect(await peer.signerOf(ctx.app, accept)).toBe(`${ORIGIN}/users/${alice.id}`);
      expect(
        await ctx.db.db
          .select()
          .from(follows)
          .where(and(eq(follows.followerId, carolId), eq(follows.followeeId, alice.id))),
      ).toHaveLength(1);
    });

    it('rejecting sends a Reject of her Follow', async () => {
      const { user: alice, client } = await member('alice');
      const carolId = await requestFrom(alice.id);
      const arrived = peer.nextDelivery();
      expect((await client.post(`/api/follow-requests/${carolId}/reject`)).statusCode).toBe(200);
      await federation().runQueue();
      expect((await arrived).json).toMatchObject({
        type: 'Reject',
        object: { type: 'Follow', id: `${peer.origin}/activities/follow-${alice.id}` },
      });
      expect(await ctx.db.db.select().from(follows)).toEqual([]);
    });

    it('turning "Approve followers" off accepts her request too', async () => {
      const { user: alice, client } = await member('alice');
      await requestFrom(alice.id);
      const arrived = peer.nextDelivery();
      expect((await client.patch('/api/edit', { locked: false })).statusCode).toBe(200);
      await federation().runQueue();
      expect((await arrived).json).toMatchObject({ type: 'Accept', actor: `${ORIGIN}/users/${alice.id}` });
    });
  });
});
