/**
 * What an operator sees when starting the real server process: a busy port names the variable to
 * set instead of a stack trace; an https PUBLIC_URL on a plain-http listener is called out; a weak
 * production secret is refused; development logs one readable line per request.
 */

import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { outputLine, startServer, tempDir } from './support.ts';

describe('starting the server', () => {
  const dataDir = tempDir('pipit-startup-');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a port already in use: exit 1 with one line naming PORT, no stack trace', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const server = await startServer({ dataDir, port, waitReady: false });
      const exit = await server.exited;
      expect(exit.code, server.output()).toBe(1);
      expect(server.output()).toContain(`pipit: port ${port} on 127.0.0.1 is already in use`);
      expect(server.output()).toContain('PORT=');
      expect(server.output()).not.toMatch(/\n\s+at /); // no stack frames
    } finally {
      blocker.close();
    }
  });

  it('a production AUTH_SECRET under 32 characters: exit 1 with WEAK_SECRET', async () => {
    const server = await startServer({ dataDir, waitReady: false, env: { AUTH_SECRET: 'too-short' } });
    const exit = await server.exited;
    expect(exit.code).toBe(1);
    expect(server.output()).toContain('[WEAK_SECRET]');
    expect(server.output()).not.toMatch(/\n\s+at /);
  });

  it('an https PUBLIC_URL served over plain http: a warning at start that a TLS proxy is needed', async () => {
    const server = await startServer({ dataDir, env: { PUBLIC_URL: 'https://pipit.example', LOG_LEVEL: 'info' } });
    try {
      const warning = await outputLine(server, 'PUBLIC_URL is https://pipit.example but this server speaks plain http');
      expect(warning).toContain('TLS-terminating proxy');
    } finally {
      expect((await server.stop('SIGTERM')).code).toBe(0);
    }
  });

  it('development logs: one readable line per request, no JSON', async () => {
    const server = await startServer({ dataDir, env: { NODE_ENV: 'development', LOG_LEVEL: 'info' } });
    try {
      await fetch(`${server.url}/api/nope`);
      // Lines are written in order: once this marker's line is out, every line of /api/nope is too.
      await fetch(`${server.url}/healthz?after=nope`);
      await outputLine(server, 'GET /healthz?after=nope 200');
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.includes('/api/nope'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/INFO.*GET \/api\/nope 404 \d+\.\d ms/);
      expect(lines[0]).not.toContain('{"level"');
    } finally {
      await server.stop('SIGTERM');
    }
  });
});
