import { createHash } from 'node:crypto';
import { Create, Note, PUBLIC_COLLECTION } from '@fedify/vocab';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts, users } from '../../src/db/schema.ts';
import { authorizeApp, insertUser, TestClient } from '../helpers/app.ts';
import { mastodonCall } from '../mastodon/openapi.ts';
import { ORIGIN, Peer, useFederatedApp, withCarol } from './peer.ts';

/**
 * Blocking a whole server (modules/moderation/domain-blocks.service.ts): an admin's block suspends its
 * accounts known here and drops whatever it sends before any work; nobody there is looked up, nothing is
 * fetched from it or delivered to it; lifting it restores the accounts it suspended (not one a moderator
 * suspended on their own). Moderators read the list, admins change it; both acts are in the audit log.
 */
describe('blocked servers', () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await Peer.start();
  });
  afterAll(() => peer.close());

  const fed = useFederatedApp();
  const { ctx } = fed;
  const { runQueue, member, carolFollows, followCarol } = withCarol(fed, () => peer);

  async function staff() {
    const ada = await insertUser(ctx.db, { username: 'ada', role: 'admin' });
    const mo = await insertUser(ctx.db, { username: 'mo', role: 'moderator' });
    return {
      admin: await new TestClient(ctx).signInAs(ada.id),
      moderator: await new TestClient(ctx).signInAs(mo.id),
    };
  }
  let n = 0;
  /** Carol's server sends a new public note (signed) to the shared inbox; answers the inbox's status. */
  async function carolWrites(text: string) {
    const note = new Note({
      id: new URL(`/notes/blocked-${++n}`, peer.origin),
      attribution: peer.actorId,
      content: `<p>${text}</p>`,
      to: PUBLIC_COLLECTION,
    });
    const create = new Create({ id: new URL(`/activities/c-${n}`, peer.origin), actor: peer.actorId, object: note });
    const res = await peer.deliver(ctx.app, ORIGIN, '/inbox', await create.toJsonLd());
    const queued = await runQueue();
    return { status: res.statusCode, uri: (note.id as URL).href, queued };
  }
  const carolRow = async (carolId: number) =>
    (await ctx.db.db.select({ suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, carolId)))[0];

  it('suspends its accounts, drops what it sends, looks nobody up there and delivers nothing to it', async () => {
    const { admin, moderator } = await staff();
    const { user: alice, client } = await member('alice');
    const carolId = await followCarol(client);
    await carolFollows(alice.id);
    expect(await carolWrites('Before the block')).toMatchObject({ status: 202, queued: 1 });
    expect((await client.get('/api/timeline/following')).json().items).toHaveLength(1);

    const peers = async () => (await mastodonCall(ctx.app, { url: '/api/v1/instance/peers' })).json();
    expect(await peers()).toEqual([peer.host]);
    const blocked = await admin.post('/api/moderation/domains', { domain: ` HTTPS://${peer.host}/ `, reason: 'Spam' });
    expect(blocked.statusCode, blocked.body).toBe(201);
    expect(blocked.json()).toMatchObject({
      domain: peer.host,
      reason: 'Spam',
      accounts: 1,
      createdBy: { username: 'ada' },
    });
    // Moderators read the list; the log says who did it.
    expect((await moderator.get('/api/moderation/domains')).json().items).toMatchObject([{ domain: peer.host }]);
    expect((await moderator.get('/api/moderation/log')).json().items[0]).toMatchObject({
      action: 'domain.blocked',
      detail: peer.host,
      moderator: { username: 'ada' },
    });

    // Mastodon apps: no longer a peer; the blocked servers by name (and digest) for people signed in.
    expect(await peers()).toEqual([]);
    const { token } = await authorizeApp(ctx.app, alice.id, 'read');
    const listed = await mastodonCall(ctx.app, {
      url: '/api/v1/instance/domain_blocks',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(listed.json()).toEqual([
      { domain: peer.host, digest: createHash('sha256').update(peer.host).digest('hex'), severity: 'suspend' },
    ]);
    expect((await mastodonCall(ctx.app, { url: '/api/v1/instance/domain_blocks' })).statusCode).toBe(401);
    // Her account is suspended: her posts leave alice's Home, her profile says so.
    expect((await carolRow(carolId))?.suspendedAt).not.toBeNull();
    expect((await client.get('/api/timeline/following')).json().items).toEqual([]);
    expect((await client.get(`/api/users/${carolId}`)).json()).toMatchObject({ suspended: true });
    // What her server sends is dropped before any work (202: nothing to retry), nothing kept.
    const after = await carolWrites('After the block');
    expect(after.status).toBe(202);
    expect(after.queued).toBe(0);
    expect(await ctx.db.db.select().from(posts).where(eq(posts.uri, after.uri))).toEqual([]);
    // Nobody there is looked up.
    const lookups = peer.fetched.get('/.well-known/webfinger') ?? 0;
    const found = await client.get(`/api/search/people?q=${encodeURIComponent(`@dave@${peer.host}`)}&resolve=true`);
    expect(found.json().items).toEqual([]);
    expect(peer.fetched.get('/.well-known/webfinger') ?? 0).toBe(lookups);
    // Alice's post reaches nobody there (carol followed her).
    const before = peer.received.length;
    expect((await client.post('/api/posts', { text: 'Hello' })).statusCode).toBe(201);
    await runQueue();
    expect(peer.received.length).toBe(before);
  });

  it('lifting it restores the accounts it suspended, not one a moderator suspended', async () => {
    const { admin, moderator } = await staff();
    const { client } = await member('alice');
    const carolId = await followCarol(client);
    await admin.post('/api/moderation/domains', { domain: peer.host });
    const lifted = await admin.delete(`/api/moderation/domains/${encodeURIComponent(peer.host)}`);
    expect(lifted.statusCode, lifted.body).toBe(204);
    expect((await carolRow(carolId))?.suspendedAt).toBeNull();
    expect((await moderator.get('/api/moderation/log')).json().items[0]).toMatchObject({
      action: 'domain.unblocked',
      detail: peer.host,
    });
    expect((await carolWrites('Back again')).status).toBe(202);
    expect((await client.get('/api/timeline/following')).json().items.map((p: { text: string }) => p.text)).toEqual([
      'Back again',
    ]);

    // Suspended on her own first: the block and its lift leave that suspension alone.
    expect((await moderator.put(`/api/moderation/users/${carolId}/suspension`)).statusCode).toBe(200);
    const own = (await carolRow(carolId))?.suspendedAt;
    await admin.post('/api/moderation/domains', { domain: peer.host });
    await admin.delete(`/api/moderation/domains/${encodeURIComponent(peer.host)}`);
    expect((await carolRow(carolId))?.suspendedAt).toEqual(own);
  });

  it('admins only change it; a bad name, this server, or a server not blocked are refused', async () => {
    const { admin, moderator } = await staff();
    const { client } = await member('alice');
    expect((await new TestClient(ctx).withCsrf().get('/api/moderation/domains')).statusCode).toBe(401);
    expect((await client.get('/api/moderation/domains')).json()).toMatchObject({ code: 'FORBIDDEN' });
    expect((await moderator.post('/api/moderation/domains', { domain: 'spam.example' })).json()).toMatchObject({
      code: 'FORBIDDEN',
    });
    for (const domain of ['', 'not a host', 'a..b', `x${'y'.repeat(300)}.example`, 'spam.example/path']) {
      const res = await admin.post('/api/moderation/domains', { domain });
      expect(res.statusCode, domain).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'domain' });
    }
    const self = await admin.post('/api/moderation/domains', { domain: new URL(ORIGIN).host });
    expect(self.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'domain' });
    const long = await admin.post('/api/moderation/domains', { domain: 'spam.example', reason: 'x'.repeat(501) });
    expect(long.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'reason' });
    expect((await admin.get('/api/moderation/domains')).json().items).toEqual([]);
    const missing = await admin.delete('/api/moderation/domains/spam.example');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    // Blocking again updates the reason only.
    await admin.post('/api/moderation/domains', { domain: 'spam.example', reason: 'first' });
    const again = await admin.post('/api/moderation/domains', { domain: 'spam.example', reason: 'second' });
    expect(again.json()).toMatchObject({ domain: 'spam.example', reason: 'second' });
    expect(
      (await moderator.get('/api/moderation/log'))
        .json()
        .items.filter((e: { action: string }) => e.action === 'domain.blocked'),
    ).toHaveLength(1);
  });
});
