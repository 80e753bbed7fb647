import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { KeptBody } from '../lib/compression.ts';
import type { DomainEventType } from '../lib/events.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Serialized answers that every visitor gets alike (the Everyone timeline). */
    sharedCache: SharedCache;
  }
}

/**
 * A small in-process cache of serialized answers, dropped by the events that change them and after
 * `ttlMs` (which bounds staleness when several processes serve one database: each only hears its
 * own writes). Concurrent misses for one key share one computation.
 */
export class SharedCache {
  private readonly entries = new Map<string, { body: KeptBody; expires: number }>();
  private readonly pending = new Map<string, Promise<KeptBody>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.pending.clear();
  }

  /** The answer kept under `key`, or `compute`d and kept (with its compressed forms: KeptBody). */
  async get(key: string, compute: () => Promise<string>): Promise<KeptBody> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.body;
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;

    const generation = this.generation;
    const promise = compute()
      .then((text) => {
        const body = new KeptBody(text);
        // A write that landed while this was computed may not be in it: use it once, keep it not.
        if (generation === this.generation) {
          if (this.entries.size >= this.maxEntries) this.entries.clear();
          this.entries.set(key, { body, expires: Date.now() + this.ttlMs });
        }
        return body;
      })
      .finally(() => {
        if (this.pending.get(key) === promise) this.pending.delete(key);
      });
    this.pending.set(key, promise);
    return promise;
  }
}

/** The events that change what a visitor can see on a cached page (posts, their counts, their authors). */
/** Every event type says whether it does (a new one does not compile until it is decided here). */
const VISIBLE_TO_VISITORS: Record<DomainEventType, boolean> = {
  'post.created': true,
  'post.deleted': true,
  'post.updated': true,
  'post.card': true,
  'post.liked': true,
  'post.unliked': true,
  'post.bookmarked': false,
  'post.unbookmarked': false,
  'user.followed': false,
  'user.unfollowed': false,
  'hashtag.followed': false,
  'hashtag.unfollowed': false,
  'user.updated': true,
  'visibility.changed': false,
  'user.suspended': true,
  'oauth.revoked': false,
  'feed.updated': false,
  'sessions.ended': false,
  'notifications.read': false,
  'notification.created': false,
  'conversation.updated': false,
  // Its counts, and its end.
  'poll.updated': true,
};

/** Visitors' cached pages are dropped by the events that change them (published after each commit). */
export const sharedCachePlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  const cache = new SharedCache(config.visitorCacheMs, 200);
  app.decorate('sharedCache', cache);
  const unsubscribe = app.services.events.subscribe((event) => {
    if (VISIBLE_TO_VISITORS[event.type]) cache.invalidate();
  });
  const unlisten = app.services.events.onGap(() => cache.invalidate());
  app.addHook('onClose', async () => {
    unsubscribe();
    unlisten();
  });
});
