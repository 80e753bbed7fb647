import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { RedisConnection } from '../lib/redis.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis when REDIS_URL is set (events, rate-limit counters), else null. */
    redis: RedisConnection | null;
  }
}

/** Connects to REDIS_URL when set; quits when the app closes (after the services that use it). */
export const redisPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  if (!config.redisUrl) {
    app.decorate('redis', null);
    return;
  }
  const redis = new RedisConnection(config.redisUrl, config.redisPrefix, app.log);
  await redis.connect();
  app.decorate('redis', redis);
  app.addHook('onClose', async () => redis.close());
});
