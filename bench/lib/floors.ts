// The database floors: the exact statements a request sends (captured from the real app, built
// in-process on the same database with a recording Drizzle logger), replayed through the bare
// driver (`pg` or PGlite) by as many concurrent workers as the load has connections.
import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from 'drizzle-orm/logger';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { type App, buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { type Database, type DbHandle, logStatementsOf, openDatabase } from '../../server/src/db/client.ts';
import * as schema from '../../server/src/db/schema.ts';
import { percentile } from './load.ts';
import { CpuMeter } from './server.ts';

export interface Statement {
  text: string;
  params: unknown[];
}

export interface FloorStat {
  rps: number;
  p50: number;
  p99: number;
  iterations: number;
  statements: number;
  /** CPU per iteration: the driver's process (PGlite: driver and database) and the PostgreSQL backends. */
  cpu: { clientMs: number; dbMs: number | null };
}

class RecordingLogger implements Logger {
  recording: Statement[] | null = null;
  logQuery(query: string, params: unknown[]): void {
    this.recording?.push({ text: query, params: [...params] });
  }
}

export interface InjectRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
}

/** The app in-process on the benchmark database, to learn which statements each request sends. */
export class InProcess {
  private constructor(
    private readonly app: App,
    private readonly handle: DbHandle,
    private readonly logger: RecordingLogger,
    private readonly raw: { kind: 'pg'; pool: pg.Pool } | { kind: 'pglite'; client: PGlite },
  ) {}

  static async open(databaseUrl: string | null, dataDir: string, authSecret: string, poolSize: number) {
    // openDatabase runs any migration the data set does not have yet (and locks a PGlite directory).
    const opened = await openDatabase({ databaseUrl, pgliteDir: dataDir, poolSize });
    const client = (opened.db as unknown as { $client: pg.Pool | PGlite }).$client;
    const logger = new RecordingLogger();
    const db = (opened.kind === 'pg'
      ? drizzlePg(client as pg.Pool, { schema, logger })
      : drizzlePglite(client as PGlite, { schema, logger })) as unknown as Database;
    logStatementsOf(db, logger);
    const handle: DbHandle = { ...opened, db };
    const config = loadConfig({
      NODE_ENV: 'production',
      AUTH_SECRET: authSecret,
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'silent',
      WEB_DIST: 'none',
    });
    const app = await buildApp(config, { db: handle });
    await app.ready();
    const raw =
      opened.kind === 'pg'
        ? { kind: 'pg' as const, pool: client as pg.Pool }
        : { kind: 'pglite' as const, client: client as PGlite };
    return new InProcess(app, opened, logger, raw);
  }

  /** Sends one request through the app and answers the statements it ran, with its status. */
  async capture(request: InjectRequest): Promise<{ status: number; statements: Statement[]; body: string }> {
    this.logger.recording = [];
    try {
      const response = await this.app.inject({
        method: request.method,
        url: request.url,
        headers: request.headers ?? {},
        ...(request.payload === undefined ? {} : { payload: request.payload as object }),
      });
      return { status: response.statusCode, statements: this.logger.recording, body: response.body };
    } finally {
      this.logger.recording = null;
    }
  }

  async query<T>(text: string, params: unknown[] = []): Promise<T[]> {
    if (this.raw.kind === 'pg') return (await this.raw.pool.query(text, params)).rows as T[];
    return (await this.raw.client.query<T>(text, params)).rows;
  }

  /**
   * Replays `statements` in a loop on `workers` connections for `durationS` seconds (bounded by
   * time). PGlite has one connection: its workers queue on it, as the server's requests do.
   */
  async replay(
    statements: Statement[],
    workers: number,
    durationS: number,
    dbPids: () => Promise<number[]>,
  ): Promise<FloorStat> {
    const latencies: number[] = [];
    // Open the connections first, so that their backends are measured.
    if (this.raw.kind === 'pg') {
      const warm = await Promise.all(
        Array.from({ length: workers }, () => (this.raw as { pool: pg.Pool }).pool.connect()),
      );
      for (const c of warm) c.release();
    }
    const dbMeter = new CpuMeter();
    dbMeter.start(this.raw.kind === 'pg' ? await dbPids() : []);
    const client0 = process.cpuUsage();
    const started = performance.now();
    const end = started + durationS * 1000;
    const worker = async () => {
      let run: (s: Statement) => Promise<unknown>;
      let release = () => {};
      if (this.raw.kind === 'pg') {
        const connection = await this.raw.pool.connect();
        run = (s) => connection.query(s.text, s.params);
        // A write replayed statement by statement may end inside its transaction (the recording holds
        // its statements, not always its COMMIT): the connection goes back to the pool outside one, or
        // the next user of it (the clean-up's VACUUM) would run in it.
        release = () => {
          void connection
            .query('ROLLBACK')
            .catch(() => {})
            .finally(() => connection.release());
        };
      } else {
        const client = this.raw.client;
        run = (s) => client.query(s.text, s.params);
      }
      try {
        while (performance.now() < end) {
          const t = performance.now();
          for (const s of statements) await run(s);
          latencies.push(performance.now() - t);
        }
      } finally {
        release();
      }
    };
    await Promise.all(Array.from({ length: workers }, worker));
    const elapsed = (performance.now() - started) / 1000;
    const client = process.cpuUsage(client0);
    const dbMs = dbMeter.stop();
    const n = Math.max(1, latencies.length);
    const sorted = Float64Array.from(latencies).sort();
    return {
      rps: latencies.length / elapsed,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      iterations: latencies.length,
      statements: statements.length,
      cpu: { clientMs: (client.user + client.system) / 1000 / n, dbMs: this.raw.kind === 'pg' ? dbMs / n : null },
    };
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.handle.close();
  }
}
