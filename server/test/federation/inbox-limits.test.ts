import { Create, Note, PUBLIC_COLLECTION } from '@fedify/vocab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../helpers/app.ts';
import { ORIGIN, Peer, useFederatedApp } from './peer.ts';

/**
 * The inboxes' limits (modules/federation/federation.routes.ts): deliveries per sending address
 * (RATE_LIMIT_FEDERATION_INBOX; here 3 a minute) answered 429 RATE_LIMITED with Retry-After past it, before any
 * work; a body over 1 MB is 413 before it is read whole. Neither reaches the queue.
 */
describe('inbox limits', () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await Peer.start();
  });
  afterAll(() => peer.close());

  const { ctx, federation } = useFederatedApp({
    rateLimits: { ...testConfig().rateLimits, federationInbox: { max: 3, windowMs: 60_000 } },
  });

  let n = 0;
  const create = (content: string) =>
    new Create({
      id: new URL(`/activities/limit-${++n}`, peer.origin),
      actor: peer.actorId,
      object: new Note({
        id: new URL(`/notes/limit-${n}`, peer.origin),
        attribution: peer.actorId,
        content,
        to: PUBLIC_COLLECTION,
      }),
    }).toJsonLd();

  it('answers 429 with Retry-After past the limit per sending address, and queues nothing for it', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await peer.deliver(ctx.app, ORIGIN, '/inbox', await create('<p>hi</p>'))).statusCode).toBe(202);
    }
    expect(await federation().runQueue()).toBe(3);
    const refused = await peer.deliver(ctx.app, ORIGIN, '/inbox', await create('<p>one too many</p>'));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await federation().runQueue()).toBe(0);
  });

  it('refuses a body over 1 MB with 413 before any work', async () => {
    const res = await peer.deliver(
      ctx.app,
      ORIGIN,
      '/users/1/inbox',
      await create(`<p>${'x'.repeat(1024 * 1024)}</p>`),
    );
    expect(res.statusCode).toBe(413);
    expect(await federation().runQueue()).toBe(0);
  });
});
