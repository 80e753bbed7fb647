// The real server as a child process (production mode), and the peak of its resident memory.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { ROOT_DIR } from './options.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** VmRSS and VmHWM (peak) of a process, in MB, from /proc. */
export function processMemory(pid: number): { rssMb: number; hwmMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Polls a process's RSS; `peak()` is the highest seen since the last `reset()`. */
export class MemorySampler {
  private timer: NodeJS.Timeout;
  private max = 0;

  constructor(
    private readonly pid: number,
    intervalMs = 100,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  private sample() {
    const m = processMemory(this.pid);
    if (m) this.max = Math.max(this.max, m.rssMb);
  }

  reset() {
    this.max = 0;
    this.sample();
  }

  peak(): number {
    this.sample();
    return this.max;
  }

  stop() {
    clearInterval(this.timer);
  }
}

export interface ServerOptions {
  /** PostgreSQL URL, or null for the embedded database in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  authSecret: string;
  /** Directory for a V8 CPU profile of the whole run (written when the server exits). */
  cpuProfDir?: string | undefined;
  startTimeoutMs?: number;
  /** More environment for the server (e.g. stream caps). */
  env?: Record<string, string>;
}

export interface RunningServer {
  url: string;
  pid: number;
  startMs: number;
  memory: MemorySampler;
  /** The process's own peak resident memory since start (VmHWM), in MB. */
  hwmMb(): number;
  stop(): Promise<void>;
}

let built = false;

/**
 * The server compiled as production runs it (`npm start` with NODE_ENV=production runs server/dist,
 * made by `npm run build -w server`), built once per bench process from the current sources (~1 s).
 * Until 2026-11-26 the bench ran the TypeScript sources through tsx, which production never does:
 * tsx's loader held ~70 MB more (start at ~217 MB RSS against ~144 MB compiled).
 */
function buildServerOnce(): string {
  if (!built) {
    execFileSync(process.execPath, [path.join(ROOT_DIR, 'scripts/build-server.mjs')], { stdio: 'inherit' });
    built = true;
  }
  return path.join(ROOT_DIR, 'server/dist/main.js');
}

/**
 * The Node flags `npm start` passes (package.json's `start`: the options before `scripts/start.mjs`), so the
 * bench's server runs as production's does: `--max-semi-space-size=16` alone halves the server's peak RSS on
 * Node 24 (its default young generation is larger than Node 20's).
 */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  const entry = words.indexOf('scripts/start.mjs');
  if (words[0] !== 'node' || entry < 0) throw new Error(`package.json start is not "node [flags] scripts/start.mjs"`);
  return words.slice(1, entry);
}

/** Starts the compiled server as in production (NODE_ENV=production, npm start's Node flags) on 127.0.0.1 and waits for /healthz. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const main = buildServerOnce();
  const port = await freePort();
  const args: string[] = startFlags();
  if (options.cpuProfDir) args.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`);
  args.push(main);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    AUTH_SECRET: options.authSecret,
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    DATA_DIR: options.dataDir,
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  Object.assign(env, options.env);
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT_DIR,
    env,
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  // A bench that fails half-way must not leave its server running (it would hold the port and the terminal).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    process.stderr.write(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 300_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr.slice(-2000)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not answer /healthz in time');
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = child.pid as number;
  const memory = new MemorySampler(pid);
  return {
    url,
    pid,
    startMs: performance.now() - started,
    memory,
    hwmMb: () => processMemory(pid)?.hwmMb ?? 0,
    async stop() {
      memory.stop();
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}

const CLOCK_TICKS_PER_S = 100;

/** User + system CPU time a process has used, in ms (from /proc/<pid>/stat); 0 when it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return 0;
  }
}

/**
 * CPU time used by a set of processes between start() and stop(). Robust to other work on the
 * machine, unlike requests per second: it says what one request costs.
 */
export class CpuMeter {
  private before = new Map<number, number>();

  start(pids: number[]): void {
    this.before = new Map(pids.map((pid) => [pid, processCpuMs(pid)]));
  }

  stop(): number {
    let total = 0;
    for (const [pid, ms] of this.before) total += Math.max(0, processCpuMs(pid) - ms);
    return total;
  }
}
