/**
 * What attacking the API as RFC 6749/6750/7009 describe found: a stream opened with a token outlives
 * the token; personal streams open without one; 401s carry no Bearer challenge. Each stream here is
 * waited on by its own signals (open, a subscription counted, close), never by a clock.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { streamingStats } from '../../src/modules/mastodon/streaming.routes.ts';
import { authorizeApp, PASSWORD, until, useTestApp } from '../helpers/app.ts';
import { seedWorld } from '../security/support.ts';
import { expectValid, mastodonCall } from './openapi.ts';

interface Opened {
  socket: WebSocket;
  closed: Promise<number>;
  messages: Record<string, unknown>[];
}

describe('tokens that end, and streams that end with them', () => {
  const ctx = useTestApp();

  async function url(query: string) {
    if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    return `ws://127.0.0.1:${port}/api/v1/streaming${query}`;
  }

  /** A user stream, open and subscribed (the hub counts it), with its close as a promise. */
  async function openUserStream(token: string): Promise<Opened> {
    const before = streamingStats.subscriptions;
    const socket = new WebSocket(await url('?stream=user'), [token]);
    const messages: Record<string, unknown>[] = [];
    socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    await until(() => streamingStats.subscriptions > before, 'the user stream subscribed');
    return { socket, closed, messages };
  }

  /** The status of a refused handshake and its body. */
  async function refusedHandshake(address: string, protocols: string[] = []) {
    return new Promise<{ status: number; body: string; challenge: string | undefined }>((resolve, reject) => {
      const socket = new WebSocket(address, protocols);
      socket.on('open', () => reject(new Error('the stream opened')));
      socket.on('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body,
            challenge: response.headers['www-authenticate'] as string | undefined,
          }),
        );
      });
      socket.on('error', () => {});
    });
  }

  const revocations: [string, (w: Awaited<ReturnType<typeof seedWorld>>) => Promise<number>][] = [
    [
      'revoking the app in Settings',
      async (w) => (await w.alice.delete(`/api/oauth/apps/${w.oauth.appId}`)).statusCode,
    ],
    ['signing out every other session', async (w) => (await w.alice.post('/api/sessions/revoke-others')).statusCode],
    [
      'a new password',
      async (w) =>
        (
          await w.alice.post('/api/settings/password', {
            currentPassword: PASSWORD,
            newPassword: 'a brand new secret 9',
          })
        ).statusCode,
    ],
    ['a suspension', async (w) => (await w.mo.put(`/api/moderation/users/${w.ids.alice}/suspension`)).statusCode],
  ];

  for (const [how, end] of revocations) {
    it(`closes a stream opened with a token at once after ${how}, and refuses the token after`, async () => {
      const w = await seedWorld(ctx);
      const stream = await openUserStream(w.oauth.aliceToken);
      // Another member's stream stays open: only the ended token's streams close.
      const bobs = await openUserStream((await authorizeApp(ctx.app, Number(w.ids.bob))).token);
      expect([200, 204]).toContain(await end(w));
      await stream.closed;
      expect(stream.socket.readyState).toBe(WebSocket.CLOSED);
      expect(bobs.socket.readyState).toBe(WebSocket.OPEN);
      const after = await mastodonCall(ctx.app, {
        method: 'GET',
        url: '/api/v1/timelines/home',
        headers: { authorization: `Bearer ${w.oauth.aliceToken}` },
      });
      expect(after.statusCode).toBe(401);
      expect(after.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
      const refused = await refusedHandshake(await url('?stream=public'), [w.oauth.aliceToken]);
      expect(refused.status).toBe(401);
      bobs.socket.close();
      await bobs.closed;
    });
  }

  it('refuses the personal streams without a token, as Mastodon does, and keeps the public ones open', async () => {
    const w = await seedWorld(ctx);
    for (const stream of ['user', 'user:notification', 'direct', 'list']) {
      const refused = await refusedHandshake(await url(`?stream=${encodeURIComponent(stream)}`));
      expect([stream, refused.status]).toEqual([stream, 401]);
      expect(JSON.parse(refused.body)).toEqual({ error: 'Missing access token' });
      expect(refused.challenge).toMatch(/^Bearer /);
    }
    // A bad token is refused whatever the stream.
    expect((await refusedHandshake(await url('?stream=public&access_token=not-a-token'))).status).toBe(401);

    // Without a token, a public stream opens; asking it for a personal one is refused, and nothing of hers arrives.
    const socket = new WebSocket(await url('?stream=public'));
    const messages: Record<string, unknown>[] = [];
    socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'subscribe', stream: 'user' }));
    await until(() => messages.length > 0, 'the refusal');
    expect(messages[0]).toEqual({ error: 'Missing access token', status: 401 });
    await w.bob.put(`/api/posts/${w.alicePost}/like`);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.close();
    await closed;
    expect(messages.filter((m) => m.event === 'notification')).toEqual([]);
  });

  it('answers 401 with RFC 6750 challenges, and 403 for a missing scope', async () => {
    const w = await seedWorld(ctx);
    const get = (headers: Record<string, string>) =>
      mastodonCall(ctx.app, { method: 'GET', url: '/api/v1/timelines/home', headers });
    const none = await get({});
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="Pipit"');
    const bad = await get({ authorization: 'Bearer not-a-token' });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['www-authenticate']).toBe(
      'Bearer realm="Pipit", error="invalid_token", error_description="The access token is invalid"',
    );
    expect(bad.json()).toEqual({ error: 'The access token is invalid' });
    const { token } = await authorizeApp(ctx.app, Number(w.ids.bob), 'read:accounts');
    const scoped = await get({ authorization: `Bearer ${token}` });
    expect(scoped.statusCode).toBe(403);
    expect(scoped.headers['www-authenticate']).toBe(
      'Bearer realm="Pipit", error="insufficient_scope", scope="read:statuses"',
    );
    expectValid('GET', '/api/v1/timelines/home', 401, none.json());
  });
});
