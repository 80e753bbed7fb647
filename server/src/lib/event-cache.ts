import { LRUCache } from 'lru-cache';
import type { EventBus } from './events.ts';

export interface EventCacheOptions {
  /** Entries kept at most (least recently used leave first). */
  max: number;
  /** How long an entry lives at most: the safety net for an event that never arrived. */
  ttlMs: number;
}

/**
 * An in-process cache whose entries the events keep right: whoever owns it drops an entry on the
 * event that changes it (published after each commit, in every process: lib/events.ts), and an
 * entry lives `ttlMs` at most.
 *
 * - A value read from the database before its key was dropped is not kept: take a `ticket()`
 *   before the read and hand it to `set`, and a read racing a write cannot put the old value back.
 * - While the bus cannot promise every process's events (Redis is away: `events.inSync` is false)
 *   the cache answers nothing and keeps nothing, and it is emptied when the events come back (the
 *   bus's gap), so nothing kept from before the outage outlives it.
 */
export class EventCache<K extends {}, V extends {}> {
  private readonly entries: LRUCache<K, V>;
  /** The sequence number of each key's latest drop, for `set`'s race check. */
  private readonly drops: LRUCache<K, number>;
  private seq = 0;
  /** Tickets older than this are refused: the cache was emptied, or a drop was forgotten, after them. */
  private floor = 0;

  constructor(
    private readonly events: EventBus,
    options: EventCacheOptions,
  ) {
    this.entries = new LRUCache<K, V>({ max: options.max, ttl: options.ttlMs });
    this.drops = new LRUCache<K, number>({
      max: options.max,
      // A drop forgotten to make room can no longer refuse the reads it raced: refuse every older ticket.
      dispose: (seq, _key, reason) => {
        if (reason === 'evict' && seq > this.floor) this.floor = seq;
      },
    });
    events.onGap(() => this.clear());
  }

  get(key: K): V | undefined {
    return this.events.inSync ? this.entries.get(key) : undefined;
  }

  /** Taken before reading what `set` will keep. */
  ticket(): number {
    return this.seq;
  }

  /** Keeps `value` unless its key was dropped (or the cache emptied) since `ticket` was taken. */
  set(key: K, value: V, ticket: number): void {
    if (!this.events.inSync || ticket < this.floor) return;
    const dropped = this.drops.get(key);
    if (dropped !== undefined && dropped > ticket) return;
    this.entries.set(key, value);
  }

  drop(key: K): void {
    this.seq++;
    this.entries.delete(key);
    this.drops.set(key, this.seq);
  }

  /** Drops every entry `match` picks (rare events: a profile edited, a session ended). */
  dropWhere(match: (value: V, key: K) => boolean): void {
    const matched: K[] = [];
    for (const [key, value] of this.entries.entries()) if (match(value, key)) matched.push(key);
    for (const key of matched) this.drop(key);
    // Reads in flight may bring back values `match` would pick under keys not cached yet.
    this.floor = ++this.seq;
  }

  clear(): void {
    this.entries.clear();
    this.drops.clear();
    this.floor = ++this.seq;
  }

  get size(): number {
    return this.entries.size;
  }
}
