/**
 * lib/event-cache.ts: what every in-process cache kept by events relies on. A value read before a
 * drop of its key is not kept; nothing is answered or kept while the bus is out of sync; a gap
 * empties it; and forgetting old drops to make room refuses the tickets they could have refused.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { EventCache } from '../../src/lib/event-cache.ts';
import { type EventBus, InProcessEventBus } from '../../src/lib/events.ts';

/** A bus whose sync the test decides (the Redis bus's is whether its subscription is live). */
class TestBus extends InProcessEventBus {
  synced = true;
  override get inSync(): boolean {
    return this.synced;
  }
}

const newBus = () => new TestBus(pino({ level: 'silent' }));
const cacheOn = (bus: EventBus, max = 100) => new EventCache<number, string>(bus, { max, ttlMs: 60_000 });

describe('EventCache', () => {
  it('keeps a value read with a fresh ticket, and answers it', () => {
    const cache = cacheOn(newBus());
    cache.set(1, 'one', cache.ticket());
    expect(cache.get(1)).toBe('one');
    expect(cache.get(2)).toBeUndefined();
  });

  it('refuses a value read before its key was dropped (a read racing a write)', () => {
    const cache = cacheOn(newBus());
    const ticket = cache.ticket(); // the read starts…
    cache.drop(1); // …a write's event arrives…
    cache.set(1, 'stale', ticket); // …and the read's old value must not be kept
    expect(cache.get(1)).toBeUndefined();
    // Other keys read with the same ticket are kept: their values were not changed.
    cache.set(2, 'two', ticket);
    expect(cache.get(2)).toBe('two');
    // A read started after the drop is kept.
    cache.set(1, 'fresh', cache.ticket());
    expect(cache.get(1)).toBe('fresh');
  });

  it('dropWhere drops what matches and refuses every read started before it', () => {
    const cache = cacheOn(newBus());
    cache.set(1, 'alice', cache.ticket());
    cache.set(2, 'bob', cache.ticket());
    const ticket = cache.ticket();
    cache.dropWhere((value) => value === 'alice');
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(2)).toBe('bob');
    // A key not cached yet may hold what `match` would have picked: its racing read is refused too.
    cache.set(3, 'alice', ticket);
    expect(cache.get(3)).toBeUndefined();
  });

  it('refuses every older ticket once a drop it could race was forgotten to make room', () => {
    const cache = cacheOn(newBus(), 2);
    const ticket = cache.ticket();
    cache.drop(1);
    cache.drop(2);
    cache.drop(3); // the drop of 1 is forgotten
    cache.set(1, 'stale', ticket);
    expect(cache.get(1)).toBeUndefined();
    cache.set(1, 'fresh', cache.ticket());
    expect(cache.get(1)).toBe('fresh');
  });

  it('answers and keeps nothing while the bus is out of sync, and is emptied by the gap', () => {
    const bus = newBus();
    const cache = cacheOn(bus);
    cache.set(1, 'before', cache.ticket());
    bus.synced = false; // Redis away: other processes' events may be missed
    expect(cache.get(1)).toBeUndefined();
    cache.set(2, 'during', cache.ticket());
    const ticket = cache.ticket();
    bus.synced = true;
    bus.resync(); // back, with a gap
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(2)).toBeUndefined();
    expect(cache.size).toBe(0);
    // A read started before the gap is not kept either.
    cache.set(3, 'read during the outage', ticket);
    expect(cache.get(3)).toBeUndefined();
  });
});
