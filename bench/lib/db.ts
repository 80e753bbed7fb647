// Raw access to the two databases the benchmark loads: PostgreSQL through `pg` (COPY FROM STDIN via
// pg-copy-streams) and PGlite (COPY FROM '/dev/blob'), behind one small interface.
import { rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type DbHandle, openDatabase } from '../../server/src/db/client.ts';
import { pgAdminUrl, pgDatabaseName, pgliteDir, pgUrl, type Target } from './options.ts';

export interface RawDb {
  target: Target;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
  /** Loads text-format COPY lines (each ending in \n); returns the row count. */
  copy(table: string, columns: string[], lines: Iterable<string>): Promise<number>;
  close(): Promise<void>;
}

/** Groups lines into chunks of about `size` characters (fewer, larger writes). */
function* chunks(lines: Iterable<string>, size: number, counter: { rows: number }): Generator<string> {
  let buffer = '';
  for (const line of lines) {
    buffer += line;
    counter.rows++;
    if (buffer.length >= size) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}

/** Drops and recreates the benchmark database on the PostgreSQL server. */
export async function recreatePgDatabase(dataset: string): Promise<void> {
  const admin = new pg.Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  try {
    const name = pgDatabaseName(dataset);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}

/** Runs the app's migrations (the same code the server runs at start-up), then closes. */
export async function migrate(dataset: string, target: Target): Promise<void> {
  const handle = await openDatabase({
    databaseUrl: target === 'pg' ? pgUrl(dataset) : null,
    pgliteDir: pgliteDir(dataset),
    poolSize: 1,
  });
  await handle.close();
}

export async function openPg(url: string): Promise<RawDb> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    target: 'pg',
    async query<T>(sql: string, params?: unknown[]) {
      return (await client.query(sql, params)).rows as T[];
    },
    async exec(sql: string) {
      await client.query(sql);
    },
    async copy(table, columns, lines) {
      const counter = { rows: 0 };
      const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
      await pipeline(Readable.from(chunks(lines, 1 << 20, counter)), stream);
      return counter.rows;
    },
    close: () => client.end(),
  };
}

/** PGlite through the app's own openDatabase (which takes the data directory lock). */
export async function openPglite(dir: string): Promise<RawDb> {
  const handle: DbHandle = await openDatabase({ databaseUrl: null, pgliteDir: dir });
  const client = (handle.db as unknown as { $client: PGlite }).$client;
  return {
    target: 'pglite',
    async query<T>(sql: string, params?: unknown[]) {
      return (await client.query<T>(sql, params)).rows;
    },
    async exec(sql: string) {
      await client.exec(sql);
    },
    async copy(table, columns, lines) {
      const counter = { rows: 0 };
      // One COPY per ~32 MB blob: bounded memory inside the WebAssembly heap.
      for (const chunk of chunks(lines, 32 << 20, counter)) {
        await client.query(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob'`, [], { blob: new Blob([chunk]) });
      }
      return counter.rows;
    },
    close: () => handle.close(),
  };
}

export function removePgliteDir(dataset: string): void {
  rmSync(pgliteDir(dataset), { recursive: true, force: true });
}

export async function openTarget(dataset: string, target: Target): Promise<RawDb> {
  return target === 'pg' ? openPg(pgUrl(dataset)) : openPglite(pgliteDir(dataset));
}

interface Definitions {
  constraints: { table: string; name: string; type: string; def: string }[];
  indexes: { name: string; def: string }[];
}

/**
 * Bulk loads are fastest into bare tables: drop primary keys, unique and foreign keys and
 * indexes (whatever the migrations defined, read from the catalog), load, then rebuild them.
 * Rebuilding validates every foreign key and unique constraint against the generated rows.
 */
export async function dropConstraintsAndIndexes(db: RawDb): Promise<Definitions> {
  // Every table of the app's schema (the loaded ones, and the empty ones whose keys point at them): a
  // table a migration adds is never forgotten, whose foreign key would keep a loaded table's key.
  const tables = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')`,
  );
  const tableList = tables.map((t) => `'${t.name}'`).join(', ');
  const constraints = await db.query<{ table: string; name: string; type: string; def: string }>(
    `SELECT c.relname AS table, k.conname AS name, k.contype AS type, pg_get_constraintdef(k.oid) AS def
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
      WHERE c.relnamespace = 'public'::regnamespace AND c.relname IN (${tableList}) AND k.contype IN ('p', 'u', 'f')
      ORDER BY k.contype DESC, c.relname, k.conname`,
  );
  const indexes = await db.query<{ name: string; def: string }>(
    `SELECT ic.relname AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid
      WHERE c.relnamespace = 'public'::regnamespace AND c.relname IN (${tableList})
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.contype IN ('p', 'u', 'x'))
      ORDER BY ic.relname`,
  );
  // Foreign keys first (they depend on the primary keys), then keys, then plain indexes.
  for (const k of constraints.filter((k) => k.type === 'f'))
    await db.exec(`ALTER TABLE "${k.table}" DROP CONSTRAINT "${k.name}"`);
  for (const k of constraints.filter((k) => k.type !== 'f'))
    await db.exec(`ALTER TABLE "${k.table}" DROP CONSTRAINT "${k.name}"`);
  for (const i of indexes) await db.exec(`DROP INDEX "${i.name}"`);
  return { constraints, indexes };
}

export async function restoreConstraintsAndIndexes(
  db: RawDb,
  defs: Definitions,
  onStep: (what: string, ms: number) => void,
): Promise<void> {
  const timed = async (what: string, sql: string) => {
    const start = performance.now();
    await db.exec(sql);
    onStep(what, performance.now() - start);
  };
  for (const k of defs.constraints.filter((k) => k.type !== 'f'))
    await timed(k.name, `ALTER TABLE "${k.table}" ADD CONSTRAINT "${k.name}" ${k.def}`);
  for (const i of defs.indexes) await timed(i.name, i.def);
  for (const k of defs.constraints.filter((k) => k.type === 'f'))
    await timed(k.name, `ALTER TABLE "${k.table}" ADD CONSTRAINT "${k.name}" ${k.def}`);
}
