import type { webcrypto } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateCryptoKeyPair, signRequest, verifyRequest } from '@fedify/fedify';
import { CryptographicKey, Follow, Person, Undo } from '@fedify/vocab';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { executeRows } from '../../src/db/client.ts';
import { follows, posts, remoteActors, users } from '../../src/db/schema.ts';
import { insertUser, useTestApp } from '../helpers/app.ts';
import { ORIGIN, useFederatedApp } from './peer.ts';

/**
 * ActivityPub through the Fastify bridge (modules/federation), on the real database: discovery
 * (WebFinger, actors, collections, notes), content negotiation with the web app, and a first activity
 * both ways — a remote person's signed Follow of a member, its Accept delivered (signed) through the
 * queue, and its Undo. The remote server is an http server on 127.0.0.1 this file starts; nothing
 * reaches further. The queue is run by hand (`runQueue`), never on a timer.
 */

/** A remote server: Bob's actor, and the inbox where what Pipit sends arrives. */
interface Remote {
  origin: string;
  actorId: URL;
  keyId: URL;
  keys: webcrypto.CryptoKeyPair;
  server: Server;
  received: Array<{ url: string; headers: IncomingMessage['headers']; body: string }>;
  /** Resolves with the next delivery to arrive. */
  nextDelivery(): Promise<{ url: string; headers: IncomingMessage['headers']; body: string }>;
}

async function startRemote(): Promise<Remote> {
  const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
  const received: Remote['received'] = [];
  const waiting: Array<(d: Remote['received'][number]) => void> = [];
  let actorJson = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/users/bob') {
        res.writeHead(200, { 'content-type': 'application/activity+json' }).end(actorJson);
        return;
      }
      if (req.method === 'POST' && req.url === '/users/bob/inbox') {
        const delivery = { url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        received.push(delivery);
        waiting.shift()?.(delivery);
        res.writeHead(202).end();
        return;
      }
      res.writeHead(404).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const actorId = new URL('/users/bob', origin);
  const keyId = new URL('/users/bob#main-key', origin);
  const actor = new Person({
    id: actorId,
    preferredUsername: 'bob',
    name: 'Bob Remote',
    summary: '<p>Hello from <b>elsewhere</b></p><p>second &amp; last</p>',
    inbox: new URL('/users/bob/inbox', origin),
    publicKey: new CryptographicKey({ id: keyId, owner: actorId, publicKey: keys.publicKey }),
  });
  actorJson = JSON.stringify(await actor.toJsonLd());
  return {
    origin,
    actorId,
    keyId,
    keys,
    server,
    received,
    nextDelivery: () => new Promise((resolve) => waiting.push(resolve)),
  };
}

