import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const PING_TIMEOUT_MS = 2_000;

/**
 * 200 when the database answers within two seconds, 503 otherwise. With REDIS_URL, Redis is
 * reported too: when it does not answer the app still serves (from this process alone), so the
 * answer stays 200 with `status: 'degraded'` and `redis: 'unavailable'`.
 */
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
      if (!app.redis) return { status: 'ok', database: app.dbHandle.kind };
      const redisOk = await app.redis.healthy();
      return {
        status: redisOk ? 'ok' : 'degraded',
        database: app.dbHandle.kind,
        redis: redisOk ? 'ok' : 'unavailable',
      };
    } catch {
      return reply.code(503).send({ code: 'SERVICE_UNAVAILABLE', message: 'The database is not answering.' });
    } finally {
      clearTimeout(timer);
    }
  });
};
