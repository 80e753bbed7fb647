// The embedded database (PGlite) on a data directory: its settings, the lock that keeps it to one
// process, and the helper process that creates and migrates it before the server opens it.
//
// PGlite runs PostgreSQL in a WebAssembly instance whose memory never shrinks, and creating a database
// (initdb: a second instance, a 128 MB copy of its heap, the compiler's work) leaves the process that
// did it ~450 MB larger for good. So a new data directory, or one with migrations to apply, is set up
// by a short-lived helper process (`embedded-helper.ts`) that exits before the server opens the
// directory; the server's own process only ever opens a ready database (docs/performance.md,
// "Embedded database memory").
//
// Even the helper's initdb peaks at ~620 MB, so the compiled server's build also makes a template: a
// database created and migrated once (`makeTemplate`, at build time), kept beside server/dist/main.js.
// A new data directory is then a copy of it (`createFromTemplate`: files only, no PGlite, no helper),
// used only when it was made by this PGlite release from these very migrations; otherwise initdb in
// the helper, as before (docs/decisions.md, "A new embedded data directory is a copy of a template").
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

/**
 * PGlite's PostgreSQL keeps its buffer cache inside the WASM memory, which never shrinks: the default
 * 128 MB of shared_buffers made the embedded server ~110 MB larger at rest (docs/performance.md,
 * "Embedded database memory"). The operating system's page cache still holds the data files.
 */
export const PGLITE_CONF = ['shared_buffers = 32MB'];

/**
 * initdb's own PostgreSQL runs with the default 128 MB of shared_buffers, which grows its instance's
 * memory past the 128 MB it starts with (to ~190 MB); the same 32 MB as the server keeps it there.
 * (The server's settings replace the postgresql.conf initdb writes at every start.)
 */
const INITDB_PARAMS = ['-c', 'shared_buffers=32MB'];

/** The database files, inside the data directory. */
const PGDATA = 'pgdata';
/** A new database is made here and moved to PGDATA once migrated, so none is ever half-made. */
const PGDATA_NEW = 'pgdata.new';
/** Inside PGDATA: the last migration the helper applied (a file of ours; PostgreSQL ignores it). */
const MIGRATED_MARK = 'pipit-migrated';
const LOCK_FILE = 'pipit.lock';

/**
 * V8 compiles PGlite's 9 MB of WASM with Liftoff, then recompiles its busy functions with TurboFan in
 * background threads; that second tier cost the embedded server ~50 MB of resident memory on Node 20
 * (code and the compilers' freed-but-kept heap) and, on Node 24, a spike to ~720 MB on every start
 * while it compiles PostgreSQL's largest functions. The app's statements (index lookups) cost the same
 * CPU without it; scans and aggregates of many rows ~1.4× more (docs/performance.md, "Embedded
 * database memory"). Node 22 (as 20 did) honours the flag set at run time, before PGlite's module is
 * compiled, in processes that open a data directory (tests' in-memory databases keep V8's defaults), so
 * `node server/dist/main.js` on 22 gets it too; Node 24 takes it only on the command line, so `npm start`
 * passes it (package.json) and the helper process is started with it.
 */
export function setLiftoffOnly(): void {
  v8.setFlagsFromString('--liftoff-only');
}

/**
 * V8 lets the old generation grow to a multiple of what survived the last full collection before it
 * collects again: under a burst of writes the embedded server's heap reached ~110 MB for ~50 MB live,
 * and its resident memory peaked at 273-318 MB (bench:embedded, development, 3,000 posts). Growing by
 * 25 % at a time collects sooner: 263-270 MB, with the same CPU time per post. Process-wide, so set by
 * the processes that hold an embedded database only. Honoured at run time by Node 20 (measured); Node 24 in part.
 */
export function setHeapGrowth(): void {
  v8.setFlagsFromString('--heap-growing-percent=25');
}

// ---------------------------------------------------------------------------------------------
// The data-directory lock.