describe('federation', () => {
  let remote: Remote;
  beforeAll(async () => {
    remote = await startRemote();
  });
  afterAll(async () => {
    remote.server.close();
  });

  const { ctx, federation } = useFederatedApp();
  const getLd = (url: string) =>
    ctx.app.inject({ method: 'GET', url, headers: { accept: 'application/activity+json' } });

  /** POSTs an activity to `inbox` as the remote server would: signed with Bob's key unless told otherwise. */
  async function deliver(
    inbox: string,
    activity: unknown,
    options: { sign?: 'bob' | 'none' | 'other-key'; tamper?: boolean } = {},
  ) {
    const body = JSON.stringify(activity);
    let request = new Request(new URL(inbox, ORIGIN), {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json' },
      body,
    });
    const sign = options.sign ?? 'bob';
    if (sign === 'bob') request = await signRequest(request, remote.keys.privateKey, remote.keyId);
    if (sign === 'other-key') {
      const other = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
      request = await signRequest(request, other.privateKey, remote.keyId);
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const sent = options.tamper ? body.replace('"Follow"', '"Follow" ') : body;
    return ctx.app.inject({ method: 'POST', url: inbox, headers, payload: Buffer.from(sent) });
  }

  const followOf = (memberId: number, id = 'follow-1') =>
    new Follow({
      id: new URL(`/activities/${id}`, remote.origin),
      actor: remote.actorId,
      object: new URL(`/users/${memberId}`, ORIGIN),
    }).toJsonLd();

  const counts = async () => ({
    users: (await ctx.db.db.select({ id: users.id }).from(users)).length,
    follows: (await ctx.db.db.select().from(follows)).length,
    queued: Number(
      (await executeRows<{ n: string }>(ctx.db.db, sql`select count(*)::text as n from fed_queue`))[0]?.n ?? 0,
    ),
  });

  describe('discovery', () => {
    it('WebFinger finds members and the instance actor, and nobody else', async () => {
      const alice = await insertUser(ctx.db, { username: 'alice' });
      const res = await ctx.app.inject({ url: '/.well-known/webfinger?resource=acct:Alice@pipit.test' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('application/jrd+json');
      const jrd = res.json();
      expect(jrd.subject).toBe('acct:Alice@pipit.test');
      expect(jrd.links).toContainEqual(
        expect.objectContaining({
          rel: 'self',
          type: 'application/activity+json',
          href: `${ORIGIN}/users/${alice.id}`,
        }),
      );
      const instance = await ctx.app.inject({ url: '/.well-known/webfinger?resource=acct:pipit.test@pipit.test' });
      expect(instance.statusCode).toBe(200);
      expect(instance.json().links).toContainEqual(expect.objectContaining({ href: `${ORIGIN}/users/instance` }));
      for (const resource of ['acct:nobody@pipit.test', 'acct:alice@elsewhere.test']) {
        const missing = await ctx.app.inject({ url: `/.well-known/webfinger?resource=${resource}` });
        expect(missing.statusCode, resource).toBe(404);
      }
      // A suspended member is not found, nor is a remote person by a local acct.
      await ctx.db.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, alice.id));
      expect((await ctx.app.inject({ url: '/.well-known/webfinger?resource=acct:alice@pipit.test' })).statusCode).toBe(
        404,
      );
    });

    it("serves a member's actor with its keys (never a private one), and the web app to a browser", async () => {
      const alice = await insertUser(ctx.db, { username: 'alice', name: 'Alice A.', bio: 'Hi <there>\nline two' });
      await ctx.db.db.update(users).set({ locked: true }).where(eq(users.id, alice.id));
      const res = await getLd(`/users/${alice.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('application/activity+json');
      const actor = res.json();
      const me = `${ORIGIN}/users/${alice.id}`;
      expect(actor).toMatchObject({
        id: me,
        type: 'Person',
        preferredUsername: 'alice',
        name: 'Alice A.',
        inbox: `${me}/inbox`,
        outbox: `${me}/outbox`,
        followers: `${me}/followers`,
        following: `${me}/following`,
        featured: `${me}/featured`,
        url: me,
        manuallyApprovesFollowers: true,
        endpoints: { sharedInbox: `${ORIGIN}/inbox` },
      });
      expect(actor.summary).toContain('Hi &lt;there&gt;');
      expect(actor.published).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(actor.publicKey.publicKeyPem).toContain('BEGIN PUBLIC KEY');
      expect(actor.assertionMethod[0].publicKeyMultibase).toMatch(/^z/);
      expect(res.body).not.toContain('PRIVATE');
      // The keys were made once and kept: the same on the next fetch.
      expect((await getLd(`/users/${alice.id}`)).json().publicKey.publicKeyPem).toBe(actor.publicKey.publicKeyPem);
      const [keyRows] = await executeRows<{ n: number }>(ctx.db.db, sql`select count(*)::int as n from actor_keys`);
      expect(keyRows?.n).toBe(2);

      const page = await ctx.app.inject({ url: `/users/${alice.id}`, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('Pipit web app');

      // Nobody by that id: a 404 to a server, the web app (its own not-found page) to a browser.
      expect((await getLd('/users/999')).statusCode).toBe(404);
      expect((await getLd('/users/abc')).statusCode).toBe(404);
      expect((await ctx.app.inject({ url: '/users/999', headers: { accept: 'text/html' } })).body).toContain(
        'Pipit web app',
      );
      // A key is never made for an id nobody has.
      const [after] = await executeRows<{ n: number }>(ctx.db.db, sql`select count(*)::int as n from actor_keys`);
      expect(after?.n).toBe(2);
    });

    it('serves the instance actor (an Application with its keys)', async () => {
      const res = await getLd('/users/instance');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        type: 'Application',
        preferredUsername: 'pipit.test',
        id: `${ORIGIN}/users/instance`,
      });
      expect(res.json().publicKey.publicKeyPem).toContain('BEGIN PUBLIC KEY');
    });

    it('serves the outbox (public posts as Create(Note), paged), the collections and a note', async () => {
      const alice = await insertUser(ctx.db, { username: 'alice' });
      const inserted = await ctx.db.db
        .insert(posts)
        .values([
          ...Array.from({ length: 21 }, (_, i) => ({ authorId: alice.id, text: `public ${i}` })),
          { authorId: alice.id, text: 'for followers', visibility: 'followers' as const },
          { authorId: alice.id, text: 'unlisted one', visibility: 'unlisted' as const },
        ])
        .returning({ id: posts.id });
      const outbox = (await getLd(`/users/${alice.id}/outbox`)).json();
      expect(outbox).toMatchObject({ type: 'OrderedCollection', totalItems: 21 });
      const first = (await getLd(new URL(outbox.first).pathname + new URL(outbox.first).search)).json();
      expect(first.type).toBe('OrderedCollectionPage');
      expect(first.orderedItems).toHaveLength(20);
      expect(first.orderedItems[0]).toMatchObject({
        type: 'Create',
        actor: `${ORIGIN}/users/${alice.id}`,
        object: { type: 'Note', content: '<p>public 20</p>', to: 'as:Public' },
      });
      const next = (await getLd(new URL(first.next).pathname + new URL(first.next).search)).json();
      expect(next.orderedItems.map((a: { object: { content: string } }) => a.object.content)).toEqual([
        '<p>public 0</p>',
      ]);

      expect((await getLd(`/users/${alice.id}/followers`)).json()).toMatchObject({
        type: 'OrderedCollection',
        totalItems: 0,
      });
      expect((await getLd(`/users/${alice.id}/following`)).json()).toMatchObject({
        type: 'OrderedCollection',
        totalItems: 0,
      });
      expect((await getLd(`/users/${alice.id}/featured`)).json()).toMatchObject({ type: 'OrderedCollection' });
      expect((await getLd('/users/999/outbox')).statusCode).toBe(404);

      const unlisted = inserted.at(-1)?.id;
      const note = await getLd(`/posts/${unlisted}`);
      expect(note.statusCode).toBe(200);
      expect(note.json()).toMatchObject({ type: 'Note', content: '<p>unlisted one</p>', cc: 'as:Public' });
      // A followers-only post is no public document.
      expect((await getLd(`/posts/${inserted.at(-2)?.id}`)).statusCode).toBe(404);
      // The post's page, to a browser.
      expect((await ctx.app.inject({ url: `/posts/${unlisted}`, headers: { accept: 'text/html' } })).body).toContain(
        'Pipit web app',
      );
    });

    it('NodeInfo says ActivityPub', async () => {
      const res = await ctx.app.inject({ url: '/nodeinfo/2.1' });
      expect(res.json().protocols).toEqual(['activitypub']);
    });
  });

  describe('an incoming Follow', () => {
    it('follows the member, stores the remote person, and sends a signed Accept through the queue', async () => {
      const alice = await insertUser(ctx.db, { username: 'alice' });
      const res = await deliver(`/users/${alice.id}/inbox`, await followOf(alice.id));
      expect(res.statusCode).toBe(202);
      const arrived = remote.nextDelivery();
      expect(await federation().runQueue()).toBeGreaterThanOrEqual(2); // the Follow, then the Accept's delivery

      const [bob] = await ctx.db.db.select().from(users).where(eq(users.username, 'bob'));
      expect(bob).toMatchObject({
        domain: new URL(remote.origin).host,
        email: null,
        passwordHash: null,
        name: 'Bob Remote',
        bio: 'Hello from elsewhere\n\nsecond & last',
      });
      const [actor] = await ctx.db.db.select().from(remoteActors);
      expect(actor).toMatchObject({
        userId: bob?.id,
        uri: remote.actorId.href,
        type: 'Person',
        inbox: `${remote.origin}/users/bob/inbox`,
      });
      expect(actor?.publicKeys).toEqual([
        expect.objectContaining({ id: remote.keyId.href, type: 'RSASSA-PKCS1-v1_5' }),
      ]);
      const rows = await ctx.db.db.select().from(follows);
      expect(rows).toEqual([expect.objectContaining({ followerId: bob?.id, followeeId: alice.id })]);
      const [followee] = await ctx.db.db.select({ n: users.followersCount }).from(users).where(eq(users.id, alice.id));
      expect(followee?.n).toBe(1);
      // A remote person never shadows a member: alice's profile by username is still hers.
      const profile = await ctx.app.inject({ url: '/api/users/bob' });
      expect(profile.statusCode).toBe(404);

      const delivery = await arrived;
      const accept = JSON.parse(delivery.body);
      expect(accept).toMatchObject({
        type: 'Accept',
        actor: `${ORIGIN}/users/${alice.id}`,
        object: {
          type: 'Follow',
          id: `${remote.origin}/activities/follow-1`,
          actor: remote.actorId.href,
          object: `${ORIGIN}/users/${alice.id}`,
        },
      });
      // Signed by alice's key: verified as the remote server would, fetching her key from Pipit.
      const headers = new Headers();
      for (const [name, value] of Object.entries(delivery.headers))
        if (typeof value === 'string') headers.set(name, value);
      const key = await verifyRequest(
        new Request(`${remote.origin}${delivery.url}`, { method: 'POST', headers, body: delivery.body }),
        {
          documentLoader: async (url) => {
            const u = new URL(url);
            const doc = await getLd(u.pathname);
            return { contextUrl: null, documentUrl: url, document: doc.json() };
          },
        },
      );
      expect(key?.ownerId?.href).toBe(`${ORIGIN}/users/${alice.id}`);
      expect(await counts()).toMatchObject({ queued: 0 });
    });

    it('makes a follow request of a locked member (no Accept until approved)', async () => {
      const alice = await insertUser(ctx.db, { username: 'alice' });
      await ctx.db.db.update(users).set({ locked: true }).where(eq(users.id, alice.id));
      const before = remote.received.length;
      expect((await deliver(`/users/${alice.id}/inbox`, await followOf(alice.id))).statusCode).toBe(202);
      await federation().runQueue();
      const requests = await executeRows<{ requester_id: number }>(
        ctx.db.db,
        sql`select requester_id from follow_requests`,
      );
      expect(requests).toHaveLength(1);
      expect(await counts()).toMatchObject({ follows: 0, queued: 0 });
      expect(remote.received.length).toBe(before);
    });

    it('through the shared inbox too', async () => {
      const alice = await insertUser(ctx.db, { username: 'alice' });
      expect((await deliver('/inbox', await followOf(alice.id))).statusCode).toBe(202);
      const arrived = remote.nextDelivery();
      await federation().runQueue();
      expect(await counts()).toMatchObject({ follows: 1 });
      expect(JSON.parse((await arrived).body).type).toBe('Accept');
    });

    it('is refused unsigned, signed with a key not the actor’s, or altered after signing: nothing changes', async () => {
      const alice = await insertUser(ctx.db, { username: 'alice' });
      const before = await counts();
      for (const options of [{ sign: 'none' as const }, { sign: 'other-key' as const }, { tamper: true }]) {
        const res = await deliver(`/users/${alice.id}/inbox`, await followOf(alice.id), options);
        expect(res.statusCode, JSON.stringify(options)).toBe(401);
        expect(await counts(), JSON.stringify(options)).toEqual(before);
      }
      expect(await federation().runQueue()).toBe(0);
      expect(await counts()).toEqual(before);
    });

    it('to someone who does not exist is answered 404 and changes nothing', async () => {
      const before = await counts();
      const res = await deliver('/users/999/inbox', await followOf(999));
      expect(res.statusCode).toBe(404);
      expect(await counts()).toEqual(before);
    });

    it('is taken back by Undo(Follow)', async () => {
      const alice = await insertUser(ctx.db, { username: 'alice' });
      const follow = await followOf(alice.id);
      await deliver(`/users/${alice.id}/inbox`, follow);
      await federation().runQueue();
      expect(await counts()).toMatchObject({ follows: 1 });
      const undo = new Undo({
        id: new URL('/activities/undo-1', remote.origin),
        actor: remote.actorId,
        object: await Follow.fromJsonLd(follow),
      });
      expect((await deliver(`/users/${alice.id}/inbox`, await undo.toJsonLd())).statusCode).toBe(202);
      await federation().runQueue();
      expect(await counts()).toMatchObject({ follows: 0, queued: 0 });
      const [followee] = await ctx.db.db.select({ n: users.followersCount }).from(users).where(eq(users.id, alice.id));
      expect(followee?.n).toBe(0);
    });
  });
});

describe('federation configuration', () => {
  const base = { NODE_ENV: 'test' as const, AUTH_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/pipit-fed-config' };
  it('is on with an https PUBLIC_URL, off with http or FEDERATION=off', () => {
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://a.test' }).federation).toMatchObject({ enabled: true });
    expect(loadConfig({ ...base, PUBLIC_URL: 'http://a.test' }).federation).toMatchObject({
      enabled: false,
      offReason: 'PUBLIC_URL is http://, not https://',
    });
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://a.test', FEDERATION: 'off' }).federation).toMatchObject({
      enabled: false,
      offReason: 'FEDERATION=off',
    });
  });

  it('refuses FEDERATION=on without https, and a value it does not know', () => {
    expect(() => loadConfig({ ...base, PUBLIC_URL: 'http://a.test', FEDERATION: 'on' })).toThrow(/needs an https/);
    expect(() => loadConfig({ ...base, PUBLIC_URL: 'https://a.test', FEDERATION: 'yes' })).toThrow(
      /FEDERATION must be "on" or "off"/,
    );
  });
});

describe('federation off', () => {
  const lines: string[] = [];
  const ctx = useTestApp({ logLevel: 'info' }, { logStream: { write: (line: string) => lines.push(line) } });
  it('says so in one log line, and serves no federation path', async () => {
    expect(ctx.app.federation).toBeNull();
    expect(lines.filter((l) => l.includes('Federation is off'))).toHaveLength(1);
    expect(lines.find((l) => l.includes('Federation is off'))).toContain('PUBLIC_URL is http://, not https://');
    const res = await ctx.app.inject({ url: '/.well-known/webfinger?resource=acct:alice@localhost:3999' });
    expect(res.statusCode).toBe(404);
  });
});
