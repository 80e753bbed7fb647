/**
 * An edit goes live (issue 28): `post.updated` on the web's stream and `status.update` on Mastodon's
 * streaming API reach exactly those who may see the post — the audience rules of `post.created`. Each
 * "not sent" is proved by a later public post (a marker) that every stream receives: the hub delivers
 * in order, so a stream that has the marker and not the update never gets it.
 */
import type { AddressInfo } from 'node:net';
import type { LiveEvent, Post } from '@pipit/contract';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { App } from '../../src/app.ts';
import { streamingStats } from '../../src/modules/mastodon/streaming.routes.ts';
import { authorizeApp, seedTrio, type TestClient, until, useTestApp } from '../helpers/app.ts';
import { expectEntity } from '../mastodon/openapi.ts';
import { openStream, type Received } from './sse-client.ts';

describe('edits on the live streams', () => {
  const ctx = useTestApp();
  const open: { close(): Promise<void> | void }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  async function baseUrl(app: App) {
    if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async function stream(client?: TestClient) {
    const cookie: Record<string, string> = client && client.cookies.size > 0 ? { cookie: client.cookies.header() } : {};
    const s = await openStream(`${await baseUrl(ctx.app)}/api/stream`, cookie);
    open.push(s);
    return s;
  }

  const isUpdate = (id: string) => (r: Received) => r.data.type === 'post.updated' && r.data.post.id === id;
  const isPost = (id: string) => (r: Received) => r.data.type === 'post.created' && r.data.post.id === id;

  async function write(client: TestClient, body: object) {
    const res = await client.post('/api/posts', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Post>().id;
  }
  async function edit(client: TestClient, id: string, body: object) {
    const res = await client.patch(`/api/posts/${id}`, body);
    expect(res.statusCode, res.body).toBe(200);
  }

  it('sends a public post’s edit to everyone, visitors too, as the post now reads', async () => {
    const { clients } = await seedTrio(ctx);
    const id = await write(clients.alice, { text: 'Before' });
    const [visitor, carol] = [await stream(), await stream(clients.carol)];
    await edit(clients.alice, id, { text: 'After', spoilerText: 'Careful' });
    for (const s of [visitor, carol]) {
      const got = (await s.next(isUpdate(id))).data as Extract<LiveEvent, { type: 'post.updated' }>;
      expect(got.post).toMatchObject({ id, text: 'After', spoilerText: 'Careful', sensitive: true, likedByMe: false });
      expect(got.post.editedAt).not.toBeNull();
    }
  });

  it('sends a followers-only post’s edit to its audience only: the author and followers, not others nor visitors', async () => {
    const { alice, clients } = await seedTrio(ctx);
    expect((await clients.bob.put(`/api/users/${alice.id}/follow`)).statusCode).toBe(200);
    const id = await write(clients.alice, { text: 'For followers', visibility: 'followers' });
    const [visitor, bob, carol, own] = [
      await stream(),
      await stream(clients.bob),
      await stream(clients.carol),
      await stream(clients.alice),
    ];
    await edit(clients.alice, id, { text: 'For followers, edited' });
    const marker = await write(clients.alice, { text: 'marker' });
    for (const s of [visitor, bob, carol, own]) await s.next(isPost(marker));
    for (const s of [bob, own]) expect(s.received.some(isUpdate(id))).toBe(true);
    for (const s of [visitor, carol]) {
      expect(s.received.some(isUpdate(id))).toBe(false);
      expect(JSON.stringify(s.received)).not.toContain('For followers');
    }
    // And a member who blocked the author gets no update of a public post either.
    expect((await clients.carol.put(`/api/users/${alice.id}/block`)).statusCode).toBe(200);
    const open = await write(clients.alice, { text: 'Open' });
    await edit(clients.alice, open, { text: 'Open, edited' });
    const marker2 = await write(clients.bob, { text: 'marker two' });
    await carol.next(isPost(marker2));
    expect(carol.received.some(isUpdate(open))).toBe(false);
    await visitor.next(isUpdate(open));
  });

  it('Mastodon streaming sends status.update where the post would go: a follower’s user stream, public streams for a public post only', async () => {
    const { alice, bob, carol, clients } = await seedTrio(ctx);
    expect((await clients.bob.put(`/api/users/${alice.id}/follow`)).statusCode).toBe(200);
    const base = (await baseUrl(ctx.app)).replace('http', 'ws');
    const messages = new Map<string, { event: string; payload: string }[]>();
    const socketOf = async (name: string, userId: number, stream: string) => {
      const { token } = await authorizeApp(ctx.app, userId);
      const before = streamingStats.subscriptions;
      const socket = new WebSocket(`${base}/api/v1/streaming?stream=${stream}`, [token]);
      open.push({ close: () => socket.close() });
      messages.set(name, []);
      socket.on('message', (raw) => messages.get(name)?.push(JSON.parse(String(raw))));
      await until(() => streamingStats.subscriptions > before, `${name} subscribed`);
    };
    await socketOf('bob', bob.id, 'user');
    await socketOf('carol', carol.id, 'public');
    const edits = (name: string) =>
      (messages.get(name) ?? []).filter((m) => m.event === 'status.update').map((m) => JSON.parse(m.payload));
    const updates = (name: string) =>
      (messages.get(name) ?? []).filter((m) => m.event === 'update').map((m) => JSON.parse(m.payload).id as string);

    const quiet = await write(clients.alice, { text: 'Followers only', visibility: 'followers' });
    await edit(clients.alice, quiet, { text: 'Followers only, edited' });
    const shown = await write(clients.alice, { text: 'Public' });
    await edit(clients.alice, shown, { text: 'Public, edited', spoilerText: 'cw' });
    const marker = await write(clients.alice, { text: 'marker' });
    await until(() => updates('carol').includes(marker) && updates('bob').includes(marker), 'the marker');

    expect(edits('bob').map((s) => [s.id, s.content, s.spoiler_text])).toEqual([
      [quiet, '<p>Followers only, edited</p>', ''],
      [shown, '<p>Public, edited</p>', 'cw'],
    ]);
    expect(edits('carol').map((s) => s.id)).toEqual([shown]);
    for (const status of [...edits('bob'), ...edits('carol')]) {
      expectEntity('Status', status);
      expect(status.edited_at).not.toBeNull();
    }
  });
});
