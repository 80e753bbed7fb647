/**
 * Grouped notifications live: a notification the user stream sends carries the key of the group
 * the grouped API puts it in, so an app merges it into that group (Mastodon 4.3's web app does).
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { streamingStats } from '../../src/modules/mastodon/streaming.routes.ts';
import { authorizeApp, seedTrio, until, useTestApp } from '../helpers/app.ts';
import { createPost, follow, like } from '../helpers/social.ts';
import { expectEntity, mastodonCall } from './openapi.ts';

describe('Mastodon user stream: notifications join their groups', () => {
  const ctx = useTestApp();

  it('sends each notification with the group_key of its group in /api/v2/notifications', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const { token } = await authorizeApp(ctx.app, alice.id, 'read write');
    const post = await createPost(clients.alice, 'liked live');
    if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const before = streamingStats.subscriptions;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/streaming?stream=user:notification`, [token]);
    const received: { id: string; type: string; group_key: string }[] = [];
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { event?: string; payload?: string };
      if (message.event === 'notification') received.push(JSON.parse(message.payload as string));
    });
    await until(() => streamingStats.subscriptions > before, 'the notification stream subscribed');

    await like(clients.bob, post.id);
    await until(() => received.length >= 1, "bob's like");
    await like(clients.carol, post.id);
    await until(() => received.length >= 2, "carol's like");
    await follow(clients.bob, alice.id);
    await until(() => received.length >= 3, "bob's follow");
    socket.close();
    await new Promise((resolve) => socket.once('close', resolve));
    for (const n of received) expectEntity('Notification', n);

    const res = await mastodonCall(ctx.app, {
      method: 'GET',
      url: '/api/v2/notifications',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const groups = (res.json() as { notification_groups: { group_key: string; notifications_count: number }[] })
      .notification_groups;
    expect(groups.map((g) => g.notifications_count)).toEqual([1, 2]);
    const [follows, likes] = groups.map((g) => g.group_key);
    expect(received.map((n) => [n.type, n.group_key])).toEqual([
      ['favourite', likes],
      ['favourite', likes],
      ['follow', follows],
    ]);
  });
});
