/**
 * The user stream's notifications: each new notification arrives once, oldest first, even when
 * several are made before the first is read (the live event names none: the stream sends what is
 * newer than the last it sent).
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { streamingStats } from '../../src/modules/mastodon/streaming.routes.ts';
import { until, useTestApp } from '../helpers/app.ts';
import { seedWorld } from '../security/support.ts';
import { expectEntity, mastodonCall } from './openapi.ts';

describe('Mastodon user stream: notifications', () => {
  const ctx = useTestApp();

  it('sends each new notification once, in order, however close together they come', async () => {
    const w = await seedWorld(ctx);
    const posts: string[] = [];
    for (const text of ['one', 'two', 'three'])
      posts.push((await w.alice.post('/api/posts', { text })).json<{ id: string }>().id);
    if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const before = streamingStats.subscriptions;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/streaming?stream=user`, [w.oauth.aliceToken]);
    const received: { id: string; type: string }[] = [];
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { event?: string; payload?: string };
      if (message.event === 'notification') received.push(JSON.parse(message.payload as string));
    });
    await until(() => streamingStats.subscriptions > before, 'the user stream subscribed');

    // Two likes back to back, then a third.
    for (const id of posts.slice(0, 2)) expect((await w.bob.put(`/api/posts/${id}/like`)).statusCode).toBe(200);
    await until(() => received.length >= 2, 'two notifications');
    expect((await w.bob.put(`/api/posts/${posts[2]}/like`)).statusCode).toBe(200);
    await until(() => received.length >= 3, 'the third');

    const listed = await mastodonCall(ctx.app, {
      method: 'GET',
      url: '/api/v1/notifications?limit=3',
      headers: { authorization: `Bearer ${w.oauth.aliceToken}` },
    });
    const newest = (listed.json() as { id: string }[]).map((n) => n.id);
    expect(received.map((n) => n.id)).toEqual([...newest].reverse());
    expect(received.map((n) => n.type)).toEqual(['favourite', 'favourite', 'favourite']);
    // Each streamed payload is Mastodon's Notification.
    for (const notification of received) expectEntity('Notification', notification);
    socket.close();
    await new Promise((resolve) => socket.once('close', resolve));
    // Nothing more came than the three.
    expect(received).toHaveLength(3);
  });
});
