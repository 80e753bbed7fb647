import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';

/**
 * While the server drains (SIGTERM → app.close()), answers close their connection, and requests that still arrive on open keep-alive
 * connections get 503 SERVICE_UNAVAILABLE through the error handler — with the security headers,
 * Retry-After and `Connection: close` — instead of Fastify's built-in 503, which has neither a
 * code nor the headers (return503OnClosing is off in app.ts for that reason). Registered after the
 * security headers and before anything that touches the database.
 */
export const shutdownPlugin = fp(async (app: FastifyInstance) => {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new AppError('SERVICE_UNAVAILABLE', 'The server is restarting. Try again shortly.');
  });
  // An in-flight request on a keep-alive connection finishes normally, but its connection must then
  // close: Fastify reaps only the connections idle when the drain starts, so one that becomes idle
  // later stayed open until its keep-alive timeout (72 s) and SIGTERM ended in the 10 s forced exit.
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
});
