import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { FederationService, type FederationTestSeam } from './federation.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** ActivityPub federation; null when it is off (config.federation). */
    federation: FederationService | null;
  }
}

/** Activities are larger than the API's JSON bodies (a long note with its tags and mentions). */
const INBOX_BODY_LIMIT = 1024 * 1024;
const ACTIVITY_TYPES = ['application/activity+json', 'application/ld+json', 'application/json'];

/**
 * The Fastify bridge to Fedify. Only the federation's own paths are routes here, each handed to
 * `federation.fetch` as a web Request: the inbox body as the exact bytes received (the signature's
 * digest covers them), the URL on PUBLIC_URL's origin. What Fedify does not serve falls through to
 * the rest of the app: a browser asking for HTML at an actor or a note (`/users/1`, `/posts/1`: the
 * web app's own pages) gets the web app (Fedify's onNotAcceptable), as does a page Fedify has nothing
 * for; a JSON-LD request for something that does not exist, WebFinger and the inboxes get a 404.
 */
export const federationPlugin = fp(
  async (app: FastifyInstance, options: { config: Config; seam?: FederationTestSeam }) => {
    const { config } = options;
    if (!config.federation.enabled) {
      app.decorate('federation', null);
      app.log.info(`Federation is off: ${config.federation.offReason} (ActivityPub needs an https PUBLIC_URL).`);
      return;
    }
    // Loopback peers: a test's seam, or a benchmark's FEDERATION_ALLOW_LOOPBACK (never in production).
    const seam = config.federation.allowLoopback ? { allowPrivateAddress: true, ...options.seam } : options.seam;
    const service = new FederationService(app.db, config, {
      services: app.services,
      log: app.log,
      ...(seam ? { seam } : {}),
    });
    app.decorate('federation', service);
    app.services.federationLink.attach(service.outgoing);
    app.addHook('onReady', async () => service.start());
    app.addHook('onClose', async () => service.stop());
    app.log.info(`Federation is on, as ${config.publicUrl}.`);

    await app.register(async function federationRoutes(scope) {
      // Bodies as bytes, untouched: JSON-LD and ActivityStreams types, and plain JSON some servers send.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(ACTIVITY_TYPES, { parseAs: 'buffer', bodyLimit: INBOX_BODY_LIMIT }, (_r, body, done) =>
        done(null, body),
      );
      const handler = bridge(service, config.publicUrl, (host) => app.services.domainBlocks.isBlocked(host));
      for (const url of [
        '/.well-known/webfinger',
        '/users/:identifier',
        '/users/:identifier/outbox',
        '/users/:identifier/followers',
        '/users/:identifier/following',
        '/users/:identifier/featured',
        '/posts/:id',
      ]) {
        scope.get(url, handler);
      }
      // Deliveries per sending machine (its address: what a sender cannot forge), across processes with Redis.
      const perSender = app.limit('federationInbox', (request) => request.ip);
      scope.post('/users/:identifier/inbox', { bodyLimit: INBOX_BODY_LIMIT, preHandler: perSender }, handler);
      scope.post('/inbox', { bodyLimit: INBOX_BODY_LIMIT, preHandler: perSender }, handler);
    });
  },
  { name: 'federation' },
);

/** Whether the request asks for JSON-LD (a server), rather than a page (a browser). */
function wantsJsonLd(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '');
  return /application\/(activity\+json|ld\+json)/i.test(accept);
}

/**
 * The servers an inbox delivery comes from, as far as it says before any work: its actor's and its signing
 * key's hosts (unverified: only ever used to drop it, never to act on it).
 */
function senderHosts(request: FastifyRequest): string[] {
  const hosts: string[] = [];
  const add = (value: unknown) => {
    try {
      if (typeof value === 'string') hosts.push(new URL(value).host.toLowerCase());
    } catch {
      // Not a URL: nothing to go by.
    }
  };
  if (Buffer.isBuffer(request.body)) {
    try {
      const activity = JSON.parse(request.body.toString('utf8')) as { actor?: unknown };
      add(
        typeof activity.actor === 'object' && activity.actor ? (activity.actor as { id?: unknown }).id : activity.actor,
      );
    } catch {
      // Not JSON: Fedify refuses it.
    }
  }
  const signature = String(request.headers.signature ?? request.headers['signature-input'] ?? '');
  add(/keyid="([^"]+)"/i.exec(signature)?.[1]);
  return hosts;
}

function bridge(service: FederationService, publicUrl: string, blocked: (host: string) => Promise<boolean>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'POST') {
      // A blocked server's deliveries are dropped before any work (202: it has nothing to retry).
      for (const host of new Set(senderHosts(request))) {
        if (await blocked(host)) {
          request.log.info({ host }, 'a delivery from a blocked server was dropped');
          return reply.code(202).send();
        }
      }
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.set(name, String(value));
    }
    const body = request.method === 'POST' && Buffer.isBuffer(request.body) ? new Uint8Array(request.body) : null;
    const webRequest = new Request(new URL(request.url, publicUrl), { method: request.method, headers, body });
    let fallThrough = false;
    const notFound = () => {
      // A page of the web app's (an actor's or a note's URL opened in a browser) is the app's to answer.
      if (request.method === 'GET' && !request.url.startsWith('/.well-known/') && !wantsJsonLd(request)) {
        fallThrough = true;
      }
      return Response.json(
        { code: 'NOT_FOUND', message: `Nothing here for ${request.method} ${request.url.split('?')[0]}.` },
        { status: 404 },
      );
    };
    const response = await service.federation.fetch(webRequest, {
      contextData: undefined,
      onNotFound: notFound,
      onNotAcceptable: () => {
        fallThrough = true;
        return new Response(null, { status: 406 });
      },
    });
    if (fallThrough) return reply.callNotFound();
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      reply.header(name, value);
    });
    return reply.send(Buffer.from(await response.arrayBuffer()));
  };
}
