/**
 * A client that stops sending mid-body (a closed tab, a dropped connection) is not the server's
 * error: it is logged once at info, without a stack, and the server goes on answering others.
 * Raw sockets on 127.0.0.1; the log is read from the app's own logger stream.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import { type DbHandle, openDatabase } from '../../src/db/client.ts';
import { resetDb, testConfig } from '../helpers/app.ts';

interface LogLine {
  level: number;
  msg: string;
  err?: { stack?: string };
}

describe('a client that aborts mid-body', () => {
  let db: DbHandle;
  let app: App;
  let port: number;
  const lines: LogLine[] = [];
  let logged: () => void = () => {};

  beforeAll(async () => {
    db = await openDatabase({ databaseUrl: null, pgliteDir: 'memory://' });
    await resetDb(db);
    const logStream = {
      write(line: string) {
        lines.push(JSON.parse(line) as LogLine);
        logged();
      },
    };
    app = await buildApp(testConfig({ logLevel: 'info' }), { db, logStream });
    port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  /** Resolves once `count` lines say the client aborted (the signal the server has handled them). */
  const abortLines = (count: number) =>
    new Promise<void>((resolve) => {
      logged = () => {
        if (lines.filter((l) => l.msg === 'client aborted the request').length >= count) resolve();
      };
      logged();
    });

  /** Sends headers and half of the announced body, waits until the server is reading it, then hangs up. */
  async function abortedSignIn(): Promise<void> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /api/auth/callback/credentials HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n',
    );
    // "100 Continue": the server has routed the request and now waits for the body.
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write('email=alice%40example.com&pass');
    socket.destroy();
  }

  it('30 aborted sign-ins: 30 info lines without a stack, no error line, and the server still answers', async () => {
    const done = abortLines(30);
    for (let i = 0; i < 30; i++) await abortedSignIn();
    await done;
    const aborted = lines.filter((l) => l.msg === 'client aborted the request');
    expect(aborted).toHaveLength(30);
    for (const line of aborted) {
      expect(line.level).toBe(30); // info
      expect(line.err).toBeUndefined();
    }
    expect(lines.filter((l) => l.level >= 50)).toEqual([]); // nothing at error
    expect(lines.some((l) => JSON.stringify(l).includes('    at '))).toBe(false); // no stack anywhere
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
  });
});
