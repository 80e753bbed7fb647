import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const PING_TIMEOUT_MS = 2_000;

/** 200 when the database answers within two seconds, 503 otherwise. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        app.dbHandle.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('database ping timed out')), PING_TIMEOUT_MS);
        }),
      ]);
      return { status: 'ok', database: app.dbHandle.kind };
    } catch {
      return reply.code(503).send({ code: 'SERVICE_UNAVAILABLE', message: 'The database is not answering.' });
    } finally {
      clearTimeout(timer);
    }
  });
};
