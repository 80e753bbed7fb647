import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Config, RateLimit } from '../config.ts';
import { AppError } from '../lib/errors.ts';
import { sharedRateLimitStore } from '../lib/rate-limit-store.ts';

type Bucket = keyof Omit<Config['rateLimits'], 'enabled'>;
type KeyOf = (request: FastifyRequest) => string | null | undefined;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A preHandler that counts one hit against `bucket` for the key `keyOf` returns
     * (null skips counting) and answers 429 RATE_LIMITED with Retry-After past the limit.
     */
    limit(bucket: Bucket, keyOf: KeyOf): preHandlerAsyncHookHandler;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Where `limit` leaves the key it counts for the check's key generator. */
const KEY = Symbol('rate-limit key');
/** Counters kept in this process (the LRU store, or the fallback while Redis is away). */
const LOCAL_ENTRIES = 50_000;

/**
 * Limits of docs/spec/product.md §2, configurable. Counters live in process memory (@fastify/rate-limit's
 * LRU store), or with REDIS_URL in Redis, shared by every process (lib/rate-limit-store.ts). The client
 * IP is the socket address unless TRUST_PROXY is set.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  await app.register(rateLimit, {
    global: false,
    cache: LOCAL_ENTRIES,
    ...(app.redis ? { store: sharedRateLimitStore(app.redis, LOCAL_ENTRIES) } : {}),
  });

  // One counter set per bucket, whichever routes use it: each `createRateLimit` counts on its own, so
  // routes in different plugins limiting the same thing (every password check) must share one.
  const checks = new Map<Bucket, ReturnType<typeof app.createRateLimit>>();
  const checkFor = (bucket: Bucket) => {
    let check = checks.get(bucket);
    if (!check) {
      const limit: RateLimit = config.rateLimits[bucket];
      check = app.createRateLimit({
        max: limit.max,
        timeWindow: limit.windowMs,
        keyGenerator: (request: FastifyRequest) => `${bucket}:${(request as unknown as Record<symbol, string>)[KEY]}`,
      });
      checks.set(bucket, check);
    }
    return check;
  };

  app.decorate('limit', (bucket: Bucket, keyOf: KeyOf): preHandlerAsyncHookHandler => {
    const check = checkFor(bucket);
    return async function rateLimited(request, reply) {
      if (!config.rateLimits.enabled) return;
      const key = keyOf(request);
      if (key === null || key === undefined) return;
      (request as unknown as Record<symbol, string>)[KEY] = key;
      const result = await check(request);
      if (result.isAllowed || !result.isExceeded) return;
      reply.header('Retry-After', String(result.ttlInSeconds));
      throw new AppError('RATE_LIMITED', `Too many requests. Try again in ${result.ttlInSeconds} seconds.`);
    };
  });
});

/**
 * A preHandler for the product API's scope (app.ts): 300 state-changing calls per 5 minutes per
 * signed-in person (configurable). Reads are not counted.
 */
export function limitWrites(app: FastifyInstance): preHandlerAsyncHookHandler {
  const writes = app.limit('write', (request) => (request.viewer ? String(request.viewer.userId) : null));
  return async function writeLimit(request, reply) {
    if (UNSAFE.has(request.method)) await writes.call(app, request, reply);
  };
}
