import type { webcrypto } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCryptoKeyPair, signRequest, verifyRequest } from '@fedify/fedify';
import { Accept, CryptographicKey, Endpoints, Follow, Image, Person } from '@fedify/vocab';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { App } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { users } from '../../src/db/schema.ts';
import { insertUser, TestClient, useTestApp } from '../helpers/app.ts';
import { photo } from '../media/fixtures.ts';

/** The instance under test's public origin (https: federation is on). */
export const ORIGIN = 'https://pipit.test';

/**
 * The app with federation on as ORIGIN, its queue run by hand (`federation().runQueue()`), peers on
 * 127.0.0.1 allowed, and a stand-in web app (what a browser asking an actor's URL for HTML falls through to).
 */
export function useFederatedApp(overrides: Partial<Config> = {}) {
  const webDist = mkdtempSync(path.join(tmpdir(), 'pipit-fed-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Pipit web app</title>');
  const ctx = useTestApp(
    {
      publicUrl: ORIGIN,
      secureCookies: true,
      webDist,
      federation: { enabled: true, offReason: null, queuePollMs: 60_000 },
      ...overrides,
    },
    { federation: { allowPrivateAddress: true, manualQueue: true } },
  );
  const federation = () => {
    const service = ctx.app.federation;
    if (!service) throw new Error('federation is off');
    return service;
  };
  return { ctx, federation, webDist };
}

/** What arrived at the peer's inboxes. */
export interface Delivery {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  json: Record<string, unknown> & { type: string; id: string; actor: string; object: unknown };
}

/**
 * Another fediverse server for the tests: real HTTP on 127.0.0.1 (a port of its own), with one
 * person, `carol`, served as a Mastodon-like server does — WebFinger, her actor (with a hostile bio and
 * an avatar), her inbox and a shared inbox — keeping what Pipit delivers. Activities it sends to Pipit
 * are signed with carol's key (Fedify's signRequest) and handed to the app under test; what Pipit
 * sends it is verified as a server would, against the sender's key fetched from the app.
 */
export class Peer {
  readonly received: Delivery[] = [];
  /** GET requests served, by path (how often Pipit fetched what). */
  readonly fetched = new Map<string, number>();
  /** Carol's account deleted: her actor answers 410 Gone. */
  gone = false;
  /** Other documents served (notes), by path, as ActivityStreams JSON. */
  readonly documents = new Map<string, string>();
  /** Files served (pictures), by path, with their content type. */
  readonly files = new Map<string, { type: string; body: Buffer }>();
  private waiting: Array<(d: Delivery) => void> = [];
  private actorJson = '';

  private constructor(
    readonly server: Server,
    readonly origin: string,
    readonly keys: webcrypto.CryptoKeyPair,
  ) {}

  /** The peer's host as a handle names it (`127.0.0.1:<port>`). */
  get host(): string {
    return new URL(this.origin).host;
  }
  get actorId(): URL {
    return new URL('/users/carol', this.origin);
  }
  get keyId(): URL {
    return new URL('/users/carol#main-key', this.origin);
  }

  static async start(): Promise<Peer> {
    const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    let peer: Peer | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => peer?.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    peer = new Peer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, keys);
    peer.files.set('/avatars/carol.png', { type: 'image/png', body: await photo(200, 200, 'png') });
    const actor = new Person({
      id: peer.actorId,
      preferredUsername: 'carol',
      name: 'Carol Elsewhere',
      summary:
        '<p>Hi <b onclick="x()">there</b><script>alert(1)</script></p><p>see <a href="https://carol.example/about">my page</a> &amp; more</p>',
      icon: new Image({ url: new URL('/avatars/carol.png', peer.origin) }),
      url: new URL('/@carol', peer.origin),
      inbox: new URL('/users/carol/inbox', peer.origin),
      endpoints: new Endpoints({ sharedInbox: new URL('/inbox', peer.origin) }),
      followers: new URL('/users/carol/followers', peer.origin),
      publicKey: new CryptographicKey({ id: peer.keyId, owner: peer.actorId, publicKey: keys.publicKey }),
    });
    peer.actorJson = JSON.stringify(await actor.toJsonLd());
    return peer;
  }

  /** Serves an object (a note) at its id's path, as carol's server would. */
  async serve(object: { id: URL | null; toJsonLd(): Promise<unknown> }): Promise<void> {
    this.documents.set((object.id as URL).pathname, JSON.stringify(await object.toJsonLd()));
  }

  close(): void {
    this.server.close();
  }

  /** Resolves with the next delivery to arrive. */
  nextDelivery(): Promise<Delivery> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private handle(req: IncomingMessage, res: import('node:http').ServerResponse, body: string): void {
    const url = new URL(req.url ?? '/', this.origin);
    if (req.method === 'GET') this.fetched.set(url.pathname, (this.fetched.get(url.pathname) ?? 0) + 1);
    if (req.method === 'GET' && url.pathname === '/.well-known/webfinger') {
      const resource = url.searchParams.get('resource');
      if (resource !== `acct:carol@${this.host}`) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/jrd+json' }).end(
        JSON.stringify({
          subject: resource,
          links: [
            { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: `${this.origin}/@carol` },
            { rel: 'self', type: 'application/activity+json', href: this.actorId.href },
          ],
        }),
      );
      return;
    }
    if (req.method === 'GET' && url.pathname === '/users/carol') {
      if (this.gone) {
        res.writeHead(410).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/activity+json' }).end(this.actorJson);
      return;
    }
    const file = req.method === 'GET' ? this.files.get(url.pathname) : undefined;
    if (file) {
      res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
      return;
    }
    const document = req.method === 'GET' ? this.documents.get(url.pathname) : undefined;
    if (document !== undefined) {
      res.writeHead(200, { 'content-type': 'application/activity+json' }).end(document);
      return;
    }
    if (req.method === 'POST' && (url.pathname === '/users/carol/inbox' || url.pathname === '/inbox')) {
      const delivery = { url: url.pathname, headers: req.headers, body, json: JSON.parse(body) };
      this.received.push(delivery);
      this.waiting.shift()?.(delivery);
      res.writeHead(202).end();
      return;
    }
    res.writeHead(404).end();
  }

  /** POSTs an activity to the app's `inbox` as carol's server: signed with her key unless told otherwise. */
  async deliver(
    app: App,
    appOrigin: string,
    inbox: string,
    activity: unknown,
    options: { unsigned?: boolean; keyId?: URL } = {},
  ) {
    const body = JSON.stringify(activity);
    let request = new Request(new URL(inbox, appOrigin), {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json' },
      body,
    });
    if (!options.unsigned) request = await signRequest(request, this.keys.privateKey, options.keyId ?? this.keyId);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return app.inject({ method: 'POST', url: inbox, headers, payload: Buffer.from(body) });
  }

  /** Checks a delivery's signature as carol's server would, fetching the signer's key from the app: its owner. */
  async signerOf(app: App, delivery: Delivery): Promise<string | null> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(delivery.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const key = await verifyRequest(
      new Request(`${this.origin}${delivery.url}`, { method: 'POST', headers, body: delivery.body }),
      {
        documentLoader: async (url) => {
          const doc = await app.inject({
            url: new URL(url).pathname,
            headers: { accept: 'application/activity+json' },
          });
          return { contextUrl: null, documentUrl: url, document: doc.json() };
        },
      },
    );
    return key?.ownerId?.href ?? null;
  }
}

