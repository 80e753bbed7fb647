import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migratedSnapshot } from '../src/db/client.ts';

/** On PostgreSQL, drops the databases this run's workers created (named pipit_test_<this pid>_<worker>). */
export default async function setup() {
  if (process.env.PIPIT_TEST_DB !== 'pg') {
    // Embedded: one migrated database dumped once for the run; every test file's database starts from it
    // (test/helpers/app.ts), instead of a new cluster and every migration per file.
    const dir = mkdtempSync(path.join(tmpdir(), 'pipit-test-db-'));
    const file = path.join(dir, 'migrated.tar');
    writeFileSync(file, Buffer.from(await (await migratedSnapshot()).arrayBuffer()));
    process.env.PIPIT_TEST_SNAPSHOT = file;
    return () => rmSync(dir, { recursive: true, force: true });
  }
  return async () => {
    const admin = new pg.Client({
      connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
        `pipit_test_${process.pid}_%`,
      ]);
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
}
