import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { RedisConnection } from './redis.ts';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
/** The plugin's store interface, with the `read` its `{increment: false}` calls (both its stores have it). */
type Store = FastifyRateLimitStore & {
  read(key: string, callback: Callback, timeWindow: number, max: number): void;
};
type StoreConstructor = new (continueExceeding: boolean, exponentialBackoff: boolean, ...rest: unknown[]) => Store;

// The plugin's own two stores: not in its typings, but part of the package it ships.
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreConstructor;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreConstructor;

/**
 * Rate-limit counters in Redis, shared by every process (the plugin's RedisStore, its atomic Lua
 * INCR + PEXPIRE), that fall back to counting in this process while Redis is away: a sign-in
 * flood during an outage is still limited, per process, instead of waved through.
 */
export function sharedRateLimitStore(redis: RedisConnection, localEntries: number): FastifyRateLimitStoreCtor {
  return class SharedStore implements Store {
    private readonly shared: Store;
    private readonly local: Store;

    // Pipit uses neither continueExceeding nor exponentialBackoff (plugins/rate-limit.ts).
    constructor() {
      this.shared = new RedisStore(false, false, redis.commands, `${redis.prefix}rate-limit:`);
      this.local = new LocalStore(false, false, localEntries);
    }

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      this.shared.incr(
        key,
        (error, result) => (error ? this.local.incr(key, callback, timeWindow, max) : callback(null, result)),
        timeWindow,
        max,
      );
    }

    read(key: string, callback: Callback, timeWindow: number, max: number): void {
      this.shared.read(
        key,
        (error, result) => (error ? this.local.read(key, callback, timeWindow, max) : callback(null, result)),
        timeWindow,
        max,
      );
    }

    child(): Store {
      return this; // Keys carry their bucket already (plugins/rate-limit.ts).
    }
  };
}
