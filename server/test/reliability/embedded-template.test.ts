/**
 * Issue 31, item 6: the compiled server's build makes the embedded database's template (a database
 * created and migrated once, server/dist/pgdata-template), and a first start on a new data directory
 * copies it instead of running PGlite's initdb (~620 MB) in the helper process (db/embedded.ts). Here,
 * with a real build and the real compiled server: a fresh directory is copied from the template (no
 * helper), migrated to the latest migration, and serves; a copy cut short is not taken for a database;
 * a template made by another PGlite release (or from other migrations) is not used, and initdb in the
 * helper creates the directory instead; a directory made that way (the path before the template) opens
 * with the template's server as it always did.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HttpClient,
  LATEST_MIGRATION,
  MIGRATIONS,
  outputLine,
  rawQuery,
  SERVER_DIR,
  startServer,
  tempDir,
} from './support.ts';

const ROOT = path.resolve(SERVER_DIR, '..');
const migrations = MIGRATIONS;
const latest = LATEST_MIGRATION;

describe("a new embedded data directory starts from the build's template", () => {
  let dist = '';
  let main = '';
  let template = '';
  const dirs = tempDir('pipit-embedded-template-');
  let n = 0;
  const newDataDir = () => path.join(dirs, `data${n++}`);

  beforeAll(() => {
    dist = mkdtempSync(path.join(SERVER_DIR, 'dist-test-'));
    const built = execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs'), dist], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(built).toContain('server built to');
    main = path.join(dist, 'main.js');
    template = path.join(dist, 'pgdata-template');
  });
  afterAll(() => {
    if (dist) rmSync(dist, { recursive: true, force: true });
    rmSync(dirs, { recursive: true, force: true });
  });

  it('the build made a template migrated to the latest migration, keyed to the installed PGlite', () => {
    expect(existsSync(path.join(template, 'PG_VERSION'))).toBe(true);
    expect(readFileSync(path.join(template, 'pipit-migrated'), 'utf8').trim()).toBe(latest);
    const key = JSON.parse(readFileSync(path.join(template, 'pipit-template.json'), 'utf8'));
    const pglite = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'));
    expect(key.pglite).toBe(pglite.version);
    expect(key.migrations).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a fresh directory is copied from it, with no helper; the server serves, and every migration is there', async () => {
    const dataDir = newDataDir();
    // What a first start killed in the middle of the copy leaves: not a database, removed.
    mkdirSync(path.join(dataDir, 'pgdata.new'), { recursive: true });
    writeFileSync(path.join(dataDir, 'pgdata.new', 'PG_VERSION'), '17\n');
    const server = await startServer({ dataDir, main, env: { LOG_LEVEL: 'info' } });
    try {
      const created = await outputLine(server, 'Embedded database created in');
      expect(created).toContain(`${dataDir} from the build's template`);
      expect(server.output()).not.toContain('helper process');
      expect(existsSync(path.join(dataDir, 'pgdata.new'))).toBe(false);
      expect(existsSync(path.join(dataDir, 'pgdata', 'pipit-template.json'))).toBe(false);
      expect(readFileSync(path.join(dataDir, 'pgdata', 'pipit-migrated'), 'utf8').trim()).toBe(latest);
      const client = new HttpClient(server.url);
      await client.signUp('fromtemplate');
      expect((await client.request('POST', '/api/posts', { text: 'on a copied database' })).status).toBe(201);
    } finally {
      expect((await server.stop('SIGTERM')).code).toBe(0);
    }
    const [row] = await rawQuery(
      dataDir,
      `SELECT (SELECT count(*)::int FROM drizzle.__drizzle_migrations) AS migrations,
              (SELECT count(*)::int FROM posts) AS posts`,
    );
    expect(row).toEqual({ migrations, posts: 1 });
  });

  it('a directory holding files but no database is refused, and left as it was', async () => {
    const dataDir = newDataDir();
    mkdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
    writeFileSync(path.join(dataDir, 'pgdata', 'notes.txt'), 'mine');
    const server = await startServer({ dataDir, main, waitReady: false });
    expect((await server.exited).code).toBe(1);
    expect(server.output()).toContain('holds files but no database (PG_VERSION is missing)');
    expect(readFileSync(path.join(dataDir, 'pgdata', 'notes.txt'), 'utf8')).toBe('mine');
    expect(existsSync(path.join(dataDir, 'pipit.lock'))).toBe(false);
  });

  it("a template another PGlite made is not used: initdb in the helper creates the directory, which the template's server then opens", async () => {
    const keyFile = path.join(template, 'pipit-template.json');
    const key = readFileSync(keyFile, 'utf8');
    writeFileSync(keyFile, JSON.stringify({ ...JSON.parse(key), pglite: '0.0.1-other' }));
    const dataDir = newDataDir();
    try {
      const server = await startServer({ dataDir, main, env: { LOG_LEVEL: 'info' } });
      try {
        const refused = await outputLine(server, "Not using the embedded database's template");
        expect(refused).toContain('the template was made by PGlite 0.0.1-other, this is ');
        await outputLine(server, 'Creating the embedded database in');
        const created = await outputLine(server, 'Embedded database created in');
        expect(created).toContain(`(${migrations} migrations applied by the helper process)`);
        const client = new HttpClient(server.url);
        await client.signUp('frominitdb');
      } finally {
        expect((await server.stop('SIGTERM')).code).toBe(0);
      }
    } finally {
      writeFileSync(keyFile, key);
    }

    // The template fits again; the directory initdb made opens as before: no copy, no helper.
    const again = await startServer({ dataDir, main, env: { LOG_LEVEL: 'info' } });
    try {
      await outputLine(again, 'Pipit is running at');
      expect(again.output()).not.toContain('Embedded database created');
      expect(again.output()).not.toContain('helper process');
      const client = new HttpClient(again.url);
      await client.signIn('frominitdb@example.com');
      expect((await client.request('GET', '/api/current')).status).toBe(200);
    } finally {
      expect((await again.stop('SIGTERM')).code).toBe(0);
    }
  });

  it('a template made from other migrations is not used either', async () => {
    const keyFile = path.join(template, 'pipit-template.json');
    const key = readFileSync(keyFile, 'utf8');
    writeFileSync(keyFile, JSON.stringify({ ...JSON.parse(key), migrations: '0'.repeat(64) }));
    try {
      const server = await startServer({ dataDir: newDataDir(), main, env: { LOG_LEVEL: 'info' } });
      try {
        const refused = await outputLine(server, "Not using the embedded database's template");
        expect(refused).toContain('the template was made from other migrations');
        await outputLine(server, 'Creating the embedded database in');
      } finally {
        expect((await server.stop('SIGTERM')).code).toBe(0);
      }
    } finally {
      writeFileSync(keyFile, key);
    }
  });

  it('the next build keeps a template that still fits, and remakes one that does not', () => {
    const build = () =>
      execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs'), dist], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    const keyFile = path.join(template, 'pipit-template.json');
    // execFileSync returns stdout only; the helper's line is on stderr, so look at the result instead.
    const before = readFileSync(path.join(template, 'PG_VERSION'), 'utf8');
    writeFileSync(path.join(template, 'kept-marker'), 'x');
    build();
    expect(existsSync(path.join(template, 'kept-marker'))).toBe(true);
    writeFileSync(keyFile, JSON.stringify({ ...JSON.parse(readFileSync(keyFile, 'utf8')), pglite: '0.0.1-other' }));
    build();
    expect(existsSync(path.join(template, 'kept-marker'))).toBe(false);
    expect(readFileSync(path.join(template, 'PG_VERSION'), 'utf8')).toBe(before);
    expect(templateFits()).toBe(true);

    function templateFits(): boolean {
      const pglite = JSON.parse(
        readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
      );
      return JSON.parse(readFileSync(keyFile, 'utf8')).pglite === pglite.version;
    }
  });
});
