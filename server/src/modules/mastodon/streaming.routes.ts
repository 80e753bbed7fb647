import type { WebSocket } from '@fastify/websocket';
import websocket from '@fastify/websocket';
import type { LiveEvent, Post } from '@pipit/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseListId } from '../lists/lists.service.ts';
import { badToken, noToken, Refused } from '../oauth/bearer.ts';
import type { TokenGrant } from '../oauth/oauth.service.ts';
import { grants } from '../oauth/scopes.ts';
import type { StreamClient } from '../stream/stream.hub.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { route } from './mastodon.http.ts';

/**
 * What a stream may be subscribed to, and the scope each needs (public ones none). The ones Mastodon
 * reserves for a person (theirs, their notifications, direct messages, lists) need a person's token.
 */
const STREAMS: Record<string, string | null> = {
  user: 'read:statuses',
  'user:notification': 'read:notifications',
  direct: 'read:statuses',
  list: 'read:lists',
  public: null,
  'public:local': null,
  hashtag: null,
  'hashtag:local': null,
};
const isPersonal = (stream: string) => STREAMS[stream] !== null && STREAMS[stream] !== undefined;
/** Mastodon's answer to a personal stream asked for without a token. */
const MISSING_TOKEN = 'Missing access token';

/** New posts' statuses kept for the streams (each made once, however many streams it goes to). */
const RECENT_PAYLOADS = 100;

/** Subscriptions held by this process's streams (what the tests wait on before posting). */
export const streamingStats = { subscriptions: 0 };

/** The token of a WebSocket request: Authorization (the scope's hook), `access_token`, or the protocol (masto.js). */
function tokenOf(query: Record<string, unknown>, protocol: string | undefined): string | null {
  if (typeof query.access_token === 'string') return query.access_token;
  const first = protocol?.split(',')[0]?.trim();
  return first && first.length > 0 ? first : null;
}

/** Notifications read per event: those newer than the last sent (more at once than this is a burst the app pages). */
const NOTIFICATIONS_AT_ONCE = 20;

/** `#tag` in a text, as a whole word, ignoring case. */
function hasTag(text: string, tag: string): boolean {
  const escaped = tag.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}_])#${escaped}(?![\\p{L}\\p{N}_])`, 'iu').test(text);
}

/**
 * Mastodon's streaming API over WebSocket (/api/v1/streaming): `user` (the home timeline and
 * notifications), `public`, `hashtag` and `list` (one's own: `list=:id`) streams, fed by the same live hub as the web's event stream
 * (modules/stream: who sees what applied there), and `direct` (the viewer's conversations). Events
 * are Mastodon's: `update` (a status), `status.update` (an edited status), `delete` (an id), `notification`,
 * `conversation`.
 */
