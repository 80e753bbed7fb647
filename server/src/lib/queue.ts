import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Tx } from '../db/client.ts';

export interface QueueOptions {
  /** An active job whose process died is retried this long after it started (pg-boss expiry). */
  expireInSeconds: number;
  /** How often the expiry check runs (pg-boss maintenance). */
  maintenanceIntervalSeconds: number;
}

/**
 * Durable background jobs on PostgreSQL (pg-boss): a job is a row, enqueued in the transaction of
 * the change that needs it (`insertIn`: it exists exactly when the change does), picked up by the
 * workers of any server process (SKIP LOCKED), retried with backoff on failure, and — when the
 * process running it is killed — expired and run again after a restart, by this or another process.
 * See docs/decisions.md for why pg-boss.
 */
export class DurableQueue {
  private readonly workers = new Map<string, string>();
  private readonly waking = new Map<string, NodeJS.Timeout>();

  private constructor(
    private readonly boss: PgBoss,
    private readonly options: QueueOptions,
  ) {}

  static async start(databaseUrl: string, log: FastifyBaseLogger, options: QueueOptions): Promise<DurableQueue> {
    const boss = new PgBoss({
      connectionString: databaseUrl,
      schema: 'pgboss',
      max: 4,
      application_name: 'pipit-jobs',
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds,
      // Nothing is scheduled by cron here.
      schedule: false,
    });
    boss.on('error', (error) => log.warn({ err: error }, 'job queue error'));
    await boss.start();
    return new DurableQueue(boss, options);
  }

  /**
   * Creates the queue if needed and starts working it in this process, `batchSize` jobs per fetch
   * (the handler gets them together; they succeed or are retried together).
   */
  async work<T extends object>(name: string, batchSize: number, handler: (jobs: T[]) => Promise<void>): Promise<void> {
    await this.ensureQueue(name);
    const id: string = await this.boss.work<T>(name, { batchSize, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      await handler(jobs.map((job) => job.data));
      // A full batch means more may be waiting: fetch again at once instead of after the poll interval.
      if (jobs.length === batchSize) this.boss.notifyWorker(id);
    });
    this.workers.set(name, id);
  }

  /**
   * Creates the queue unless it exists. Processes starting together race to create it, and
   * pg-boss's create can deadlock against another's (seen with two processes on one database):
   * the loser looks again and, the queue being there, is done.
   */
  private async ensureQueue(name: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (await this.boss.getQueue(name)) return;
      try {
        await this.boss.createQueue(name, {
          name,
          retryLimit: 10,
          retryDelay: 1,
          retryBackoff: true,
          expireInSeconds: this.options.expireInSeconds,
        });
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 50));
      }
    }
  }

  /** Enqueues several jobs of `name` as part of `tx`, in one statement. */
  async insertIn<T extends object>(tx: Tx, name: string, data: T[]): Promise<void> {
    if (data.length === 0) return;
    await this.boss.insert(
      data.map((d) => ({ name, data: d })),
      { db: txDb(tx) },
    );
  }

  /** Enqueues a job on its own (`singletonKey` keeps one waiting job per key). */
  async send<T extends object>(name: string, data: T, options: PgBoss.SendOptions = {}): Promise<void> {
    await this.boss.send(name, data, options);
    this.wake(name);
  }

  /** Jobs of `names` not finished yet (waiting, retrying or running). */
  async pending(names: readonly string[]): Promise<number> {
    let count = 0;
    for (const name of names) count += await this.boss.getQueueSize(name, { before: 'completed' });
    return count;
  }

  async stop(): Promise<void> {
    for (const timer of this.waking.values()) clearTimeout(timer);
    this.waking.clear();
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  /**
   * Picks up `name`'s jobs now rather than at the next poll: call it once the transaction that
   * enqueued one has committed (a worker woken before would not see the row yet).
   */
  wake(name: string): void {
    const id = this.workers.get(name);
    if (!id || this.waking.has(name)) return;
    // At most one wake per WAKE_MS: under load the worker then takes what came meanwhile as one batch.
    const timer = setTimeout(() => {
      this.waking.delete(name);
      this.boss.notifyWorker(id);
    }, WAKE_MS);
    timer.unref();
    this.waking.set(name, timer);
  }
}

/** How long a wake waits, gathering the jobs enqueued meanwhile into one fetch. */
const WAKE_MS = 50;

/** pg-boss's database interface over a Drizzle transaction: its `$n` placeholders become parameters. */
function txDb(tx: Tx): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const parts = text.split(/\$(\d+)/);
      const chunks: SQL[] = [];
      parts.forEach((part, i) => {
        chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`);
      });
      const result = await tx.execute(sql.join(chunks));
      return { rows: (result as unknown as { rows: unknown[] }).rows };
    },
  };
}
