/**
 * Web Push (modules/push): the web app's subscription per session, the Mastodon push API per token,
 * and deliveries to a push service on 127.0.0.1 (helpers/push-service.ts: it records what arrives,
 * answers 201, 404, 410 or 500 as told, and the browser's keys decrypt each payload).
 */
import type { PushState } from '@pipit/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { sql } from '../../src/db/client.ts';
import { authorizeApp, inject, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { BrowserKeys, MockPushService, verifyVapid } from '../helpers/push-service.ts';
import { createPost, like, rowsOf } from '../helpers/social.ts';
import { mastodonCall } from '../mastodon/openapi.ts';

const ALL_KINDS = ['reply', 'mention', 'follow', 'like', 'repost'];

let service: MockPushService;
beforeAll(async () => {
  service = await MockPushService.start();
});
afterAll(async () => {
  await service.close();
});

describe('Web Push', () => {
  const ctx = useTestApp({
    push: {
      vapid: null,
      subject: 'mailto:admin@pipit.example',
      allowLoopback: true,
      maxPerMember: 3,
      timeoutMs: 5_000,
      pollMs: 0,
    },
  });
  beforeEach(() => service.reset());

  const vapidKey = async () =>
    (await inject(ctx.app, { method: 'GET', url: '/api/v2/instance' })).json<{
      configuration: { vapid: { public_key: string } };
    }>().configuration.vapid.public_key;

  /** bob's browser, subscribed with `kinds`, pushing to `/bob/<n>` of the push service (`language`: its Accept-Language). */
  async function subscribe(client: TestClient, path: string, kinds = ALL_KINDS, language?: string) {
    const browser = new BrowserKeys();
    const res = await client.put(
      '/api/push/subscription',
      { endpoint: `${service.origin}${path}`, keys: browser.keys, kinds },
      language ? { headers: { 'accept-language': language } } : {},
    );
    expect(res.statusCode, res.body).toBe(200);
    return browser;
  }

  const subscriptionCount = async () =>
    Number(rowsOf<{ n: string }>(await ctx.db.db.execute(sql`select count(*) as n from push_subscriptions`))[0]?.n);

  it('keeps one VAPID key pair, made at first start, served to browsers and in the instance (v1 and v2)', async () => {
    const key = await vapidKey();
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    const v1 = (await inject(ctx.app, { method: 'GET', url: '/api/v1/instance' })).json<{
      configuration: { vapid: { public_key: string } };
    }>();
    expect(v1.configuration.vapid.public_key).toBe(key);
    const { clients } = await seedTrio(ctx);
    expect((await clients.bob.get('/api/push/subscription')).json<PushState>()).toEqual({
      vapidPublicKey: key,
      subscription: null,
    });
    const [row] = rowsOf<{ value: { publicKey: string } }>(
      await ctx.db.db.execute(sql`select value from instance_keys where name = 'vapid'`),
    );
    expect(row?.value.publicKey).toBe(key);
  });

  it('subscribes this session, changes its kinds with the same PUT, and forgets it on DELETE', async () => {
    const { clients, bob } = await seedTrio(ctx);
    await subscribe(clients.bob, '/bob/1', ['reply']);
    let state = (await clients.bob.get('/api/push/subscription')).json<PushState>();
    expect(state.subscription).toEqual({ endpoint: `${service.origin}/bob/1`, kinds: ['reply'] });
    // Another session of bob (another browser) has none of its own.
    const other = await new TestClient(ctx).signInAs(bob.id);
    expect((await other.get('/api/push/subscription')).json<PushState>().subscription).toBeNull();
    await subscribe(clients.bob, '/bob/1', ['like', 'follow']);
    state = (await clients.bob.get('/api/push/subscription')).json<PushState>();
    expect(state.subscription?.kinds).toEqual(['like', 'follow']);
    expect(await subscriptionCount()).toBe(1);
    expect((await clients.bob.delete('/api/push/subscription')).statusCode).toBe(204);
    expect((await clients.bob.get('/api/push/subscription')).json<PushState>().subscription).toBeNull();
    // Nothing left to remove is no error.
    expect((await clients.bob.delete('/api/push/subscription')).statusCode).toBe(204);
  });

  it('ends a session’s subscription when the session ends (signing out)', async () => {
    const { clients } = await seedTrio(ctx);
    await subscribe(clients.bob, '/bob/1');
    await ctx.db.db.execute(sql`delete from sessions where user_id = (select id from users where username = 'bob')`);
    expect(await subscriptionCount()).toBe(0);
  });

  it('refuses a visitor, endpoints that are not https on a public address, bad keys, unknown kinds — storing nothing', async () => {
    const { clients } = await seedTrio(ctx);
    const keys = new BrowserKeys().keys;
    const put = (body: unknown) => clients.bob.put('/api/push/subscription', body);
    expect(
      (
        await clients.visitor.put('/api/push/subscription', { endpoint: 'https://push.example/x', keys, kinds: [] })
      ).json().code,
    ).toBe('UNAUTHENTICATED');
    const refusals: [unknown, string][] = [
      [{ endpoint: 'http://push.example/x', keys, kinds: [] }, 'endpoint'],
      [{ endpoint: 'not a url', keys, kinds: [] }, 'endpoint'],
      [{ endpoint: 'https://10.1.2.3/x', keys, kinds: [] }, 'endpoint'],
      [{ endpoint: 'https://[::ffff:192.168.0.1]/x', keys, kinds: [] }, 'endpoint'],
      [{ endpoint: 'https://user:secret@push.example/x', keys, kinds: [] }, 'endpoint'],
      [{ endpoint: 'https://push.example:6379/x', keys, kinds: [] }, 'endpoint'],
      [{ endpoint: 'ftp://push.example/x', keys, kinds: [] }, 'endpoint'],
      [
        {
          endpoint: 'https://push.example/x',
          keys: { ...keys, p256dh: Buffer.alloc(65, 7).toString('base64url') },
          kinds: [],
        },
        'keys.p256dh',
      ],
      [{ endpoint: 'https://push.example/x', keys: { ...keys, p256dh: 'short' }, kinds: [] }, 'keys.p256dh'],
      [
        {
          endpoint: 'https://push.example/x',
          keys: { ...keys, auth: Buffer.alloc(15).toString('base64url') },
          kinds: [],
        },
        'keys.auth',
      ],
      [{ endpoint: 'https://push.example/x', keys: { p256dh: keys.p256dh }, kinds: [] }, 'keys.auth'],
      [{ endpoint: 'https://push.example/x', kinds: [] }, 'keys'],
      [{ endpoint: 'https://push.example/x', keys, kinds: ['poll'] }, 'kinds.0'],
      [{ endpoint: 'https://push.example/x', keys }, 'kinds'],
    ];
    for (const [body, field] of refusals) {
      const res = await put(body);
      expect([JSON.stringify(body), res.statusCode, res.json().code, res.json().field]).toEqual([
        JSON.stringify(body),
        400,
        'INVALID_INPUT',
        field,
      ]);
    }
    expect(await subscriptionCount()).toBe(0);
  });

  it('refuses a subscription past the limit per member (LIMIT_REACHED), and lets one be replaced', async () => {
    const { clients, bob } = await seedTrio(ctx);
    const browsers = [clients.bob];
    for (let i = 0; i < 3; i++) browsers.push(await new TestClient(ctx).signInAs(bob.id));
    for (const [i, client] of browsers.slice(0, 3).entries()) await subscribe(client, `/bob/${i}`);
    const res = await browsers[3]!.put('/api/push/subscription', {
      endpoint: `${service.origin}/bob/3`,
      keys: new BrowserKeys().keys,
      kinds: ALL_KINDS,
    });
    expect([res.statusCode, res.json().code]).toEqual([409, 'LIMIT_REACHED']);
    // A session already subscribed replaces its own: no new place taken.
    await subscribe(browsers[0]!, '/bob/0-again');
    expect(await subscriptionCount()).toBe(3);
  });

  it('pushes a like to the recipient’s subscription, encrypted for it (RFC 8291) and signed with the VAPID key', async () => {
    const { clients } = await seedTrio(ctx);
    const browser = await subscribe(clients.bob, '/bob/1');
    const post = await createPost(clients.bob, 'Wrens sing loudest at dawn');
    await like(clients.alice, post.id);
    expect(await ctx.app.services.push.drain()).toBe(1);
    expect(service.received).toHaveLength(1);
    const [pushed] = service.received;
    expect(pushed?.path).toBe('/bob/1');
    expect(pushed?.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(pushed?.headers.ttl)).toBeGreaterThan(0);
    const claims = verifyVapid(pushed?.headers.authorization, await vapidKey());
    expect(claims.aud).toBe(service.origin);
    expect(claims.sub).toBe('mailto:admin@pipit.example');
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    const payload = JSON.parse(browser.decrypt(pushed!.body));
    expect(payload).toMatchObject({
      notification_type: 'like',
      title: 'Alice liked your post',
      body: 'Wrens sing loudest at dawn',
      preferred_locale: 'en',
      url: `${ctx.config.publicUrl}/posts/${post.id}`,
    });
    expect(payload.icon).toMatch(/^http:\/\/localhost:3999\//);
    expect(payload.access_token).toBeUndefined();
    // Only to its recipient's subscriptions: alice has none, carol's is not told.
    await subscribe(clients.carol, '/carol/1');
    await like(clients.alice, (await createPost(clients.bob, 'another')).id);
    await ctx.app.services.push.drain();
    expect(service.received.map((r) => r.path)).toEqual(['/bob/1', '/bob/1']);
  });

  it('never pushes the text a content warning hides: the warning is the body', async () => {
    const { clients } = await seedTrio(ctx);
    const browser = await subscribe(clients.bob, '/bob/1');
    const parent = await createPost(clients.bob, 'What did you think of the finale?');
    const reply = await clients.alice.post('/api/posts', {
      text: 'The butler did it, and the dog knew all along',
      parentId: parent.id,
      spoilerText: 'Finale spoilers',
    });
    expect(reply.statusCode, reply.body).toBe(201);
    await ctx.app.services.push.drain();
    const plain = browser.decrypt(service.received[0]!.body);
    expect(JSON.parse(plain)).toMatchObject({
      notification_type: 'reply',
      title: 'Alice replied to you',
      body: 'Finale spoilers',
    });
    expect(plain).not.toMatch(/butler|dog/);
  });

  it('writes the title in the language the browser subscribed with; what people wrote goes as written', async () => {
    const { clients } = await seedTrio(ctx);
    const spanish = await subscribe(clients.bob, '/bob/es', ALL_KINDS, 'es-MX,en;q=0.5');
    const arabic = await subscribe(clients.carol, '/carol/ar', ALL_KINDS, 'fr, ar;q=0.8');
    const english = await subscribe(clients.alice, '/alice/en', ALL_KINDS, 'de-DE');
    await like(clients.alice, (await createPost(clients.bob, 'Los colibríes no caminan')).id);
    await like(clients.bob, (await createPost(clients.carol, 'الطيور تغني')).id);
    await like(clients.carol, (await createPost(clients.alice, 'Wrens again')).id);
    expect(await ctx.app.services.push.drain()).toBe(3);
    const payloadAt = (path: string, keys: BrowserKeys) =>
      JSON.parse(keys.decrypt(service.received.find((r) => r.path === path)!.body));
    expect(payloadAt('/bob/es', spanish)).toMatchObject({
      title: 'A Alice le gustó tu publicación',
      body: 'Los colibríes no caminan',
      preferred_locale: 'es',
    });
    expect(payloadAt('/carol/ar', arabic)).toMatchObject({ title: 'أُعجب Bob بمنشورك', preferred_locale: 'ar' });
    // A language Pipit does not write in: English.
    expect(payloadAt('/alice/en', english)).toMatchObject({ title: 'Carol liked your post', preferred_locale: 'en' });
  });

  it('pushes only the kinds the subscription wants', async () => {
    const { clients, bob } = await seedTrio(ctx);
    await subscribe(clients.bob, '/bob/1', ['follow']);
    await like(clients.alice, (await createPost(clients.bob, 'no push for this like')).id);
    expect((await clients.alice.put(`/api/users/${bob.id}/follow`)).statusCode).toBe(200);
    await ctx.app.services.push.drain();
    expect(service.received).toHaveLength(1);
  });

  it('deletes a subscription at the push service’s first 404 or 410, and tries again after a 500', async () => {
    const { clients, bob } = await seedTrio(ctx);
    await subscribe(clients.bob, '/bob/gone');
    const second = await new TestClient(ctx).signInAs(bob.id);
    await subscribe(second, '/bob/missing');
    const third = await new TestClient(ctx).signInAs(bob.id);
    await subscribe(third, '/bob/down');
    service.answers.set('/bob/gone', 410);
    service.answers.set('/bob/missing', 404);
    service.answers.set('/bob/down', 500);
    await like(clients.alice, (await createPost(clients.bob, 'one')).id);
    await ctx.app.services.push.drain();
    expect(service.received).toHaveLength(3);
    expect((await clients.bob.get('/api/push/subscription')).json<PushState>().subscription).toBeNull();
    expect((await second.get('/api/push/subscription')).json<PushState>().subscription).toBeNull();
    expect((await third.get('/api/push/subscription')).json<PushState>().subscription).not.toBeNull();
    // The failed delivery waits for its retry (1 s later), counted.
    const queued = rowsOf<{ attempts: number }>(
      await ctx.db.db.execute(sql`select attempts from fed_queue where queue = 'push'`),
    );
    expect(queued.map((q) => Number(q.attempts))).toEqual([1]);
  });

  it('sends nothing for a notification taken back before its delivery (an unlike)', async () => {
    const { clients } = await seedTrio(ctx);
    await subscribe(clients.bob, '/bob/1');
    const post = await createPost(clients.bob, 'liked and unliked');
    await like(clients.alice, post.id);
    expect((await clients.alice.delete(`/api/posts/${post.id}/like`)).statusCode).toBe(200);
    expect(await ctx.app.services.push.drain()).toBe(1);
    expect(service.received).toHaveLength(0);
  });

  describe('the Mastodon push API', () => {
    const headers = (token: string) => ({ authorization: `Bearer ${token}` });

    async function app(scopes = 'read write push') {
      const trio = await seedTrio(ctx);
      const { token } = await authorizeApp(ctx.app, trio.bob.id, scopes);
      return { ...trio, token };
    }

    it('creates, shows, changes and removes the token’s subscription, as the description has them', async () => {
      const { token } = await app();
      const browser = new BrowserKeys();
      expect(
        (await mastodonCall(ctx.app, { method: 'GET', url: '/api/v1/push/subscription', headers: headers(token) }))
          .statusCode,
      ).toBe(404);
      const created = await mastodonCall(ctx.app, {
        method: 'POST',
        url: '/api/v1/push/subscription',
        headers: headers(token),
        payload: {
          subscription: { endpoint: `${service.origin}/app/1`, keys: browser.keys },
          data: { alerts: { mention: true, favourite: true, status: true }, policy: 'all' },
        },
      });
      expect(created.statusCode, created.body).toBe(200);
      const body = created.json();
      expect(body).toMatchObject({
        endpoint: `${service.origin}/app/1`,
        standard: false,
        server_key: await vapidKey(),
        policy: 'all',
      });
      expect(body.alerts).toMatchObject({ mention: true, favourite: true, status: true, follow: false, reblog: false });
      const shown = await mastodonCall(ctx.app, {
        method: 'GET',
        url: '/api/v1/push/subscription',
        headers: headers(token),
      });
      expect(shown.json()).toEqual(body);
      // A form, as some apps send it: nested names.
      const changed = await mastodonCall(ctx.app, {
        method: 'PUT',
        url: '/api/v1/push/subscription',
        headers: { ...headers(token), 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'data[alerts][follow]=true&data[alerts][mention]=false&data[policy]=followed',
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().alerts).toMatchObject({ follow: true, mention: false, favourite: true });
      expect(changed.json().policy).toBe('followed');
      const removed = await mastodonCall(ctx.app, {
        method: 'DELETE',
        url: '/api/v1/push/subscription',
        headers: headers(token),
      });
      expect([removed.statusCode, removed.json()]).toEqual([200, {}]);
      expect(await subscriptionCount()).toBe(0);
    });

    it('reads a form-encoded create, replaces the token’s old subscription, and goes with the token', async () => {
      const { token, bob } = await app();
      const form = (path: string) =>
        new URLSearchParams({
          'subscription[endpoint]': `${service.origin}${path}`,
          'subscription[keys][p256dh]': new BrowserKeys().keys.p256dh,
          'subscription[keys][auth]': new BrowserKeys().keys.auth,
          'subscription[standard]': 'true',
          'data[alerts][favourite]': 'true',
        }).toString();
      for (const path of ['/app/old', '/app/new']) {
        const res = await mastodonCall(ctx.app, {
          method: 'POST',
          url: '/api/v1/push/subscription',
          headers: { ...headers(token), 'content-type': 'application/x-www-form-urlencoded' },
          payload: form(path),
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ standard: true, alerts: { favourite: true } });
      }
      expect(await subscriptionCount()).toBe(1);
      // Revoking the token (the member ends the app's access) ends its subscription.
      await ctx.db.db.execute(sql`delete from oauth_tokens where user_id = ${bob.id}`);
      expect(await subscriptionCount()).toBe(0);
    });

    it('refuses a token without the push scope, unknown alerts and policies, bad endpoints and keys', async () => {
      const { token, alice } = await app();
      const { token: noPush } = await authorizeApp(ctx.app, alice.id, 'read write');
      const keys = new BrowserKeys().keys;
      const post = (t: string, payload: object) =>
        mastodonCall(ctx.app, { method: 'POST', url: '/api/v1/push/subscription', headers: headers(t), payload });
      const good = { subscription: { endpoint: `${service.origin}/app/1`, keys } };
      expect((await post(noPush, good)).statusCode).toBe(403);
      for (const payload of [
        { ...good, data: { alerts: { shouting: true } } },
        { ...good, data: { policy: 'friends' } },
        { subscription: { endpoint: 'http://push.example/x', keys } },
        { subscription: { endpoint: `${service.origin}/app/1`, keys: { ...keys, auth: 'AAAA' } } },
        { subscription: { endpoint: `${service.origin}/app/1` } },
      ]) {
        const res = await post(token, payload);
        expect([JSON.stringify(payload), res.statusCode]).toEqual([JSON.stringify(payload), 422]);
      }
      expect(await subscriptionCount()).toBe(0);
      const put = await mastodonCall(ctx.app, {
        method: 'PUT',
        url: '/api/v1/push/subscription',
        headers: headers(token),
        payload: { data: { alerts: { mention: true } } },
      });
      expect(put.statusCode).toBe(404);
    });

    it('refuses one subscription too many as a validation error (422)', async () => {
      const { bob } = await app();
      for (let i = 0; i < 3; i++) await subscribe(await new TestClient(ctx).signInAs(bob.id), `/bob/${i}`);
      const { token } = await authorizeApp(ctx.app, bob.id, 'push');
      const res = await mastodonCall(ctx.app, {
        method: 'POST',
        url: '/api/v1/push/subscription',
        headers: headers(token),
        payload: { subscription: { endpoint: `${service.origin}/app/1`, keys: new BrowserKeys().keys } },
      });
      expect(res.statusCode).toBe(422);
    });

    it('pushes as Mastodon does: its type names, the access token, the legacy encoding unless standard, the policy', async () => {
      const { token, clients, carol } = await app();
      const browser = new BrowserKeys();
      const res = await mastodonCall(ctx.app, {
        method: 'POST',
        url: '/api/v1/push/subscription',
        headers: headers(token),
        payload: {
          subscription: { endpoint: `${service.origin}/app/legacy`, keys: browser.keys },
          data: { alerts: { favourite: true, mention: true }, policy: 'followed' },
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const post = await createPost(clients.bob, 'for the app');
      // alice is not followed by bob: the policy keeps her like from being pushed.
      await like(clients.alice, post.id);
      await ctx.app.services.push.drain();
      expect(service.received).toHaveLength(0);
      expect((await clients.bob.put(`/api/users/${carol.id}/follow`)).statusCode).toBe(200);
      await like(clients.carol, post.id);
      await ctx.app.services.push.drain();
      expect(service.received).toHaveLength(1);
      const pushed = service.received[0]!;
      // The draft encoding (aesgcm) with its headers, and VAPID's draft form of Authorization.
      expect(pushed.headers['content-encoding']).toBe('aesgcm');
      expect(pushed.headers.encryption).toMatch(/^salt=/);
      expect(pushed.headers['crypto-key']).toMatch(/dh=.*p256ecdsa=/);
      expect(pushed.headers.authorization).toMatch(/^WebPush /);

      // A standard subscription's payload decrypts to Mastodon's fields, the token among them.
      const standard = new BrowserKeys();
      const again = await mastodonCall(ctx.app, {
        method: 'POST',
        url: '/api/v1/push/subscription',
        headers: headers(token),
        payload: {
          subscription: { endpoint: `${service.origin}/app/standard`, keys: standard.keys, standard: true },
          data: { alerts: { mention: true } },
        },
      });
      expect(again.statusCode).toBe(200);
      await createPost(clients.alice, `@bob hello from alice`);
      await ctx.app.services.push.drain();
      const last = service.received.at(-1)!;
      expect(last.path).toBe('/app/standard');
      expect(JSON.parse(standard.decrypt(last.body))).toMatchObject({
        notification_type: 'mention',
        access_token: token,
        title: 'Alice mentioned you',
        body: '@bob hello from alice',
      });
    });
  });
});

describe('push configuration', () => {
  it('refuses PUSH_ALLOW_LOOPBACK in production, half a VAPID pair, a malformed key and a bad subject', () => {
    const base = { NODE_ENV: 'production' as const, AUTH_SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://pipit.example' };
    expect(() => loadConfig({ ...base, PUSH_ALLOW_LOOPBACK: 'true' })).toThrow(/PUSH_ALLOW_LOOPBACK/);
    expect(() => loadConfig({ ...base, VAPID_PUBLIC_KEY: 'abc' })).toThrow(/VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY/);
    expect(() => loadConfig({ ...base, VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: 'def' })).toThrow(/P-256/);
    expect(() => loadConfig({ ...base, VAPID_SUBJECT: 'http://pipit.example' })).toThrow(/VAPID_SUBJECT/);
    const config = loadConfig(base);
    expect(config.push).toMatchObject({ vapid: null, subject: 'https://pipit.example', allowLoopback: false });
  });
});

describe('VAPID keys from the environment', () => {
  const publicKey = new BrowserKeys().ecdh;
  const vapid = {
    publicKey: publicKey.getPublicKey().toString('base64url'),
    privateKey: publicKey.getPrivateKey().toString('base64url'),
  };
  const ctx = useTestApp({
    push: { vapid, subject: 'mailto:a@b.example', allowLoopback: false, maxPerMember: 3, timeoutMs: 1_000, pollMs: 0 },
  });
  it('serves the given key rather than the kept one', async () => {
    const res = await inject(ctx.app, { method: 'GET', url: '/api/v2/instance' });
    expect(res.json().configuration.vapid.public_key).toBe(vapid.publicKey);
  });
});