/**
 * What the exchanges with carol's server begin with: a member signed in, carol following a member (her
 * Follow, accepted), a member following carol (found by handle, her server's Accept). `runQueue` runs the
 * app's federation queue by hand.
 */
export function withCarol(fed: ReturnType<typeof useFederatedApp>, peer: () => Peer) {
  const { ctx, federation } = fed;
  const runQueue = () => federation().runQueue();

  async function member(username: string) {
    const user = await insertUser(ctx.db, { username });
    return { user, client: await new TestClient(ctx).signInAs(user.id) };
  }

  /** Carol (on the peer) follows `memberId`: her signed Follow, accepted. Answers carol's user id. */
  async function carolFollows(memberId: number): Promise<number> {
    const follow = await new Follow({
      id: new URL(`/activities/follow-${memberId}`, peer().origin),
      actor: peer().actorId,
      object: new URL(`/users/${memberId}`, ORIGIN),
    }).toJsonLd();
    expect((await peer().deliver(ctx.app, ORIGIN, `/users/${memberId}/inbox`, follow)).statusCode).toBe(202);
    const accepted = peer().nextDelivery();
    await runQueue();
    expect((await accepted).json.type).toBe('Accept');
    const [carol] = await ctx.db.db.select({ id: users.id }).from(users).where(eq(users.username, 'carol'));
    return carol?.id as number;
  }

  /** `client`'s member follows carol: found by handle, followed, accepted by her server. Answers her id. */
  async function followCarol(client: TestClient): Promise<number> {
    const found = await client.get(`/api/search/people?q=${encodeURIComponent(`@carol@${peer().host}`)}&resolve=true`);
    const carolId = found.json().items[0].id as string;
    await client.put(`/api/users/${carolId}/follow`);
    const arrived = peer().nextDelivery();
    await runQueue();
    const follow = await arrived;
    const accept = new Accept({
      id: new URL(`/activities/accept-${Math.random()}`, peer().origin),
      actor: peer().actorId,
      object: await Follow.fromJsonLd(follow.json),
    });
    expect((await peer().deliver(ctx.app, ORIGIN, '/inbox', await accept.toJsonLd())).statusCode).toBe(202);
    await runQueue();
    expect((await client.get(`/api/users/${carolId}`)).json().isFollowing).toBe(true);
    return Number(carolId);
  }

  return { runQueue, member, carolFollows, followCarol };
}