export class DataDirLockedError extends Error {
  readonly code = 'DATA_DIR_LOCKED';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pids a lock file names: the owner first, then a helper working for it. */
function lockPids(file: string): number[] {
  return readFileSync(file, 'utf8')
    .split(/\s+/)
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

export interface DataDirLock {
  /**
   * Names a helper process that works in the directory for this one: until `unshare`, the lock holds
   * while either process lives, so a helper still busy after its server was killed keeps others out.
   */
  share(pid: number): void;
  unshare(): void;
  release(): void;
}

/**
 * Two processes must never open one PGlite directory. The lock file holds the owner's pid (and its
 * helper's while one runs); a lock whose processes no longer exist (kill -9) is taken over.
 */
export function lockDataDir(dir: string): DataDirLock {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  // Replaced whole (written aside, then renamed), so a reader never sees it half-written.
  const rewrite = (pids: number[]) => {
    const next = `${file}.${process.pid}`;
    writeFileSync(next, pids.join('\n'));
    renameSync(next, file);
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        share: (pid) => rewrite([process.pid, pid]),
        unshare: () => rewrite([process.pid]),
        release: () => rmSync(file, { force: true }),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const alive = lockPids(file).find((pid) => pid !== process.pid && isAlive(pid));
      if (alive !== undefined) {
        throw new DataDirLockedError(
          `The data directory ${dir} is in use by another Pipit process (pid ${alive}). ` +
            'Stop that process, or set DATA_DIR to another directory (or DATABASE_URL to use PostgreSQL).',
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}`);
}

/** The helper refuses to run unless the lock is its server's: it never takes one of its own. */
export function assertLockedBy(dir: string, owner: number): void {
  const file = path.join(dir, LOCK_FILE);
  const pids = existsSync(file) ? lockPids(file) : [];
  if (pids[0] !== owner)
    throw new Error(`the data directory ${dir} is not locked by the server that started this helper (pid ${owner})`);
}

// ---------------------------------------------------------------------------------------------
// Setting a data directory up: in the helper process.

function migrationJournal(): { entries: { tag: string }[] } {
  return JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'));
}

function latestMigration(): string {
  return migrationJournal().entries.at(-1)?.tag ?? '';
}

/**
 * What the directory needs before the server opens it: a database ('create'), the migrations this
 * version has that the helper has not applied yet ('migrate'), or nothing. The server still runs the
 * migrations when it opens the database, so a mark that lies costs memory, never correctness.
 */
export function setupNeeded(dir: string): 'create' | 'migrate' | null {
  const pgdata = path.join(dir, PGDATA);
  if (!existsSync(path.join(pgdata, 'PG_VERSION'))) return 'create';
  let mark = '';
  try {
    mark = readFileSync(path.join(pgdata, MIGRATED_MARK), 'utf8').trim();
  } catch {
    // no mark: a directory made before the helper existed
  }
  return mark === latestMigration() ? null : 'migrate';
}

async function appliedMigrations(client: PGlite): Promise<number> {
  const table = await client.query<{ exists: boolean }>(
    `SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS exists`,
  );
  if (!table.rows[0]?.exists) return 0;
  const count = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
  return count.rows[0]?.n ?? 0;
}

export interface SetupResult {
  created: boolean;
  /** Migrations applied this time. */
  applied: number;
}

/**
 * Before a database is made in the directory: PGDATA must not exist (an empty one, say made by hand, is
 * removed; one holding files is refused, never overwritten), and what a creation killed half-way left
 * in PGDATA_NEW is removed. Returns PGDATA_NEW, where the new database is to be made.
 */
function clearForCreation(dir: string): string {
  const pgdata = path.join(dir, PGDATA);
  if (existsSync(pgdata)) {
    if (readdirSync(pgdata).length > 0)
      throw new Error(
        `${pgdata} holds files but no database (PG_VERSION is missing): move it away, then start again to create a new database`,
      );
    rmdirSync(pgdata);
  }
  const target = path.join(dir, PGDATA_NEW);
  rmSync(target, { recursive: true, force: true });
  return target;
}

/**
 * Creates the directory's database if it has none, and applies the pending migrations (drizzle applies
 * them in one transaction: all or nothing). Runs in the helper process (embedded-helper.ts).
 */
export async function setUpDataDir(dir: string): Promise<SetupResult> {
  const pgdata = path.join(dir, PGDATA);
  const created = !existsSync(path.join(pgdata, 'PG_VERSION'));
  const target = created ? clearForCreation(dir) : pgdata;
  const client = new PGlite(target, { postgresqlconf: PGLITE_CONF, initDbStartParams: INITDB_PARAMS });
  let applied: number;
  try {
    await client.waitReady;
    const before = await appliedMigrations(client);
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
    applied = (await appliedMigrations(client)) - before;
  } finally {
    await client.close();
  }
  writeFileSync(path.join(target, MIGRATED_MARK), `${latestMigration()}\n`);
  if (created) renameSync(target, pgdata);
  return { created, applied };
}

// ---------------------------------------------------------------------------------------------
// The template: a database created and migrated at build time, copied into new data directories.

/** Beside the compiled server (server/dist/pgdata-template, made by scripts/build-server.mjs). */
export const TEMPLATE_DIR = path.join(import.meta.dirname, 'pgdata-template');
/** templateProblem's answer when there is none (the sources: tests, `npm run dev`). */
export const NO_TEMPLATE = 'no template';
/** Inside the template (not copied): what made it. */
const TEMPLATE_KEY = 'pipit-template.json';

export interface TemplateKey {
  /** The PGlite release that made it: its PostgreSQL's files are read only by the same release. */
  pglite: string;
  /** sha256 of the migration files it was migrated with (the journal and every .sql). */
  migrations: string;
}

/** The installed PGlite's version (its package.json, beside the dist/ its entry is in). */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pkg = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'));
  return String(pkg.version);
}

function migrationsHash(): string {
  const hash = createHash('sha256');
  const files = [
    'meta/_journal.json',
    ...readdirSync(MIGRATIONS_DIR)
      .filter((name) => name.endsWith('.sql'))
      .sort(),
  ];
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(MIGRATIONS_DIR, file)))
      .update('\0');
  return hash.digest('hex');
}

/** What a template made now, by this code, would carry. */
export function currentTemplateKey(): TemplateKey {
  return { pglite: pgliteVersion(), migrations: migrationsHash() };
}

/**
 * Why the template in `templateDir` must not be used (missing, made by another PGlite release or from
 * other migrations, not marked as migrated to this version's latest migration), or null when it fits.
 */
export function templateProblem(templateDir: string = TEMPLATE_DIR): string | null {
  if (!existsSync(path.join(templateDir, 'PG_VERSION'))) return NO_TEMPLATE;
  let key: Partial<TemplateKey>;
  try {
    key = JSON.parse(readFileSync(path.join(templateDir, TEMPLATE_KEY), 'utf8'));
  } catch {
    return `the template has no readable ${TEMPLATE_KEY}`;
  }
  const current = currentTemplateKey();
  if (key.pglite !== current.pglite) return `the template was made by PGlite ${key.pglite}, this is ${current.pglite}`;
  if (key.migrations !== current.migrations) return 'the template was made from other migrations';
  let mark = '';
  try {
    mark = readFileSync(path.join(templateDir, MIGRATED_MARK), 'utf8').trim();
  } catch {
    // not marked: unusable
  }
  if (mark !== latestMigration()) return `the template is not migrated to ${latestMigration()}`;
  return null;
}

/**
 * Makes the template in `templateDir` (replacing any there) as the helper makes a new data directory,
 * then writes its key. Run at build time by the helper process (`embedded-helper.ts --template`).
 */
export async function makeTemplate(templateDir: string): Promise<void> {
  const work = `${templateDir}.work`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  await setUpDataDir(work);
  writeFileSync(path.join(work, PGDATA, TEMPLATE_KEY), `${JSON.stringify(currentTemplateKey())}\n`);
  await syncTree(path.join(work, PGDATA));
  rmSync(templateDir, { recursive: true, force: true });
  renameSync(path.join(work, PGDATA), templateDir);
  rmSync(work, { recursive: true, force: true });
}

/**
 * fsync every file under `dir`, then every directory, `dir` last. Several at a time: one after the other,
 * each fsync waited for its own journal commit (4.5 s for the template's ~1,250 files here, 0.3 s so).
 */
async function syncTree(dir: string): Promise<void> {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  const dirs = entries.filter((entry) => entry.isDirectory()).map((entry) => path.join(entry.parentPath, entry.name));
  await syncAll(files);
  await syncAll(dirs);
  await syncFile(dir);
}

async function syncAll(paths: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) await syncFile(paths[next++] as string);
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Creates the directory's database by copying the template, when it fits this version (templateProblem):
 * files only, in the server's own process, so nothing grows the way initdb does. The copy is made in
 * PGDATA_NEW, written to disk (fsync), and only then renamed to PGDATA, so a copy cut short is never
 * taken for a database (the next start removes it and copies again). Returns null once created, or,
 * touching nothing, why the template does not fit: the helper's initdb then creates the database.
 */
export async function createFromTemplate(dir: string, templateDir: string = TEMPLATE_DIR): Promise<string | null> {
  const problem = templateProblem(templateDir);
  if (problem !== null) return problem;
  let target: string | undefined;
  try {
    target = clearForCreation(dir);
    const key = path.join(templateDir, TEMPLATE_KEY);
    cpSync(templateDir, target, { recursive: true, filter: (source) => source !== key });
    await syncTree(target);
    renameSync(target, path.join(dir, PGDATA));
    await syncFile(dir);
    return null;
  } catch (error) {
    if (target) rmSync(target, { recursive: true, force: true });
    throw new EmbeddedSetupError(
      `The embedded database in ${dir} could not be created: ${(error as Error).message}. ` +
        (target ? 'Nothing was kept; starting again tries again.' : 'Nothing was changed.'),
    );
  }
}

/** The one message the helper sends its server. */
export type HelperAnswer = ({ ok: true } & SetupResult) | { ok: false; message: string };

/** The migration whose file holds `statement` (drizzle runs each file's statements one by one). */
function migrationHolding(statement: string): string | null {
  const wanted = statement.trim();
  for (const { tag } of migrationJournal().entries.toReversed()) {
    const file = path.join(MIGRATIONS_DIR, `${tag}.sql`);
    if (existsSync(file) && readFileSync(file, 'utf8').includes(wanted)) return tag;
  }
  return null;
}

/**
 * A setup failure in a line: for a failed statement, which migration, PostgreSQL's own words and the
 * statement's start (drizzle's message is the whole statement and its parameters).
 */
export function describeSetupError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const query = (error as { query?: unknown }).query;
  if (typeof query !== 'string' || !(error.cause instanceof Error)) return error.message;
  const migration = migrationHolding(query);
  const statement = query.replace(/\s+/g, ' ').trim();
  const start = statement.length > 80 ? `${statement.slice(0, 80)}…` : statement;
  return `${migration ? `migration ${migration}` : 'a migration'} failed: ${error.cause.message} (in ${start})`;
}

// ---------------------------------------------------------------------------------------------
// Setting a data directory up: the server's side.

export class EmbeddedSetupError extends Error {
  readonly code = 'EMBEDDED_SETUP_FAILED';
}

/**
 * The helper's entry: beside this module in the sources (TypeScript, run through tsx's loader, as in
 * development and the tests), beside main.js in the compiled server (server/dist, no dev dependency).
 */
function helperEntry(): { file: string; execArgv: string[] } {
  const fromSources = import.meta.url.endsWith('.ts');
  const file = fileURLToPath(new URL(fromSources ? './embedded-helper.ts' : './embedded-helper.js', import.meta.url));
  const execArgv = ['--liftoff-only']; // setLiftoffOnly's reason; on the command line, every Node version takes it
  if (!fromSources) return { file, execArgv };
  const tsx = createRequire(import.meta.url).resolve('tsx');
  return { file, execArgv: [...execArgv, '--import', pathToFileURL(tsx).href] };
}

/**
 * Creates and/or migrates the directory in the helper process and waits for it to exit. The caller
 * holds the directory's lock; the helper works under it (named in the lock file while it runs).
 */
export async function setUpInHelper(
  dir: string,
  lock: DataDirLock,
  needed: 'create' | 'migrate',
  log: (message: string) => void,
): Promise<void> {
  const { file, execArgv } = helperEntry();
  const started = performance.now();
  // stdout ignored (PGlite's chatter); stderr shared, so a crash's own words reach the server's output.
  const helper = fork(file, [dir], { execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  if (helper.pid !== undefined) lock.share(helper.pid);
  log(
    `${needed === 'create' ? 'Creating the embedded database' : 'Migrating the embedded database'} in ${dir} (helper process ${helper.pid})`,
  );
  let answer: HelperAnswer | undefined;
  helper.on('message', (message) => {
    answer = message as HelperAnswer;
  });
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    helper.once('error', (error) => resolve({ code: null, signal: null, error }));
    // 'close', not 'exit': by then every message the helper sent has arrived.
    helper.once('close', (code, signal) => resolve({ code, signal }));
  });
  lock.unshare();
  const action = needed === 'create' ? 'created' : 'migrated';
  if (answer?.ok && exit.code === 0) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log(`Embedded database ${action} in ${seconds} s (${answer.applied} migrations applied by the helper process)`);
    return;
  }
  const reason =
    answer && !answer.ok
      ? answer.message
      : exit.error
        ? `the helper process could not start: ${exit.error.message}`
        : `the helper process ended without an answer (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})`;
  throw new EmbeddedSetupError(
    `The embedded database in ${dir} could not be ${action}: ${reason}. ` +
      (needed === 'migrate'
        ? 'Nothing was changed: the migrations run in one transaction.'
        : 'Nothing was kept; starting again tries again.'),
  );
}
