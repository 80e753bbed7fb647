import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { withTimeout } from './timeout.ts';

/** How long start-up waits for Redis before serving without it (it keeps reconnecting). */
const FIRST_CONNECT_MS = 5_000;
/** A command on the shared connection that takes longer fails (and its caller falls back). */
const COMMAND_TIMEOUT_MS = 1_000;
/** A health check's PING that takes longer than this counts as Redis being unavailable. */
const PING_TIMEOUT_MS = 1_000;

/**
 * The two connections a process holds to Redis: `commands` (publish, rate-limit counters, feeds) fails
 * fast while Redis is away (no offline queue, a time limit per command: a request never waits on a
 * dead or stuck Redis, it falls back), and
 * `subscriber`, which ioredis reconnects and re-subscribes by itself.
 */
export class RedisConnection {
  readonly commands: Redis;
  readonly subscriber: Redis;
  private downSince: number | null = null;

  constructor(
    url: string,
    readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {
    const retryStrategy = (times: number) => Math.min(times * 200, 2_000);
    this.commands = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      // A Redis that accepts but does not answer must not hold requests: they fall back instead.
      commandTimeout: COMMAND_TIMEOUT_MS,
      retryStrategy,
      lazyConnect: true,
      connectionName: 'pipit',
    });
    this.subscriber = new Redis(url, {
      retryStrategy,
      lazyConnect: true,
      connectionName: 'pipit-events',
      autoResubscribe: false, // lib/redis-event-bus.ts subscribes on each 'ready' itself.
    });
    for (const client of [this.commands, this.subscriber]) {
      // ioredis reconnects by itself; an unhandled 'error' would crash the process.
      client.on('error', (error) => this.wentDown(error));
      client.on('ready', () => this.cameBack());
    }
  }

  /** Connects both, waiting at most FIRST_CONNECT_MS: without Redis the app starts degraded. */
  async connect(): Promise<void> {
    const waited = Promise.all([this.commands.connect(), this.subscriber.connect()]);
    try {
      await withTimeout(waited, FIRST_CONNECT_MS, `no answer within ${FIRST_CONNECT_MS} ms`);
    } catch (error) {
      waited.catch(() => {});
      this.wentDown(error);
    }
  }

  /** True when both connections are up and a PING answers in time. */
  async healthy(): Promise<boolean> {
    if (this.commands.status !== 'ready' || this.subscriber.status !== 'ready') return false;
    try {
      await withTimeout(this.commands.ping(), PING_TIMEOUT_MS, 'redis ping timed out');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.commands, this.subscriber].map((client) =>
        client.status === 'ready' ? client.quit().catch(() => client.disconnect()) : client.disconnect(),
      ),
    );
  }

  /** Logs an outage once, not once per failed command. */
  private wentDown(error: unknown): void {
    if (this.downSince !== null) return;
    this.downSince = Date.now();
    this.log.warn({ err: error }, 'Redis is unavailable: serving from this process alone until it returns');
  }

  private cameBack(): void {
    if (this.downSince === null) return;
    this.log.info({ downMs: Date.now() - this.downSince }, 'Redis is back');
    this.downSince = null;
  }
}
