import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Tx } from '../db/client.ts';

/** A job's handler: idempotent (a job may run twice: after a crash, or a retry). */
export type JobHandler<T> = (data: T) => Promise<void>;

export interface QueueOptions {
  /** An active job whose process died is retried this long after it started (pg-boss expiry). */
  expireInSeconds: number;
  /** How often the expiry check runs (pg-boss maintenance). */
  maintenanceIntervalSeconds: number;
}

/**
 * Durable background jobs on PostgreSQL (pg-boss): a job is a row, enqueued in the transaction of
 * the change that needs it (`sendIn`: it exists exactly when the change does), picked up by the
 * workers of any server process (SKIP LOCKED), retried with backoff on failure, and — when the
 * process running it is killed — expired and run again after a restart, by this or another process.
 * See docs/architecture.md for why pg-boss.
 */
export class DurableQueue {
  private readonly workers = new Map<string, string>();

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

  /** Creates the queue if needed and starts working it in this process. */
  async work<T extends object>(name: string, handler: JobHandler<T>): Promise<void> {
    await this.boss.createQueue(name, {
      name,
      retryLimit: 10,
      retryDelay: 1,
      retryBackoff: true,
      expireInSeconds: this.options.expireInSeconds,
    });
    const id = await this.boss.work<T>(name, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      for (const job of jobs) await handler(job.data);
    });
    this.workers.set(name, id);
  }

  /** Enqueues a job as part of `tx`: committed with it, or never. */
  async sendIn<T extends object>(tx: Tx, name: string, data: T, options: PgBoss.SendOptions = {}): Promise<void> {
    await this.boss.send(name, data, { ...options, db: txDb(tx) });
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
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  /**
   * Picks up `name`'s jobs now rather than at the next poll: call it once the transaction that
   * enqueued one has committed (a worker woken before would not see the row yet).
   */
  wake(name: string): void {
    const id = this.workers.get(name);
    if (id) this.boss.notifyWorker(id);
  }
}

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
