/**
 * Issue 31, item 6 (the embedded default stays small): a new data directory, or one with migrations to
 * apply, is set up by a helper process that exits before the server opens it (db/embedded.ts), so the
 * server never holds the memory initdb and the migrations grow. Here, with the real process: a fresh
 * directory is created and migrated by the helper, then the server answers; a second start finds
 * nothing to do; a migration that fails in the helper stops the start with a clear message and exit 1.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpClient, LATEST_MIGRATION, MIGRATIONS, outputLine, rawQuery, startServer, tempDir } from './support.ts';

const migrations = MIGRATIONS;
const latest = LATEST_MIGRATION;

describe('the embedded data directory is set up by a helper process', () => {
  const dataDir = tempDir('pipit-embedded-setup-');
  const pgdata = path.join(dataDir, 'pgdata');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates and migrates a fresh directory in the helper; the server then opens it and answers', async () => {
    const server = await startServer({ dataDir, env: { LOG_LEVEL: 'info' } });
    try {
      const creating = await outputLine(server, 'Creating the embedded database in');
      const helper = Number(/\(helper process (\d+)\)/.exec(creating)?.[1]);
      expect(creating).toContain(dataDir);
      expect(helper).toBeGreaterThan(0);
      expect(helper).not.toBe(server.child.pid);
      const created = await outputLine(server, 'Embedded database created in');
      expect(created).toContain(`(${migrations} migrations applied by the helper process)`);
      // The helper has exited, and the lock names the server alone again.
      expect(() => process.kill(helper, 0)).toThrow();
      expect(readFileSync(path.join(dataDir, 'pipit.lock'), 'utf8').trim()).toBe(String(server.child.pid));
      expect(readFileSync(path.join(pgdata, 'pipit-migrated'), 'utf8').trim()).toBe(latest);
      expect(existsSync(path.join(dataDir, 'pgdata.new'))).toBe(false);

      // The schema is there: a member registers, signs in and posts.
      const client = new HttpClient(server.url);
      await client.signUp('helperfresh');
      const posted = await client.request('POST', '/api/posts', { text: 'made after the helper migrated' });
      expect(posted.status).toBe(201);
    } finally {
      expect((await server.stop('SIGTERM')).code).toBe(0);
    }

    // Next start: nothing to set up, no helper.
    const again = await startServer({ dataDir, env: { LOG_LEVEL: 'info' } });
    try {
      await outputLine(again, 'Pipit is running at');
      expect(again.output()).not.toContain('helper process');
      const client = new HttpClient(again.url);
      await client.signIn('helperfresh@example.com');
      expect((await client.request('GET', '/api/current')).status).toBe(200);
    } finally {
      expect((await again.stop('SIGTERM')).code).toBe(0);
    }
  });

  it('a migration failing in the helper stops the start: one clear line, exit 1, nothing changed, lock released', async () => {
    // Pretend the last migration was never applied (its tables are still there, so applying it again
    // fails), and drop the helper's mark, as a new version with a pending migration would find it.
    await rawQuery(
      dataDir,
      'DELETE FROM drizzle.__drizzle_migrations WHERE id = (SELECT max(id) FROM drizzle.__drizzle_migrations)',
    );
    rmSync(path.join(pgdata, 'pipit-migrated'));

    const server = await startServer({ dataDir, waitReady: false, env: { LOG_LEVEL: 'info' } });
    const exit = await server.exited;
    expect(exit.code, server.output()).toBe(1);
    expect(server.output()).toContain('Migrating the embedded database in');
    const line = await outputLine(server, 'pipit: The embedded database in');
    expect(line).toContain(`${dataDir} could not be migrated: migration ${latest} failed: `);
    // PostgreSQL's own error and the statement it failed in (which depends on what the latest migration does first).
    expect(line).toMatch(/ failed: [^(]+ \(in (CREATE|DROP|ALTER) /);
    expect(line).toContain('Nothing was changed: the migrations run in one transaction.');
    expect(server.output()).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(path.join(dataDir, 'pipit.lock'))).toBe(false);

    // Nothing was changed: still one migration short, and the members' data is there.
    const [row] = await rawQuery(
      dataDir,
      `SELECT (SELECT count(*)::int FROM drizzle.__drizzle_migrations) AS migrations,
              (SELECT count(*)::int FROM posts) AS posts`,
    );
    expect(row).toEqual({ migrations: migrations - 1, posts: 1 });
  });
});
