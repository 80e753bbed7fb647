import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Database, type Executor, executeRows, type Tx } from '../db/client.ts';
import { type EventBus, Outbox } from './events.ts';

/**
 * What a timed job does when its time comes, inside the transaction that deletes its row: whatever
 * it writes commits together with that deletion (so it happens exactly once, even with several
 * processes on one database), and what it adds to `outbox` is published after the commit.
 */
export type TimedJobHandler = (tx: Tx, outbox: Outbox, payload: Record<string, unknown>) => Promise<void>;

export interface TimedJobsOptions {
  /**
   * How often each process looks for due jobs when it knows of none sooner (jobs another process
   * scheduled). 0: never on its own — only `runDue()` runs them (tests drive them by hand).
   */
  pollMs: number;
}

/** A failed job is tried again after 2^attempts seconds, at most this long. */
const MAX_BACKOFF_SECONDS = 3600;
/** Jobs run per look (one transaction each); more wait for the next, which comes at once. */
const BATCH = 50;

/**
 * Durable work due at a given time (a poll's end, a scheduled post's publication), on the project's
 * own database — PostgreSQL or the embedded PGlite alike, where pg-boss (lib/queue.ts) needs a
 * server. A job is a `timed_jobs` row written in the transaction of the change that needs it (it
 * exists exactly when the change does), keyed by (kind, key) so a change rescheduling it replaces
 * it. Every process looks for due rows (`run_at <= now()` on the database's clock: never before its
 * time) and runs each in one transaction with `FOR UPDATE SKIP LOCKED`: the handler's writes and the
 * row's deletion commit together, so a job runs once in a cluster, and one whose process died
 * mid-way is rolled back and run by the next look. A handler that throws is retried with backoff.
 */
