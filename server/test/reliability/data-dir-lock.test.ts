/**
 * Item 12 (embedded database): two processes must never open one PGlite data directory. A second
 * server on the same DATA_DIR refuses to start with a clear message and leaves the first one
 * working; once the owner is gone (even by kill -9), the directory can be opened again.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer, tempDir } from './support.ts';

describe('embedded data directory lock', () => {
  const dataDir = tempDir('pipit-lock-');
  const started: ServerProcess[] = [];
  afterAll(async () => {
    for (const s of started) await s.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second process on the same directory, then lets a new one in after a kill -9', async () => {
    const first = await startServer({ dataDir });
    started.push(first);

    const second = await startServer({ dataDir, waitReady: false });
    started.push(second);
    const timeout = setTimeout(() => second.child.kill('SIGKILL'), 30_000);
    const exit = await second.exited;
    clearTimeout(timeout);
    expect(exit.code, second.output()).toBe(1);
    expect(second.output()).toContain(`is in use by another Pipit process (pid ${first.child.pid})`);
    expect(second.output()).toContain('DATA_DIR');

    // The first server did not notice.
    const health = await fetch(`${first.url}/healthz`);
    expect(health.status).toBe(200);

    // kill -9 leaves a stale lock file; the next process takes it over.
    await first.stop('SIGKILL');
    const third = await startServer({ dataDir });
    started.push(third);
    expect((await fetch(`${third.url}/healthz`)).status).toBe(200);
    expect((await third.stop('SIGTERM')).code).toBe(0);
  });
});
