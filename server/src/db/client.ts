import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import {
  createFromTemplate,
  lockDataDir,
  MIGRATIONS_DIR,
  NO_TEMPLATE,
  PGLITE_CONF,
  setHeapGrowth,
  setLiftoffOnly,
  setUpInHelper,
  setupNeeded,
} from './embedded.ts';
import * as schema from './schema.ts';

export { DataDirLockedError, EmbeddedSetupError, MIGRATIONS_DIR } from './embedded.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Tx;

/** The rows of a raw statement (`db.execute`): both drivers answer `{ rows }`. */
export async function executeRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

/**
 * A list of ids as one PostgreSQL array parameter (`${bigintArray(ids)}::bigint[]`): Drizzle spreads a
 * JS array into one parameter per element, which for thousands of ids costs more to build than to run.
 */
export const bigintArray = (ids: readonly number[]): string => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;

const prepared = new WeakMap<Database, Map<string, unknown>>();

/**
 * A statement built once per database and kept (Drizzle's `.prepare(name)`: PostgreSQL plans it once per
 * connection), `build` called the first time `name` is asked for on `db`.
 */
export function preparedOnce<T>(db: Database, name: string, build: () => T): T {
  let statements = prepared.get(db);
  if (!statements) {
    statements = new Map();
    prepared.set(db, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build();
    statements.set(name, statement);
  }
  return statement;
}

/** Counts SQL statements sent through Drizzle; tests use it to prove pages cost a fixed number of queries. */
export class QueryCounter implements Logger {
  count = 0;
  logQuery(): void {
    this.count++;
  }
}

/** Each database's Drizzle logger, for statements sent around Drizzle (`preparedRows`). */
const loggers = new WeakMap<Database, Logger>();

/** Gives `preparedRows` the logger a Drizzle instance was made with (openDatabase does it for its own). */
export function logStatementsOf(db: Database, logger: Logger): void {
  loggers.set(db, logger);
}

/**
 * The rows of a hand-written statement sent by name (prepared once per connection on PostgreSQL;
 * PGlite has one connection and plans it each time), counted like Drizzle's. For statements Drizzle's
 * builder cannot express: several rows from arrays with their order kept (`unnest … with ordinality`).
 * The rows come as the driver parses them: bigint as text, timestamps as Date.
 */
export async function preparedRows<T>(db: Database, name: string, text: string, values: unknown[]): Promise<T[]> {
  loggers.get(db)?.logQuery(text, values);
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (client instanceof PGlite) return (await client.query<T>(text, values)).rows;
  return (await client.query<T & pg.QueryResultRow>({ name, text, values })).rows;
}

export interface DbHandle {
  db: Database;
  kind: 'pglite' | 'pg';
  queries: QueryCounter;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL connection string; when null, PGlite. */
  databaseUrl: string | null;
  /** PGlite data directory; 'memory://' for an in-memory database (tests). */
  pgliteDir: string;
  /** pg pool size. */
  poolSize?: number;
  /**
   * An in-memory PGlite database starts from this dump (PGlite's `dumpDataDir`) instead of a new
   * cluster: the tests open one per file, and loading a migrated dump skips initdb and the migrations
   * (~0.6 s instead of ~4 s here). Migrations still run, finding nothing left to apply.
   */
  pgliteSnapshot?: Blob;
  /** Progress worth a line in the server's log (a data directory being created or migrated). */
  log?: (message: string) => void;
}

/** Any fixed number: the advisory lock every Pipit process takes while it migrates. */
const MIGRATION_LOCK = 0x70697069;

/**
 * Applies the migrations holding a session-level advisory lock on one connection, so processes
 * starting together (WORKERS=N, or several behind a proxy) migrate one after the other: the
 * first applies them, the others find nothing left to do.
 */
async function migrateExclusively(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

export async function openDatabase(options: OpenOptions): Promise<DbHandle> {
  const queries = new QueryCounter();
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      // No JIT: every statement here is a short indexed lookup, and PostgreSQL's JIT (on by default
      // above a cost estimate) spent 290 ms compiling the Following page's 2 ms plan once the
      // visibility rules' subqueries raised its estimate (docs/performance.md).
      options: '-c jit=off',
    });
    // A dropped connection (server restart) must not crash the process; the pool reconnects.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema, logger: queries }) as unknown as Database;
    logStatementsOf(db, queries);
    await migrateExclusively(pool);
    return {
      db,
      kind: 'pg',
      queries,
      async ping() {
        await pool.query('SELECT 1');
      },
      async close() {
        await pool.end();
      },
    };
  }

  const inMemory = options.pgliteDir.startsWith('memory://');
  const lock = inMemory ? null : lockDataDir(options.pgliteDir);
  const unlock = () => lock?.release();
  try {
    if (lock) {
      setLiftoffOnly();
      setHeapGrowth();
      // A new directory is a copy of the template the build made, when it fits this version; otherwise,
      // and for migrations to apply, a helper process that exits before this one opens the directory
      // sets it up: what initdb and the migrations grow never lands here (embedded.ts).
      const log = options.log ?? (() => {});
      let needed = setupNeeded(options.pgliteDir);
      if (needed === 'create') {
        const started = performance.now();
        const problem = await createFromTemplate(options.pgliteDir);
        if (problem === null) {
          const seconds = ((performance.now() - started) / 1000).toFixed(1);
          log(`Embedded database created in ${options.pgliteDir} from the build's template in ${seconds} s`);
          needed = setupNeeded(options.pgliteDir);
        } else if (problem !== NO_TEMPLATE) {
          log(`Not using the embedded database's template: ${problem}`);
        }
      }
      if (needed) await setUpInHelper(options.pgliteDir, lock, needed, log);
    }
    const client = inMemory
      ? new PGlite({
          postgresqlconf: PGLITE_CONF,
          ...(options.pgliteSnapshot ? { loadDataDir: options.pgliteSnapshot } : {}),
        })
      : new PGlite(path.join(options.pgliteDir, 'pgdata'), { postgresqlconf: PGLITE_CONF });
    await client.waitReady;
    const db = drizzlePglite(client, { schema, logger: queries }) as unknown as Database;
    logStatementsOf(db, queries);
    await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
    return {
      db,
      kind: 'pglite',
      queries,
      async ping() {
        await client.query('SELECT 1');
      },
      async close() {
        try {
          await client.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** A migrated, empty in-memory database as a dump (PGlite's data directory, uncompressed): test files start from it. */
export async function migratedSnapshot(): Promise<Blob> {
  const client = new PGlite({ postgresqlconf: PGLITE_CONF });
  try {
    await client.waitReady;
    await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

export { schema, sql };