export async function streamingRoutes(app: FastifyInstance, { config, present }: MastodonContext) {
  const { oauth, stream: hub, notifications, lists, conversations } = app.services;
  await app.register(websocket, {
    options: {
      maxPayload: 16 * 1024,
      // masto.js sends the token as the first subprotocol: the handshake names it back.
      handleProtocols: (protocols: Set<string>) => protocols.values().next().value ?? false,
    },
  });

  // Pings keep an idle connection open through proxies and find the dead ones: a socket that has not
  // answered the last ping (its pong) by the next round is closed. Every STREAM_HEARTBEAT_MS. The
  // sockets are this route's, from the moment its handler holds them (socket → answered since).
  const sockets = new Map<WebSocket, boolean>();
  const pinger = setInterval(() => {
    for (const [socket, answered] of sockets) {
      if (!answered) {
        sockets.delete(socket);
        socket.terminate();
        continue;
      }
      sockets.set(socket, false);
      socket.ping();
    }
  }, config.stream.heartbeatMs);
  pinger.unref();
  app.addHook('onClose', async () => clearInterval(pinger));

  // A new post goes to every stream as the same visitor's view: it is made into a status (one read of its
  // author's account) once per process, not once per open stream. The last few are kept.
  const payloads = new Map<string, Promise<string>>();
  const statusPayload = (post: Post): Promise<string> => {
    // An edited post is another status than the one written (its version: when it was edited).
    const key = post.editedAt === null ? post.entryId : `${post.entryId}@${post.editedAt}`;
    let payload = payloads.get(key);
    if (!payload) {
      payload = present.status(null, post).then((status) => JSON.stringify(status));
      payloads.set(key, payload);
      payload.catch(() => payloads.delete(key));
      if (payloads.size > RECENT_PAYLOADS) payloads.delete(payloads.keys().next().value as string);
    }
    return payload;
  };

  // What every socket of the process sends alike is made once: the hub's frame parsed once (it writes the
  // same frame to every stream), and an `update` message once per stream name and post (its payload is a
  // whole status as a JSON string: encoding it again per socket cost more than the socket write).
  let lastFrame: { frame: string; event: LiveEvent | null } = { frame: '', event: null };
  const eventOf = (frame: string): LiveEvent | null => {
    if (lastFrame.frame !== frame) {
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      lastFrame = { frame, event: data ? (JSON.parse(data) as LiveEvent) : null };
    }
    return lastFrame.event;
  };
  const updates = new Map<string, string>();
  const updateMessage = (stream: string[], post: Post, payload: string, event = 'update'): string => {
    const key = `${event}\u0000${post.entryId}\u0000${post.editedAt}\u0000${stream.join('\u0000')}`;
    let message = updates.get(key);
    if (message === undefined) {
      message = JSON.stringify({ stream, event, payload });
      updates.set(key, message);
      if (updates.size > RECENT_PAYLOADS * 4) updates.delete(updates.keys().next().value as string);
    }
    return message;
  };

  route(app, e.streamingHealth, async (_request, reply) => reply.type('text/plain; charset=utf-8').send('OK'));

  /**
   * Before the upgrade: the token (Authorization — the scope's hook —, `access_token`, or the first
   * subprotocol as masto.js sends it) is resolved; a bad one is refused (401, RFC 6750's challenge), and
   * so is a personal stream asked for in the URL without a person's token, as Mastodon refuses them.
   */
  const authorize = async (request: FastifyRequest) => {
    if (!request.grant) {
      const token = tokenOf(request.query as Record<string, unknown>, request.headers['sec-websocket-protocol']);
      if (token) {
        const grant = await oauth.resolve(token);
        if (!grant) throw badToken();
        request.grant = grant;
        request.bearer = token;
        request.viewer = grant.viewer;
      }
    }
    const asked = (request.query as Record<string, unknown>).stream;
    if (typeof asked === 'string' && isPersonal(asked) && !request.grant?.viewer) {
      throw new Refused(401, MISSING_TOKEN, noToken().challenge);
    }
  };

  app.route({
    method: 'GET',
    url: '/api/v1/streaming',
    preValidation: authorize,
    // A plain GET (no Upgrade): what the endpoint is, in Mastodon's error shape.
    handler: async (_request, reply) =>
      reply.code(400).send({ error: 'This is a WebSocket endpoint: connect with Upgrade: websocket.' }),
    wsHandler: async (socket: WebSocket, request) => {
      sockets.set(socket, true);
      socket.on('pong', () => {
        if (sockets.has(socket)) sockets.set(socket, true);
      });
      socket.on('close', () => sockets.delete(socket));
      // Messages may come before the token is resolved: listened to at once, handled once ready.
      const early: Buffer[] = [];
      let onMessage: ((raw: Buffer) => void) | null = null;
      socket.on('message', (raw: Buffer) => (onMessage ? onMessage(raw) : early.push(raw)));
      const grant: TokenGrant | null = request.grant;
      const viewer = grant?.viewer ?? null;
      const token = request.bearer;
      const subscribed = new Map<string, string[]>(); // key → Mastodon's `stream` array
      let counted = 0;
      const recount = () => {
        streamingStats.subscriptions += subscribed.size - counted;
        counted = subscribed.size;
      };
      const say = (message: object) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      };
      /**
       * The newest notification sent on this socket, or there when its personal stream was subscribed
       * (null: none subscribed yet): what is newer goes, oldest first, each once — however close together
       * notifications come, and whichever event reads them first.
       */
      let lastNotification: bigint | null = null;
      const subscribe = async (stream: unknown, tag: unknown, list: unknown) => {
        if (typeof stream !== 'string' || !(stream in STREAMS)) return say({ error: 'Unknown stream type' });
        const scope = STREAMS[stream];
        if (scope && !viewer) return say({ error: MISSING_TOKEN, status: 401 });
        if (scope && !(grant && grants(grant.scopes, scope))) {
          return say({ error: 'This stream requires a token with the right scope', status: 403 });
        }
        if (stream === 'list') {
          // Only one's own list (someone else's is absent, as on the list routes).
          const id = typeof list === 'string' || typeof list === 'number' ? String(list) : '';
          const own = viewer && (await lists.get(viewer, parseListId(id)).catch(() => null));
          if (!own) return say({ error: 'No such list', status: 404 });
          subscribed.set(`list:${own.id}`, ['list', own.id]);
        } else if (stream.startsWith('hashtag')) {
          if (typeof tag !== 'string' || !/^[\p{L}\p{N}_]{1,100}$/u.test(tag))
            return say({ error: 'A hashtag stream needs a tag' });
          subscribed.set(`hashtag:${tag.toLowerCase()}`, [stream, tag]);
        } else {
          if ((stream === 'user' || stream === 'user:notification') && viewer && lastNotification === null) {
            // Read before the subscription counts: notifications from then on are this socket's to send.
            const [newest] = (await notifications.list(viewer, { limit: 1 })).items;
            lastNotification ??= newest ? BigInt(newest.id) : 0n;
          }
          subscribed.set(stream.startsWith('public') ? 'public' : stream, [stream]);
        }
        recount();
      };

      // Subscribe and unsubscribe messages in the order sent (a list's subscription reads the list first).
      let subscriptions = Promise.resolve();
      const inOrder = (work: () => Promise<unknown>) => {
        subscriptions = subscriptions
          .then(async () => void (await work()))
          .catch((error) => request.log.warn({ err: error }, 'streaming subscription'));
        return subscriptions;
      };

      // Sent in order: each frame waits for the one before (statuses are read from the database).
      let chain = Promise.resolve();
      /** Whether a post event (new, edited, or its card arrived) belongs on the subscription `key`. */
      const shows = (
        key: string,
        event: Extract<LiveEvent, { type: 'post.created' | 'post.updated' | 'post.card' }>,
      ) =>
        key === 'user'
          ? event.timelines.includes('following')
          : key === 'public'
            ? event.timelines.includes('everyone')
            : key.startsWith('list:')
              ? (event.lists ?? []).includes(key.slice('list:'.length))
              : key.startsWith('hashtag:') &&
                event.post.visibility === 'public' &&
                !event.post.repostedBy &&
                hasTag(event.post.text, key.slice('hashtag:'.length));
      const deliver = async (event: LiveEvent) => {
        if (event.type === 'post.created' || event.type === 'post.updated') {
          // An edit goes as Mastodon's `status.update` on the streams the post would go to as new.
          const kind = event.type === 'post.created' ? 'update' : 'status.update';
          const payload = await statusPayload(event.post);
          for (const [key, stream] of subscribed) {
            if (shows(key, event) && socket.readyState === socket.OPEN)
              socket.send(updateMessage(stream, event.post, payload, kind));
          }
        } else if (event.type === 'post.card') {
          // Its link card arrived: Mastodon's `status.update` (the whole status again) on the streams it went to.
          let payload: string | null = null;
          for (const [key, stream] of subscribed) {
            if (!shows(key, event)) continue;
            payload ??= JSON.stringify(await present.status(null, event.post));
            say({ stream, event: 'status.update', payload });
          }
        } else if (event.type === 'post.deleted') {
          for (const [key, stream] of subscribed)
            if (key !== 'user:notification') say({ stream, event: 'delete', payload: event.id });
        } else if (event.type === 'conversation' && event.change === 'post' && viewer) {
          // A new post in one of the viewer's conversations: the Conversation as it now stands.
          const tags = subscribed.get('direct');
          if (!tags) return;
          const shown = await conversations.get(viewer, Number(event.id));
          if (!shown) return;
          const [conversation] = await present.conversations(viewer, [shown]);
          say({ stream: tags, event: 'conversation', payload: JSON.stringify(conversation) });
        } else if (event.type === 'notification' && viewer) {
          // Sent on each personal stream subscribed (apps open both on one socket and listen on each).
          if (!subscribed.has('user') && !subscribed.has('user:notification')) return;
          // The event names no notification: what is newer than the last one sent goes, oldest first, each once
          // (two made at once are two events, and the first to be read may already see both).
          const newest = (await notifications.list(viewer, { limit: NOTIFICATIONS_AT_ONCE })).items;
          const unsent = newest.filter((n) => lastNotification === null || BigInt(n.id) > lastNotification);
          // Newest first as listed: the first event sends the newest only, later ones all that are new, oldest first.
          const fresh = lastNotification === null ? unsent.slice(0, 1) : unsent.reverse();
          const latest = fresh[fresh.length - 1];
          if (!latest) return;
          lastNotification = BigInt(latest.id);
          for (const shown of await present.notifications(viewer, fresh)) {
            const payload = JSON.stringify(shown);
            for (const stream of ['user', 'user:notification']) {
              const tags = subscribed.get(stream);
              if (tags) say({ stream: tags, event: 'notification', payload });
            }
          }
        }
      };
      const client: StreamClient = {
        userId: viewer?.userId ?? null,
        address: request.ip,
        send(frame: string) {
          if (socket.readyState !== socket.OPEN || socket.bufferedAmount > config.stream.maxBufferedBytes) return false;
          const event = eventOf(frame);
          if (event) {
            chain = chain.then(() => deliver(event)).catch((error) => request.log.warn({ err: error }, 'streaming'));
          }
          return true;
        },
        close: () => socket.close(),
        // The token this socket was opened with: when it ends (revoked, signed out everywhere, a new
        // password, a suspension), the hub asks, and the socket is closed at once, in every process.
        ...(token ? { stillAuthorized: async () => (await oauth.resolve(token)) !== null } : {}),
      };
      const opened = hub.open(client);
      if (!opened.ok) {
        socket.close(1008, 'Too many live connections');
        return;
      }
      socket.on('close', () => {
        opened.close();
        subscribed.clear();
        recount();
      });
      onMessage = (raw: Buffer) => {
        let message: { type?: unknown; stream?: unknown; tag?: unknown; list?: unknown };
        try {
          message = JSON.parse(String(raw));
        } catch {
          return say({ error: 'Messages are JSON: {"type":"subscribe","stream":"user"}' });
        }
        if (message.type === 'subscribe') void inOrder(() => subscribe(message.stream, message.tag, message.list));
        else if (message.type === 'unsubscribe' && typeof message.stream === 'string') {
          const stream = message.stream;
          const key = stream.startsWith('hashtag')
            ? `hashtag:${String(message.tag ?? '').toLowerCase()}`
            : stream === 'list'
              ? `list:${String(message.list ?? '')}`
              : stream;
          void inOrder(async () => {
            subscribed.delete(key.startsWith('public') ? 'public' : key);
            recount();
          });
        } else say({ error: 'Unknown message type' });
      };
      for (const raw of early.splice(0)) onMessage(raw);
      const query = request.query as Record<string, unknown>;
      if (typeof query.stream === 'string') void inOrder(() => subscribe(query.stream, query.tag, query.list));
    },
  });
}
