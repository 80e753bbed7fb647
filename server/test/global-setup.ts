import pg from 'pg';

/** On PostgreSQL, drops the databases this run's workers created (named pipit_test_<this pid>_<worker>). */
export default function setup() {
  if (process.env.PIPIT_TEST_DB !== 'pg') return;
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
