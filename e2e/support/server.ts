/**
 * Starts the real app the way people start it (`node scripts/start.mjs`): the built web app and the
 * API on one free 127.0.0.1 port, on a fresh embedded database in a temporary directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Copies the built web app aside, so a rebuild of web/dist while the journeys run (others work in
 * this checkout too) cannot pull hashed chunks from under the pages.
 */
export function snapshotWebDist(): { dir: string; remove(): void } {
  const parent = mkdtempSync(path.join(tmpdir(), 'pipit-e2e-web-'));
  const dir = path.join(parent, 'dist');
  cpSync(path.join(ROOT, 'web/dist'), dir, { recursive: true });
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

/** Binds `port` (0: any) on 127.0.0.1 and lets it go: the port that was free, or null if taken. */
function probePort(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(null));
    probe.listen(port, '127.0.0.1', () => {
      const address = probe.address();
      const bound = typeof address === 'object' && address ? address.port : null;
      probe.close(() => resolve(bound));
    });
  });
}

/**
 * A free port: any one the system gives, or one inside `E2E_PORTS` (e.g. `43000-43999`) when
 * several people run journeys on one machine and each keeps to a range of their own.
 */
export async function freePort(range = process.env.E2E_PORTS): Promise<number> {
  const match = range?.match(/^(\d+)-(\d+)$/);
  if (!match) {
    const port = await probePort(0);
    if (port === null) throw new Error('no free port');
    return port;
  }
  const low = Number(match[1]);
  const high = Number(match[2]);
  const size = high - low + 1;
  const start = Math.floor(Math.random() * size);
  // Bounded: at most 200 ports are tried, starting at a random one so parallel files rarely meet.
  for (let i = 0; i < Math.min(size, 200); i++) {
    const port = await probePort(low + ((start + i) % size));
    if (port !== null) return port;
  }
  throw new Error(`no free port in E2E_PORTS=${range}`);
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${output()}`);
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the server was not healthy after ${timeoutMs} ms (${last}):\n${output()}`);
}

export interface StartOptions {
  /** Environment added to the server's (rate limits, log level…). */
  env?: Record<string, string>;
  /** Skip start.mjs's "sources newer than the build" check (the global setup already built). */
  skipBuild?: boolean;
  /** Serve the web app from this directory instead of web/dist. */
  webDist?: string;
  timeoutMs?: number;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pipit-e2e-'));
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      ...(options.skipBuild ? { SKIP_WEB_BUILD: '1' } : {}),
      ...(options.webDist ? { WEB_DIST: options.webDist } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(url, child, () => log, options.timeoutMs ?? 180_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, dataDir, stop };
}
