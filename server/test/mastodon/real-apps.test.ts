/**
 * What Phanpy and Elk, built from their sources and signed in to Pipit, tripped on: the reblog's
 * answer (Elk reads `reblog`), the notifications marker of someone who has read nothing (Elk reads
 * `notifications.last_read_id` unchecked), familiar followers (Phanpy, on every profile), a
 * notification on each personal stream one socket holds (Phanpy opens `user` and
 * `user:notification` together), OpenID's userinfo, and the pictures of an account without a cover
 * and of the instance. Every answer is checked against the OpenAPI description.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { streamingStats } from '../../src/modules/mastodon/streaming.routes.ts';
import { authorizeApp, inject, insertUser, TestClient, until, useTestApp } from '../helpers/app.ts';
import { createPost } from '../helpers/social.ts';
import { seedWorld } from '../security/support.ts';
import { expectEntity, mastodonCall } from './openapi.ts';

describe('what real Mastodon apps tripped on', () => {
  const ctx = useTestApp({ adminEmails: ['admin@pipit.example'] });

  const as = (token: string) => (method: 'GET' | 'POST', url: string) =>
    mastodonCall(ctx.app, { method, url, headers: { authorization: `Bearer ${token}` } });

  it('answers a reblog with the new status wrapping the post, and unreblog with the post', async () => {
    const w = await seedWorld(ctx);
    const call = as(w.oauth.aliceToken);
    const post = await createPost(w.carol, 'boost me');
    const boosted = (await call('POST', `/api/v1/statuses/${post.id}/reblog`)).json();
    expect(boosted.id).not.toBe(post.id);
    expect(boosted.account.username).toBe('alice');
    expect(boosted.reblog).toMatchObject({ id: post.id, reblogged: true, reblogs_count: 1 });
    // Again: the same repost, not a second one.
    expect((await call('POST', `/api/v1/statuses/${post.id}/reblog`)).json().id).toBe(boosted.id);
    const undone = (await call('POST', `/api/v1/statuses/${post.id}/unreblog`)).json();
    expect(undone).toMatchObject({ id: post.id, reblog: null, reblogged: false, reblogs_count: 0 });
  });

  it('answers a notifications marker at 0 for someone who has read nothing, then the last one read', async () => {
    const w = await seedWorld(ctx);
    const { token } = await authorizeApp(ctx.app, Number(w.ids.carol));
    const call = as(token);
    const none = (await call('GET', '/api/v1/markers?timeline[]=notifications')).json();
    expect(none.notifications).toMatchObject({ last_read_id: '0', version: 0 });
    await w.bob.put(`/api/users/${w.ids.carol}/follow`);
    const [newest] = (await call('GET', '/api/v1/notifications')).json() as { id: string }[];
    await mastodonCall(ctx.app, {
      method: 'POST',
      url: '/api/v1/markers',
      headers: { authorization: `Bearer ${token}` },
      payload: { notifications: { last_read_id: newest?.id } },
    });
    expect((await call('GET', '/api/v1/markers')).json().notifications.last_read_id).toBe(newest?.id);
  });

  it('names, for each person asked, the people one follows who follow them', async () => {
    const w = await seedWorld(ctx);
    // Bob follows alice (the seed); carol follows alice too; alice's app asks about herself and bob.
    await w.carol.put(`/api/users/${w.ids.alice}/follow`);
    const { token } = await authorizeApp(ctx.app, Number(w.ids.bob), 'read follow');
    await w.bob.put(`/api/users/${w.ids.carol}/follow`);
    const familiar = (
      await as(token)('GET', `/api/v1/accounts/familiar_followers?id[]=${w.ids.alice}&id[]=${w.ids.carol}`)
    ).json();
    // Of those bob follows (alice, carol), carol follows alice; nobody he follows follows carol.
    expect(familiar).toEqual([
      { id: w.ids.alice, accounts: [expect.objectContaining({ username: 'carol' })] },
      { id: w.ids.carol, accounts: [] },
    ]);
  });

  it('names at most five familiar followers each, newest first, and none the viewer muted', async () => {
    const w = await seedWorld(ctx);
    const { token } = await authorizeApp(ctx.app, Number(w.ids.bob), 'read follow');
    // Seven people bob follows follow carol; bob mutes the newest of them (a mute keeps the follow).
    const names = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
    for (const username of names) {
      const row = await insertUser(ctx.db, { username });
      const client = await new TestClient(ctx).signInAs(row.id);
      expect((await w.bob.put(`/api/users/${row.id}/follow`)).statusCode).toBe(200);
      expect((await client.put(`/api/users/${w.ids.carol}/follow`)).statusCode).toBe(200);
      if (username === 'p7') expect((await w.bob.put(`/api/users/${row.id}/mute`, {})).statusCode).toBe(200);
    }
    const [familiar] = (await as(token)('GET', `/api/v1/accounts/familiar_followers?id[]=${w.ids.carol}`)).json();
    expect(familiar.accounts.map((a: { username: string }) => a.username)).toEqual(['p6', 'p5', 'p4', 'p3', 'p2']);
  });

  it('sends a notification on each personal stream a socket subscribed to', async () => {
    const w = await seedWorld(ctx);
    if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const before = streamingStats.subscriptions;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/streaming`, [w.oauth.aliceToken]);
    const received: { stream: string[]; payload: string }[] = [];
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.event === 'notification') received.push(message);
    });
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'subscribe', stream: 'user' }));
    socket.send(JSON.stringify({ type: 'subscribe', stream: 'user:notification' }));
    await until(() => streamingStats.subscriptions >= before + 2, 'both streams subscribed');
    await w.carol.put(`/api/posts/${w.alicePost}/like`);
    await until(() => received.length >= 2, 'the notification on both streams');
    expect(received.map((m) => m.stream).sort()).toEqual([['user'], ['user:notification']]);
    expect(received[0]?.payload).toBe(received[1]?.payload);
    expectEntity('Notification', JSON.parse(received[0]?.payload ?? '{}'));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.close();
    await closed;
  });

  it('answers OpenID userinfo for a token with the profile scope, 401 without one, 403 without the scope', async () => {
    const w = await seedWorld(ctx);
    const info = await inject(ctx.app, {
      url: '/oauth/userinfo',
      headers: { authorization: `Bearer ${w.oauth.aliceToken}` },
    });
    // The seed's token has read: `profile` is within it.
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({
      sub: `${ctx.config.publicUrl}/users/${w.ids.alice}`,
      preferred_username: 'alice',
      profile: `${ctx.config.publicUrl}/users/${w.ids.alice}`,
    });
    expect((await inject(ctx.app, { url: '/oauth/userinfo' })).statusCode).toBe(401);
    const { token } = await authorizeApp(ctx.app, Number(w.ids.bob), 'write');
    const scoped = await inject(ctx.app, { url: '/oauth/userinfo', headers: { authorization: `Bearer ${token}` } });
    expect(scoped.statusCode).toBe(403);
    const metadata = await mastodonCall(ctx.app, { url: '/.well-known/oauth-authorization-server' });
    expect(metadata.json().userinfo_endpoint).toBe(`${ctx.config.publicUrl}/oauth/userinfo`);
  });

  it('gives an account without a cover a plain banner, and the instance its own picture', async () => {
    const w = await seedWorld(ctx);
    const account = (await as(w.oauth.aliceToken)('GET', `/api/v1/accounts/${w.ids.bob}`)).json();
    expect(account.header).toBe(`${ctx.config.publicUrl}/images/header.png`);
    expect(account.avatar).toBe(`${ctx.config.publicUrl}/images/placeholder.png`);
    const instance = (await mastodonCall(ctx.app, { url: '/api/v2/instance' })).json();
    expect(instance.thumbnail.url).toBe(`${ctx.config.publicUrl}/images/instance.png`);
  });
});
