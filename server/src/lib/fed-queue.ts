import { EventEmitter } from 'node:events';
import type {
  MessageQueue,
  MessageQueueDepth,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from '@fedify/fedify';
import { sql } from 'drizzle-orm';
import { type Database, type Executor, executeRows } from '../db/client.ts';
import { durationMs } from './fed-kv.ts';

export interface DatabaseMessageQueueOptions {
  /** The queue's name in `fed_queue` (several queues can share the table). */
  name?: string;
  /** How often a listener looks for messages it was not woken for (enqueued by another process). */
  pollMs?: number;
  /** A handler still running after this long is failed (and its message retried); 0: no limit. */
  handlerTimeoutMs?: number;
  /** Messages one `listen` handles at once (each one at a time per ordering key, whatever this is). */
  concurrency?: number;
  /** Runs of a message before it is given up (logged and deleted). */
  maxAttempts?: number;
  /** The wait before run `attempt + 1` after `attempt` failed runs (1, 2, …). */
  backoffMs?: (attempts: number) => number;
  /** Where a message given up, or a failure of the queue itself, is told. */
  onError?: (error: unknown, context: { message?: unknown; attempts?: number; gaveUp?: boolean }) => void;
}

/**
 * Fedify's default outbox curve: 1 s, doubling, at most 12 hours between runs; with the default ten
 * runs a message is given up some 8.5 minutes after the first (retries of deliveries to a server down
 * longer are the next slice's circuit breaker).
 */
export const exponentialBackoff = (attempts: number): number => Math.min(12 * 3_600_000, 1000 * 2 ** (attempts - 1));

/** Wakes this process's listeners of a queue when a message is enqueued here (others poll). */
const wakers = new WeakMap<Database, EventEmitter>();
function wakerOf(db: Database): EventEmitter {
  let emitter = wakers.get(db);
  if (!emitter) {
    emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    wakers.set(db, emitter);
  }
  return emitter;
}

interface Claimed {
  id: string;
  message: unknown;
  attempts: number;
  orderingKey: string | null;
}

/**
 * Fedify's message queue on the project's own database (the `fed_queue` table), the same on PostgreSQL
 * and the embedded PGlite: outgoing deliveries and incoming activities survive a restart, and any
 * process of a cluster may run them.
 *
 * - At least once: a listener takes a message by setting a lease (`locked_until`) in a short
 *   transaction (`FOR UPDATE SKIP LOCKED`, so two listeners never take the same one), runs the handler
 *   outside any transaction (a delivery is an HTTP request: holding a transaction over it would stall
 *   the embedded database, which runs one statement at a time), then deletes the row. A process that
 *   dies mid-way leaves the lease to expire and the message is taken again.
 * - Retries are the queue's own (`nativeRetrial`): a handler that throws puts the message back with
 *   `run_at` later (`backoffMs`), in its place, so what follows it with its ordering key keeps waiting.
 * - Delays: `run_at = now() + delay` on the database's clock, compared with `now()` when taking:
 *   never run before its time, whichever process's clock is ahead.
 * - Ordering keys: a message is taken only when no earlier message (lower id) with its key is left,
 *   running, waiting for a retry or delayed — a Delete never overtakes its Create. (Two processes
 *   enqueuing for one key at the same instant are ordered by their ids, not by their commits.)
 * - Enqueue wakes this process's listeners at once; others look every `pollMs`, or when the soonest
 *   delayed message is due.
 */
export class DatabaseMessageQueue implements MessageQueue {
  readonly nativeRetrial = true;
  private readonly name: string;
  private readonly pollMs: number;
  private readonly handlerTimeoutMs: number;
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: (attempts: number) => number;
  private readonly onError: NonNullable<DatabaseMessageQueueOptions['onError']>;

  constructor(
    private readonly db: Database,
    options: DatabaseMessageQueueOptions = {},
  ) {
    this.name = options.name ?? 'fedify';
    this.pollMs = options.pollMs ?? 1_000;
    this.handlerTimeoutMs = options.handlerTimeoutMs ?? 60_000;
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.maxAttempts = options.maxAttempts ?? 10;
    this.backoffMs = options.backoffMs ?? exponentialBackoff;
    this.onError = options.onError ?? (() => {});
  }

  // biome-ignore lint/suspicious/noExplicitAny: Fedify's interface takes any message.
  async enqueue(message: any, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueIn(this.db, [message], options);
    this.wake();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Fedify's interface takes any message.
  async enqueueMany(messages: readonly any[], options?: MessageQueueEnqueueOptions): Promise<void> {
    if (messages.length === 0) return;
    await this.enqueueIn(this.db, messages, options);
    this.wake();
  }

  /**
   * Enqueues in the caller's transaction (one statement; the messages' ids follow their order, so
   * with one ordering key they run in that order). Call `wake()` once it has committed.
   */
  async enqueueIn(db: Executor, messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    const delayMs = options?.delay ? durationMs(options.delay) : 0;
    if (delayMs < 0) throw new RangeError('The delay must not be negative.');
    await db.execute(sql`
      insert into fed_queue (queue, message, ordering_key, run_at)
      select ${this.name}, m.value, ${options?.orderingKey ?? null}::text, now() + make_interval(secs => ${delayMs / 1000})
      from jsonb_array_elements(${JSON.stringify(messages)}::jsonb) with ordinality as m(value, n)
      order by m.n`);
  }

  /** Tells this process's listeners that a message is waiting. */
  wake(): void {
    wakerOf(this.db).emit(this.name);
  }

  async getDepth(): Promise<MessageQueueDepth> {
    const [row] = await executeRows<{ queued: string | number; ready: string | number }>(
      this.db,
      sql`select count(*) as queued, count(*) filter (where run_at <= now()) as ready
          from fed_queue where queue = ${this.name} and (locked_until is null or locked_until < now())`,
    );
    const queued = Number(row?.queued ?? 0);
    const ready = Number(row?.ready ?? 0);
    return { queued, ready, delayed: queued - ready };
  }

  /**
   * Takes and handles messages until `signal` aborts (then resolves, after the messages in hand are
   * done). Never rejects: a failure of the database is told to `onError` and looked at again later.
   */
  async listen(
    // biome-ignore lint/suspicious/noExplicitAny: Fedify's interface hands any message.
    handler: (message: any) => Promise<void> | void,
    options: MessageQueueListenOptions = {},
  ): Promise<void> {
    const { signal } = options;
    if (signal?.aborted) return;
    const waker = wakerOf(this.db);
    // Each worker's "woken while looking" flag and the wake-up of its wait.
    const workers = new Set<{ woken: boolean; wakeUp: (() => void) | null }>();
    const onWake = () => {
      for (const w of workers) {
        w.woken = true;
        w.wakeUp?.();
      }
    };
    waker.on(this.name, onWake);
    signal?.addEventListener('abort', onWake);
    const worker = async () => {
      const self = { woken: false, wakeUp: null as (() => void) | null };
      workers.add(self);
      while (!signal?.aborted) {
        self.woken = false;
        let claimed: Claimed | null = null;
        try {
          claimed = await this.claim();
        } catch (error) {
          this.onError(error, {});
        }
        if (claimed) {
          await this.run(claimed, handler);
          continue;
        }
        if (self.woken || signal?.aborted) continue;
        const waitMs = await this.nextDueMs();
        if (self.woken || signal?.aborted) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, waitMs);
          function done() {
            clearTimeout(timer);
            resolve();
          }
          self.wakeUp = done;
        });
        self.wakeUp = null;
      }
      workers.delete(self);
    };
    try {
      await Promise.all(Array.from({ length: this.concurrency }, worker));
    } finally {
      waker.off(this.name, onWake);
      signal?.removeEventListener('abort', onWake);
    }
  }

  /**
   * Runs every message due now with `handler` and returns how many ran (tests drive the queue by
   * hand with it, without a listener).
   */
  async drain(handler: (message: unknown) => Promise<void> | void): Promise<number> {
    let ran = 0;
    for (;;) {
      const claimed = await this.claim();
      if (!claimed) return ran;
      await this.run(claimed, handler);
      ran++;
    }
  }

  /** Takes the next due message (its lease written and committed), or null. */
  private async claim(): Promise<Claimed | null> {
    const leaseSeconds = (this.handlerTimeoutMs > 0 ? this.handlerTimeoutMs * 2 : 3_600_000) / 1000;
    const [row] = await executeRows<{
      id: string | number;
      message: unknown;
      attempts: number;
      ordering_key: string | null;
    }>(
      this.db,
      sql`
      update fed_queue set locked_until = now() + make_interval(secs => ${leaseSeconds})
      where id = (
        select q.id from fed_queue q
        where q.queue = ${this.name} and q.run_at <= now() and (q.locked_until is null or q.locked_until < now())
          and (q.ordering_key is null or not exists (
            select 1 from fed_queue e where e.queue = q.queue and e.ordering_key = q.ordering_key and e.id < q.id))
        order by q.run_at, q.id
        limit 1
        for update skip locked)
      returning id, message, attempts, ordering_key`,
    );
    if (!row) return null;
    // Both drivers parse jsonb (a JSON string message arrives as a string).
    return { id: String(row.id), message: row.message, attempts: Number(row.attempts), orderingKey: row.ordering_key };
  }

  private async run(claimed: Claimed, handler: (message: unknown) => Promise<void> | void): Promise<void> {
    try {
      await withTimeout(
        Promise.resolve().then(() => handler(claimed.message)),
        this.handlerTimeoutMs,
      );
    } catch (error) {
      await this.failed(claimed, error);
      return;
    }
    try {
      await this.db.execute(sql`delete from fed_queue where id = ${claimed.id}`);
    } catch (error) {
      // The lease runs out and the message runs again: at least once.
      this.onError(error, { message: claimed.message });
      return;
    }
    // The next message with its key may have been waiting for this one.
    if (claimed.orderingKey !== null) this.wake();
  }

  private async failed(claimed: Claimed, error: unknown): Promise<void> {
    const attempts = claimed.attempts + 1;
    const gaveUp = attempts >= this.maxAttempts;
    this.onError(error, { message: claimed.message, attempts, gaveUp });
    try {
      if (gaveUp) {
        await this.db.execute(sql`delete from fed_queue where id = ${claimed.id}`);
      } else {
        await this.db.execute(sql`
          update fed_queue set attempts = ${attempts}, locked_until = null, last_error = ${String(error).slice(0, 500)},
            run_at = now() + make_interval(secs => ${this.backoffMs(attempts) / 1000})
          where id = ${claimed.id}`);
        // The retry may be due sooner than the next poll of a waiting listener.
        this.wake();
      }
    } catch (storeError) {
      this.onError(storeError, { message: claimed.message });
    }
  }

  /**
   * How long to wait before looking again: until the soonest delayed message is due, at most `pollMs`
   * (messages due now that could not be taken wait for a wake-up: the message before them with their
   * ordering key is done, or retried, in this process; or for the poll: another process's work).
   */
  private async nextDueMs(): Promise<number> {
    try {
      const [row] = await executeRows<{ ms: number | string | null }>(
        this.db,
        sql`select extract(epoch from (min(run_at) - now())) * 1000 as ms
            from fed_queue where queue = ${this.name} and run_at > now()`,
      );
      const ms = row?.ms;
      if (ms === null || ms === undefined) return this.pollMs;
      return Math.min(this.pollMs, Math.max(0, Math.ceil(Number(ms))));
    } catch (error) {
      this.onError(error, {});
      return this.pollMs;
    }
  }
}

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  if (ms <= 0) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The message's handler was still running after ${ms} ms.`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
