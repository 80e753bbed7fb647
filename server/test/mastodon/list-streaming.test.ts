/**
 * Mastodon's `list` stream: `stream=list&list=:id` (or a subscribe message naming `list`) carries the
 * new posts of that list's timeline — its members', by its replies policy — as `update` events on
 * ["list", id]; someone else's list, or none, is refused as absent.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { streamingStats } from '../../src/modules/mastodon/streaming.routes.ts';
import { until, useTestApp } from '../helpers/app.ts';
import { seedWorld } from '../security/support.ts';
import { expectEntity } from './openapi.ts';

describe('Mastodon list stream', () => {
  const ctx = useTestApp();

  it('sends the list’s new posts on ["list", id], by subscribe message or URL; refuses lists that are not one’s own', async () => {
    const w = await seedWorld(ctx);
    expect((await w.alice.put(`/api/users/${w.ids.bob}/follow`)).statusCode).toBe(200);
    const list = (await w.alice.post('/api/lists', { title: 'Bob', repliesPolicy: 'none' })).json<{ id: string }>().id;
    expect((await w.alice.put(`/api/lists/${list}/members/${w.ids.bob}`)).statusCode).toBe(200);
    const carols = (await w.carol.post('/api/lists', { title: 'Carol’s' })).json<{ id: string }>().id;
    if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const open = (query: string) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/streaming${query}`, [w.oauth.aliceToken]);
      const messages: { stream?: string[]; event?: string; payload?: string; error?: string; status?: number }[] = [];
      socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
      return { socket, messages, opened: new Promise((resolve) => socket.once('open', resolve)) };
    };
    const before = streamingStats.subscriptions;
    const byUrl = open(`?stream=list&list=${list}`);
    const byMessage = open('');
    await byMessage.opened;
    byMessage.socket.send(JSON.stringify({ type: 'subscribe', stream: 'list', list }));
    byMessage.socket.send(JSON.stringify({ type: 'subscribe', stream: 'list', list: carols }));
    byMessage.socket.send(JSON.stringify({ type: 'subscribe', stream: 'list', list: '999999' }));
    await until(() => streamingStats.subscriptions >= before + 2, 'both list streams subscribed');
    await until(() => byMessage.messages.filter((m) => m.error).length >= 2, 'both refusals');
    expect(byMessage.messages.filter((m) => m.error)).toEqual([
      { error: 'No such list', status: 404 },
      { error: 'No such list', status: 404 },
    ]);

    const root = (await w.bob.post('/api/posts', { text: 'bob on the list' })).json<{ id: string }>().id;
    await w.bob.post('/api/posts', { text: 'a reply: not on a list without replies', parentId: root });
    const last = (await w.carol.post('/api/posts', { text: 'carol: not a member' })).json<{ id: string }>().id;
    await ctx.app.services.stream.idle();
    const updates = (m: typeof byUrl) => m.messages.filter((x) => x.event === 'update');
    await until(() => updates(byUrl).length >= 1 && updates(byMessage).length >= 1, 'the list update');
    // Carol's post reached alice's socket (public) or not at all: it is never on the list stream.
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const s of [byUrl, byMessage]) {
      const shown = updates(s).map((m) => JSON.parse(m.payload as string));
      expect(shown.map((status) => status.id)).toEqual([root]);
      expect(updates(s)[0]?.stream).toEqual(['list', list]);
      expectEntity('Status', shown[0]);
      expect(shown.map((status) => status.id)).not.toContain(last);
    }
    // Unsubscribed: nothing more.
    byMessage.socket.send(JSON.stringify({ type: 'unsubscribe', stream: 'list', list }));
    await until(() => streamingStats.subscriptions === before + 1, 'unsubscribed');
    for (const s of [byUrl, byMessage]) {
      s.socket.close();
      await new Promise((resolve) => s.socket.once('close', resolve));
    }
  });
});
