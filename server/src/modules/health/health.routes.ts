import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { withTimeout } from '../../lib/timeout.ts';

const PING_TIMEOUT_MS = 2_000;

/**
 * 200 when the database answers within two seconds, 503 otherwise. With REDIS_URL, Redis is
 * reported too: when it does not answer the app still serves (from this process alone), so the
 * answer stays 200 with `status: 'degraded'` and `redis: 'unavailable'`.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    try {
      await withTimeout(app.dbHandle.ping(), PING_TIMEOUT_MS, 'database ping timed out');
    } catch {
      return reply.code(503).send({ code: 'SERVICE_UNAVAILABLE', message: 'The database is not answering.' });
    }
    if (!app.redis) return { status: 'ok', database: app.dbHandle.kind };
    const redisOk = await app.redis.healthy();
    return {
      status: redisOk ? 'ok' : 'degraded',
      database: app.dbHandle.kind,
      redis: redisOk ? 'ok' : 'unavailable',
    };
  });
};
