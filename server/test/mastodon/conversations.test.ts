/**
 * Mastodon's conversations (GET /api/v1/conversations, read, remove) and the `direct` stream, over
 * Pipit's conversations (modules/conversations): each answer validated against the description.
 */
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { streamingStats } from '../../src/modules/mastodon/streaming.routes.ts';
import { authorizeApp, seedTrio, type TestClient, until, useTestApp } from '../helpers/app.ts';
import { expectEntity, mastodonCall } from './openapi.ts';

interface MastodonConversation {
  id: string;
  unread: boolean;
  accounts: { id: string; username: string }[];
  last_status: { id: string; visibility: string; content: string } | null;
}

describe('Mastodon conversations', () => {
  const ctx = useTestApp();

  async function world() {
    const trio = await seedTrio(ctx);
    const tokens = {
      alice: (await authorizeApp(ctx.app, trio.alice.id, 'read write')).token,
      bob: (await authorizeApp(ctx.app, trio.bob.id, 'read write')).token,
      carol: (await authorizeApp(ctx.app, trio.carol.id, 'read write')).token,
    };
    const call = (who: keyof typeof tokens, method: string, url: string, payload?: object) =>
      mastodonCall(ctx.app, {
        method: method as 'GET',
        url,
        headers: { authorization: `Bearer ${tokens[who]}` },
        ...(payload ? { payload } : {}),
      });
    const direct = async (who: keyof typeof tokens, status: string, inReplyTo?: string) => {
      const res = await call(who, 'POST', '/api/v1/statuses', {
        status,
        visibility: 'direct',
        ...(inReplyTo ? { in_reply_to_id: inReplyTo } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: string }>().id;
    };
    return { ...trio, tokens, call, direct };
  }

  const list = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<MastodonConversation[]>();
  };
  const linked = (res: LightMyRequestResponse, rel: string) => {
    const match = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(String(res.headers.link ?? ''));
    return match ? new URL(match[1] as string).search : null;
  };

  it('lists a direct status as a Conversation: unread for whom it reached, read for its author, the others as accounts', async () => {
    const { call, direct } = await world();
    const id = await direct('alice', '@bob @carol dinner?');
    const [bobs] = list(await call('bob', 'GET', '/api/v1/conversations'));
    expect(bobs).toMatchObject({ id, unread: true, last_status: { id, visibility: 'direct' } });
    expect(bobs?.accounts.map((a) => a.username).sort()).toEqual(['alice', 'carol']);
    const [alices] = list(await call('alice', 'GET', '/api/v1/conversations'));
    expect(alices).toMatchObject({ id, unread: false });

    // Reading answers the Conversation, read.
    const read = await call('bob', 'POST', `/api/v1/conversations/${id}/read`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ id, unread: false, last_status: { id } });
    expect(list(await call('bob', 'GET', '/api/v1/conversations'))[0]?.unread).toBe(false);

    // Removing answers {} and takes it off bob's list only; a new status in it brings it back.
    const removed = await call('bob', 'DELETE', `/api/v1/conversations/${id}`);
    expect([removed.statusCode, removed.json()]).toEqual([200, {}]);
    expect(list(await call('bob', 'GET', '/api/v1/conversations'))).toEqual([]);
    expect(list(await call('carol', 'GET', '/api/v1/conversations')).map((c) => c.id)).toEqual([id]);
    const again = await direct('carol', '@bob @alice yes', id);
    expect(list(await call('bob', 'GET', '/api/v1/conversations'))[0]).toMatchObject({
      id,
      unread: true,
      last_status: { id: again },
    });
  });

  it('answers 404 for a conversation one is not in, an unknown id or a non-id, and 401 without a token', async () => {
    const { call, direct } = await world();
    const id = await direct('alice', '@bob only us');
    for (const target of [id, '999999', 'abc']) {
      for (const method of ['POST', 'DELETE']) {
        const url = method === 'POST' ? `/api/v1/conversations/${target}/read` : `/api/v1/conversations/${target}`;
        const res = await call('carol', method, url);
        expect([method, target, res.statusCode]).toEqual([method, target, 404]);
        expect(res.json()).toMatchObject({ error: expect.any(String) });
      }
    }
    const anonymous = await mastodonCall(ctx.app, { method: 'GET', url: '/api/v1/conversations' });
    expect(anonymous.statusCode).toBe(401);
    expect(list(await call('bob', 'GET', '/api/v1/conversations'))[0]?.unread).toBe(true);
  });

  it("pages by the last status's id as Mastodon does: max_id, since_id, min_id and the Link header", async () => {
    const { call, direct } = await world();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await direct('alice', `@bob note ${i}`));
    const newest = [...ids].reverse();
    const first = await call('bob', 'GET', '/api/v1/conversations?limit=2');
    expect(list(first).map((c) => c.id)).toEqual(newest.slice(0, 2));
    const next = linked(first, 'next');
    expect(next).toContain(`max_id=${newest[1]}`);
    const second = await call('bob', 'GET', `/api/v1/conversations${next}`);
    expect(list(second).map((c) => c.id)).toEqual(newest.slice(2, 4));
    expect(linked(second, 'prev')).toContain(`min_id=${newest[2]}`);
    expect(list(await call('bob', 'GET', `/api/v1/conversations?since_id=${ids[2]}`)).map((c) => c.id)).toEqual(
      newest.slice(0, 2),
    );
    expect(list(await call('bob', 'GET', `/api/v1/conversations?min_id=${ids[1]}&limit=2`)).map((c) => c.id)).toEqual([
      ids[3],
      ids[2],
    ]);
    // An answer moves a conversation up, keyed by its new last status.
    const answer = await direct('bob', '@alice got the first', ids[0]);
    const [top] = list(await call('alice', 'GET', '/api/v1/conversations?limit=1'));
    expect(top).toMatchObject({ id: ids[0], last_status: { id: answer } });
  });

  it('sends a Conversation on the direct stream when a direct status reaches the viewer, and nothing to others', async () => {
    const { tokens, direct, clients } = await world();
    if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const before = streamingStats.subscriptions;
    const received: Record<string, MastodonConversation[]> = { bob: [], carol: [] };
    const sockets = (['bob', 'carol'] as const).map((who) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/streaming?stream=direct`, [tokens[who]]);
      socket.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as { stream?: string[]; event?: string; payload?: string };
        if (message.event === 'conversation') {
          expect(message.stream).toEqual(['direct']);
          received[who]?.push(JSON.parse(message.payload as string));
        }
      });
      return socket;
    });
    await until(() => streamingStats.subscriptions >= before + 2, 'both direct streams subscribed');

    const id = await direct('alice', '@bob a secret');
    await until(() => (received.bob?.length ?? 0) >= 1, 'the conversation on bob’s direct stream');
    expect(received.bob?.[0]).toMatchObject({ id, unread: true, last_status: { id } });
    expectEntity('Conversation', received.bob?.[0]);
    // A public post and the web's own writes: no conversation event.
    await (clients.alice as TestClient).post('/api/posts', { text: '@bob @carol in public' });
    await ctx.app.services.stream.idle();
    expect(received.carol).toEqual([]);
    expect(received.bob).toHaveLength(1);
    for (const socket of sockets) socket.close();
  });
});
