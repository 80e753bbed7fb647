import fastifySSE from '@fastify/sse';
import { endpoints } from '@pipit/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import { CACHE_PRIVATE } from '../../plugins/security.ts';
import type { StreamClient } from './stream.hub.ts';

/** How long a browser waits before reconnecting a dropped stream (the SSE `retry` field). */
const RETRY_MS = 3_000;

/**
 * GET /api/stream: live updates as Server-Sent Events (@fastify/sse: heartbeats, Last-Event-ID),
 * for the member of the session cookie or a visitor. See modules/stream/stream.hub.ts.
 */
export async function streamRoutes(app: FastifyInstance, { config }: { config: Config }) {
  await app.register(fastifySSE, { heartbeatInterval: config.stream.heartbeatMs });

  app.route({
    method: endpoints.stream.method,
    url: endpoints.stream.path,
    // 'manual': no Accept negotiation (its 406 would not be the contract's error shape).
    sse: { kind: 'manual' },
    handler: async (request, reply) => {
      const hub = app.services.stream;
      const sse = reply.sse;
      const client: StreamClient = {
        userId: request.viewer?.userId ?? null,
        address: request.ip,
        send(frame: string) {
          if (!sse.isConnected) return false;
          // A reader this far behind is dropped rather than buffered without bound.
          if (reply.raw.writableLength > config.stream.maxBufferedBytes) return false;
          // Framed once by the hub for every stream it goes to, encoded once, written as it is.
          reply.raw.write(bytesOf(frame));
          return true;
        },
        close: () => sse.close(),
        // The session this stream was opened with: signed out everywhere, a new password, a
        // suspension — the stream closes at once (the hub asks when the member's sessions end).
        ...(request.sessionToken && request.viewer
          ? {
              stillAuthorized: async () => (await app.services.sessions.resolve(request.sessionToken)) !== null,
            }
          : {}),
      };
      const opened = hub.open(client);
      if (!opened.ok) {
        throw new AppError(
          'RATE_LIMITED',
          opened.reason === 'member'
            ? `Too many live connections: at most ${config.stream.maxPerMember} at once. Close a tab and try again.`
            : `Too many live connections from this address: at most ${config.stream.maxPerAddress}.`,
        );
      }
      sse.keepAlive();
      sse.onClose(opened.close);
      reply.header('Cache-Control', CACHE_PRIVATE);
      sse.sendHeaders();
      reply.raw.write(`retry: ${RETRY_MS}\n: connected\n\n`);
      if (sse.lastEventId) await hub.replay(client, sse.lastEventId);
    },
  });
}

/** The last frame's bytes: the hub writes one frame to every stream in turn, so it is encoded once, not per stream. */
let lastFrame = { text: '', bytes: Buffer.alloc(0) };
function bytesOf(frame: string): Buffer {
  if (lastFrame.text !== frame) lastFrame = { text: frame, bytes: Buffer.from(frame) };
  return lastFrame.bytes;
}
