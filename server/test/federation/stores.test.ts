import type { KvStoreSetOptions } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { executeRows } from '../../src/db/client.ts';
import { DatabaseKvStore } from '../../src/lib/fed-kv.ts';
import { DatabaseMessageQueue } from '../../src/lib/fed-queue.ts';
import { useTestApp } from '../helpers/app.ts';

/**
 * Fedify's KvStore and MessageQueue contracts (@fedify/fedify's kv.d.ts and mq.d.ts) on the project's
 * database, PGlite or PostgreSQL. Time is controlled, never waited for: a delay or ttl is checked on the
 * stored due time, and "time passes" by moving that time into the past.
 */
/** Every entry of a KvStore list (Array.fromAsync is ES2024; the project targets ES2023). */
async function collect<T>(entries: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const entry of entries) all.push(entry);
  return all;
}

/** A Temporal.Duration as Fedify hands one (the polyfill's, typed as the TypeScript library's Temporal). */
const duration = (like: Temporal.DurationLike) =>
  Temporal.Duration.from(like) as unknown as NonNullable<KvStoreSetOptions['ttl']>;

describe('federation key–value store (fed_kv)', () => {
  const ctx = useTestApp();
  const kv = () => new DatabaseKvStore(ctx.db.db);
  /** As if `key`'s ttl had run out. */
  const expire = (key: string[]) =>
    ctx.db.db.execute(
      sql`update fed_kv set expires_at = now() - interval '1 second' where key = ${`{${key.join(',')}}`}::text[]`,
    );

  it('answers undefined for a missing key, and what was set (any JSON) for a present one', async () => {
    const store = kv();
    expect(await store.get(['missing'])).toBeUndefined();
    const value = { a: [1, 'two', null, true], nested: { s: 'quote " and \\ backslash' } };
    await store.set(['doc', 'https://remote.test/users/a'], value);
    expect(await store.get(['doc', 'https://remote.test/users/a'])).toEqual(value);
    // A key is the whole array: neither its prefix nor a longer key is it.
    expect(await store.get(['doc'])).toBeUndefined();
    expect(await store.get(['doc', 'https://remote.test/users/a', 'x'])).toBeUndefined();
    await store.set(['flag'], false);
    expect(await store.get(['flag'])).toBe(false);
    await store.set(['flag'], true);
    expect(await store.get(['flag'])).toBe(true);
    await store.delete(['flag']);
    expect(await store.get(['flag'])).toBeUndefined();
    // Deleting nothing is no error.
    await store.delete(['flag']);
  });

  it('keeps an entry with a ttl until then (its stored expiry), and reads it as absent after', async () => {
    const store = kv();
    await store.set(['cached'], 'v', { ttl: duration({ hours: 1 }) });
    const [row] = await executeRows<{ seconds: string }>(
      ctx.db.db,
      sql`select extract(epoch from expires_at - now())::text as seconds from fed_kv`,
    );
    expect(Number(row?.seconds)).toBeGreaterThan(3590);
    expect(Number(row?.seconds)).toBeLessThanOrEqual(3600);
    expect(await store.get(['cached'])).toBe('v');
    await expire(['cached']);
    expect(await store.get(['cached'])).toBeUndefined();
    expect(await collect(store.list(['cached']))).toEqual([]);
    // Setting again without a ttl keeps it for good.
    await store.set(['cached'], 'w');
    expect(await store.get(['cached'])).toBe('w');
  });

  it('compares and swaps: only from the expected value, absent meaning undefined', async () => {
    const store = kv();
    expect(await store.cas(['k'], 'other', 'x')).toBe(false);
    expect(await store.get(['k'])).toBeUndefined();
    expect(await store.cas(['k'], undefined, { n: 1 })).toBe(true);
    expect(await store.cas(['k'], undefined, { n: 2 })).toBe(false);
    expect(await store.get(['k'])).toEqual({ n: 1 });
    expect(await store.cas(['k'], { n: 2 }, { n: 3 })).toBe(false);
    expect(await store.cas(['k'], { n: 1 }, { n: 3 })).toBe(true);
    expect(await store.get(['k'])).toEqual({ n: 3 });
    expect(await store.cas(['k'], { n: 3 }, undefined)).toBe(true);
    expect(await store.get(['k'])).toBeUndefined();
    // An expired entry counts as absent.
    await store.set(['k'], 'old', { ttl: duration({ minutes: 5 }) });
    await expire(['k']);
    expect(await store.cas(['k'], 'old', 'new')).toBe(false);
    expect(await store.cas(['k'], undefined, 'new')).toBe(true);
    expect(await store.get(['k'])).toBe('new');
    // Of two racing swaps from one value, one wins.
    const results = await Promise.all([store.cas(['k'], 'new', 'a'), store.cas(['k'], 'new', 'b')]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('lists the live entries under a prefix, the prefix key itself included', async () => {
    const store = kv();
    await store.set(['a'], 0);
    await store.set(['a', 'b'], 1);
    await store.set(['a', 'b', 'c'], 2);
    await store.set(['a', 'c'], 3);
    await store.set(['ab'], 4);
    await store.set(['a', 'gone'], 5, { ttl: duration({ seconds: 30 }) });
    await expire(['a', 'gone']);
    const keys = async (prefix?: string[]) =>
      (await collect(store.list(prefix as [string] | undefined))).map((e) => e.key.join('/')).sort();
    expect(await keys(['a'])).toEqual(['a', 'a/b', 'a/b/c', 'a/c']);
    expect(await keys(['a', 'b'])).toEqual(['a/b', 'a/b/c']);
    expect(await keys(['zzz'])).toEqual([]);
    expect(await keys()).toEqual(['a', 'a/b', 'a/b/c', 'a/c', 'ab']);
    const [entry] = await collect(store.list(['a', 'b', 'c']));
    expect(entry).toEqual({ key: ['a', 'b', 'c'], value: 2 });
  });
});

describe('federation message queue (fed_queue)', () => {
  const ctx = useTestApp();
  const queue = (options: ConstructorParameters<typeof DatabaseMessageQueue>[1] = {}) =>
    new DatabaseMessageQueue(ctx.db.db, { pollMs: 60_000, ...options });
  const rows = () =>
    executeRows<{ message: unknown; seconds: string; attempts: number; ordering_key: string | null }>(
      ctx.db.db,
      sql`select message, extract(epoch from run_at - now())::text as seconds, attempts, ordering_key
          from fed_queue order by id`,
    );
  /** As if every message's time had come. */
  const timePasses = () => ctx.db.db.execute(sql`update fed_queue set run_at = now() - interval '1 second'`);

  /** Listens until `count` messages were handled (a signal, not a sleep), then stops. */
  async function listenFor(
    q: DatabaseMessageQueue,
    count: number,
    handler: (message: unknown) => void | Promise<void> = () => {},
  ) {
    const seen: unknown[] = [];
    const controller = new AbortController();
    let done!: () => void;
    const enough = new Promise<void>((resolve) => {
      done = resolve;
    });
    const listening = q.listen(
      async (message) => {
        await handler(message);
        seen.push(message);
        if (seen.length >= count) done();
      },
      { signal: controller.signal },
    );
    return {
      seen,
      async stop() {
        await enough;
        controller.abort();
        await listening;
        return seen;
      },
    };
  }

  it('delivers an enqueued message to a listener, and a batch from enqueueMany', async () => {
    const q = queue();
    const listening = await listenFor(q, 4);
    await q.enqueue({ hello: 'world' });
    await q.enqueueMany(['one', 'two', 'three']);
    const seen = await listening.stop();
    expect(seen[0]).toEqual({ hello: 'world' });
    expect(new Set(seen.slice(1))).toEqual(new Set(['one', 'two', 'three']));
    expect(await rows()).toEqual([]);
  });

  it('keeps a delayed message until its time (its stored due time), then delivers it', async () => {
    const q = queue();
    await q.enqueue('later', { delay: duration({ minutes: 10 }) });
    await q.enqueueMany(['batch later'], { delay: duration({ seconds: 90 }) });
    await q.enqueue('now');
    const [later, batch] = await rows();
    expect(Number(later?.seconds)).toBeGreaterThan(590);
    expect(Number(later?.seconds)).toBeLessThanOrEqual(600);
    expect(Number(batch?.seconds)).toBeGreaterThan(80);
    expect(Number(batch?.seconds)).toBeLessThanOrEqual(90);
    // Only the undelayed one is due.
    const handled: unknown[] = [];
    expect(await q.drain((m) => void handled.push(m))).toBe(1);
    expect(handled).toEqual(['now']);
    expect(await q.getDepth()).toEqual({ queued: 2, ready: 0, delayed: 2 });
    await timePasses();
    expect(await q.drain((m) => void handled.push(m))).toBe(2);
    expect(handled).toEqual(['now', 'later', 'batch later']);
  });

  it('refuses a negative delay', async () => {
    await expect(queue().enqueue('x', { delay: duration({ seconds: -1 }) })).rejects.toThrow(RangeError);
    expect(await rows()).toEqual([]);
  });

  it('keeps ordering keys: a message waits for every earlier one with its key, even one being retried', async () => {
    const q = queue({ backoffMs: () => 3_600_000 });
    await q.enqueue({ key: 'post-1', type: 'Create' }, { orderingKey: 'post-1' });
    await q.enqueue({ key: 'post-2', type: 'Create' }, { orderingKey: 'post-2' });
    await q.enqueue({ key: 'post-1', type: 'Delete' }, { orderingKey: 'post-1' });
    await q.enqueue({ key: null, type: 'Like' });
    const handled: string[] = [];
    let failCreate = true;
    const handler = (m: unknown) => {
      const { key, type } = m as { key: string | null; type: string };
      if (key === 'post-1' && type === 'Create' && failCreate) throw new Error('remote server down');
      handled.push(`${type} ${key}`);
    };
    // post-1's Create fails: it goes back for later, and post-1's Delete may not pass it.
    expect(await q.drain(handler)).toBe(3);
    expect(handled).toEqual(['Create post-2', 'Like null']);
    const waiting = await rows();
    expect(waiting.map((r) => [r.message, r.attempts])).toEqual([
      [{ key: 'post-1', type: 'Create' }, 1],
      [{ key: 'post-1', type: 'Delete' }, 0],
    ]);
    expect(Number(waiting[0]?.seconds)).toBeGreaterThan(3590);
    // Its retry comes: the Create, then the Delete.
    failCreate = false;
    await timePasses();
    expect(await q.drain(handler)).toBe(2);
    expect(handled).toEqual(['Create post-2', 'Like null', 'Create post-1', 'Delete post-1']);
  });

  it('keeps ordering keys with two listeners at once: each key in order, the others in parallel', async () => {
    const q1 = queue({ concurrency: 3 });
    const q2 = queue({ concurrency: 3 });
    const order: Record<string, number[]> = { a: [], b: [] };
    let handled = 0;
    let done!: () => void;
    const all = new Promise<void>((resolve) => {
      done = resolve;
    });
    const handler = async (m: unknown) => {
      const { key, n } = m as { key: string; n: number };
      // Yield, so that another worker could overtake if the queue let it.
      await new Promise((resolve) => setImmediate(resolve));
      order[key]?.push(n);
      if (++handled === 10) done();
    };
    const controller = new AbortController();
    const listening = [
      q1.listen(handler, { signal: controller.signal }),
      q2.listen(handler, { signal: controller.signal }),
    ];
    for (let n = 1; n <= 5; n++) {
      await q1.enqueue({ key: 'a', n }, { orderingKey: 'a' });
      await q2.enqueue({ key: 'b', n }, { orderingKey: 'b' });
    }
    await all;
    controller.abort();
    await Promise.all(listening);
    expect(order).toEqual({ a: [1, 2, 3, 4, 5], b: [1, 2, 3, 4, 5] });
  });

  it('retries a handler that throws, with backoff, and gives up after maxAttempts', async () => {
    const errors: Array<{ attempts?: number; gaveUp?: boolean }> = [];
    const q = queue({ maxAttempts: 3, onError: (_e, c) => void errors.push(c) });
    await q.enqueue('flaky');
    const throwing = () => {
      throw new Error('nope');
    };
    expect(await q.drain(throwing)).toBe(1);
    const [first] = await rows();
    expect(first?.attempts).toBe(1);
    // The first retry waits 1 s, the next 2 s (Fedify's curve).
    expect(Number(first?.seconds)).toBeGreaterThan(0);
    expect(Number(first?.seconds)).toBeLessThanOrEqual(1);
    expect(await q.drain(throwing)).toBe(0);
    await timePasses();
    expect(await q.drain(throwing)).toBe(1);
    expect(Number((await rows())[0]?.seconds)).toBeGreaterThan(1);
    await timePasses();
    expect(await q.drain(throwing)).toBe(1);
    expect(await rows()).toEqual([]);
    expect(errors.map((e) => [e.attempts, e.gaveUp])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
  });

  it('a listener retries by itself: a message that failed once is delivered when its retry is due', async () => {
    const q = queue({ backoffMs: () => 0 });
    let failures = 0;
    const listening = await listenFor(q, 1, (m) => {
      if (m === 'second time lucky' && failures === 0) {
        failures++;
        throw new Error('once');
      }
    });
    await q.enqueue('second time lucky');
    expect(await listening.stop()).toEqual(['second time lucky']);
    expect(failures).toBe(1);
  });

  it('two listeners deliver each message once', async () => {
    const q1 = queue({ concurrency: 2 });
    const q2 = queue({ concurrency: 2 });
    const count = 40;
    const seen: unknown[] = [];
    let done!: () => void;
    const all = new Promise<void>((resolve) => {
      done = resolve;
    });
    const handler = async (m: unknown) => {
      seen.push(m);
      if (seen.length === count) done();
    };
    const controller = new AbortController();
    const listening = [
      q1.listen(handler, { signal: controller.signal }),
      q2.listen(handler, { signal: controller.signal }),
    ];
    await q1.enqueueMany(Array.from({ length: count / 2 }, (_, i) => i));
    for (let i = count / 2; i < count; i++) await q2.enqueue(i);
    await all;
    controller.abort();
    await Promise.all(listening);
    expect([...seen].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(await rows()).toEqual([]);
  });

  it('a message taken by a listener that died is taken again when its lease runs out', async () => {
    const q = queue({ handlerTimeoutMs: 60_000 });
    await q.enqueue('orphan');
    // A listener takes it and its process dies before finishing: the row keeps its lease.
    await ctx.db.db.execute(sql`update fed_queue set locked_until = now() + interval '2 minutes'`);
    expect(await q.drain(() => {})).toBe(0);
    await ctx.db.db.execute(sql`update fed_queue set locked_until = now() - interval '1 second'`);
    const handled: unknown[] = [];
    expect(await q.drain((m) => void handled.push(m))).toBe(1);
    expect(handled).toEqual(['orphan']);
  });

  it('listen resolves when its signal aborts, and at once for an aborted signal', async () => {
    const q = queue();
    const controller = new AbortController();
    const listening = q.listen(() => {}, { signal: controller.signal });
    controller.abort();
    await expect(listening).resolves.toBeUndefined();
    await expect(q.listen(() => {}, { signal: controller.signal })).resolves.toBeUndefined();
  });
});