export class TimedJobs {
  private readonly handlers = new Map<string, TimedJobHandler>();
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires (ms since epoch), to know whether a sooner job needs it moved. */
  private timerAt = Number.POSITIVE_INFINITY;
  private running: Promise<void> | null = null;
  private started = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly log: FastifyBaseLogger,
    private readonly options: TimedJobsOptions,
  ) {}

  /** What to do with jobs of `kind`; register every kind before `start`. */
  register(kind: string, handler: TimedJobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Starts looking for due jobs in this process (unless pollMs is 0). */
  start(): void {
    if (this.options.pollMs <= 0 || this.started) return;
    this.started = true;
    this.arm(0);
  }

  /**
   * Schedules (or reschedules) the job `kind`/`key` at `runAt` in the caller's transaction, and has
   * this process look for it at that time once the transaction has committed (`outbox`'s after-commit
   * work: no caller has to remember to wake the runner).
   */
  async scheduleIn(
    db: Executor,
    outbox: Outbox,
    kind: string,
    key: string,
    runAt: Date,
    payload: Record<string, unknown>,
  ) {
    await db.execute(sql`
      insert into timed_jobs (kind, key, run_at, payload)
      values (${kind}, ${key}, ${runAt.toISOString()}::timestamptz, ${JSON.stringify(payload)}::jsonb)
      on conflict (kind, key) do update set run_at = excluded.run_at, payload = excluded.payload, attempts = 0,
        last_error = null`);
    outbox.afterCommit(() => this.wake(runAt));
  }

  /** Removes the job `kind`/`key` (nothing when there is none), in the caller's transaction. */
  async cancelIn(db: Executor, kind: string, key: string): Promise<void> {
    await db.execute(sql`delete from timed_jobs where kind = ${kind} and key = ${key}`);
  }

  /** When the job `kind`/`key` is due, or null when there is none (tests, admin views). */
  async dueAt(kind: string, key: string): Promise<Date | null> {
    const [row] = await executeRows<{ run_at: string | Date }>(
      this.db,
      sql`select run_at from timed_jobs where kind = ${kind} and key = ${key}`,
    );
    return row ? new Date(row.run_at) : null;
  }

  /** A job due at `runAt` was scheduled and committed: look for it then rather than at the next poll. */
  private wake(runAt: Date): void {
    if (!this.started || this.stopped) return;
    const at = runAt.getTime();
    if (at < this.timerAt) this.arm(Math.max(0, at - Date.now()));
  }

  /**
   * Runs every job due now (this process's registered kinds), one transaction each, and returns how
   * many ran. Tests call it to run due jobs without waiting for a timer.
   */
  async runDue(): Promise<number> {
    // One look at a time per process: a second caller waits for the first, then looks itself.
    if (this.running) {
      await this.running;
      return this.runDue();
    }
    let ran = 0;
    const work = (async () => {
      for (;;) {
        const batch = await this.runBatch();
        ran += batch;
        if (batch < BATCH || this.stopped) break;
      }
    })();
    this.running = work.finally(() => {
      this.running = null;
    });
    await this.running;
    return ran;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private async runBatch(): Promise<number> {
    const kinds = [...this.handlers.keys()];
    if (kinds.length === 0) return 0;
    let ran = 0;
    for (; ran < BATCH && !this.stopped; ran++) {
      const outcome = await this.runOne(kinds);
      if (outcome === 'none') break;
    }
    return ran;
  }

  /** Takes one due job and runs it: 'ran', 'failed' (retried later) or 'none' (nothing due). */
  private async runOne(kinds: string[]): Promise<'ran' | 'failed' | 'none'> {
    const outbox = new Outbox();
    const taken: { job: { id: string; kind: string; attempts: number } | null } = { job: null };
    try {
      await this.db.transaction(async (tx) => {
        const [row] = await executeRows<{ id: string; kind: string; attempts: number; payload: unknown }>(
          tx,
          sql`select id, kind, attempts, payload from timed_jobs
              where run_at <= now() and kind in ${kindList(kinds)}
              order by run_at, id limit 1 for update skip locked`,
        );
        if (!row) return;
        taken.job = { id: String(row.id), kind: row.kind, attempts: Number(row.attempts) };
        const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
        await (this.handlers.get(row.kind) as TimedJobHandler)(tx, outbox, payload as Record<string, unknown>);
        await tx.execute(sql`delete from timed_jobs where id = ${taken.job.id}`);
      });
    } catch (error) {
      const job = taken.job;
      if (!job) throw error;
      const delay = Math.min(MAX_BACKOFF_SECONDS, 2 ** Math.min(job.attempts, 12));
      this.log.error({ err: error, job: job.kind, attempts: job.attempts + 1 }, 'timed job failed');
      await this.db.execute(sql`
        update timed_jobs set attempts = attempts + 1, last_error = ${String(error).slice(0, 500)},
          run_at = now() + make_interval(secs => ${delay})
        where id = ${job.id}`);
      return 'failed';
    }
    if (!taken.job) return 'none';
    await outbox.publishTo(this.events);
    return 'ran';
  }

  /** Sets the timer to look again in `ms` (replacing a later one). */
  private arm(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = Date.now() + ms;
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
    try {
      await this.runDue();
    } catch (error) {
      this.log.warn({ err: error }, 'looking for due timed jobs failed');
    }
    if (this.stopped || this.timer) return;
    // The next look: the soonest job this process can run, or the poll interval, whichever is first.
    let next = this.options.pollMs;
    try {
      const [row] = await executeRows<{ ms: number | string | null }>(
        this.db,
        sql`select extract(epoch from (min(run_at) - now())) * 1000 as ms from timed_jobs
            where kind in ${kindList([...this.handlers.keys(), ''])}`,
      );
      const ms = row?.ms;
      if (ms !== null && ms !== undefined) next = Math.min(next, Math.max(0, Math.ceil(Number(ms))));
    } catch (error) {
      this.log.warn({ err: error }, 'looking for the next timed job failed');
    }
    if (!this.timer) this.arm(next);
  }
}

/** `(k1, k2, …)` for an `in` test. */
const kindList = (kinds: string[]) =>
  sql`(${sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  )})`;
