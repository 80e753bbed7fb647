/**
 * Process-level harness: spawns the real server (`node --import tsx src/main.ts`) and, for
 * PostgreSQL, a private PostgreSQL instance in a temp dir on a free port. Everything listens on
 * 127.0.0.1 only; the machine's shared PostgreSQL (5432) is never touched.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CSRF_HEADER } from '@pipit/contract';
import { newCsrfCookie } from '../../src/lib/auth-cookies.ts';

const run = promisify(execFile);

export const SERVER_DIR = path.resolve(import.meta.dirname, '../..');
export const AUTH_SECRET = 'reliability-secret-0123456789abcdef0123456789abcdef';
export const PASSWORD = 'correct horse battery';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  port: number;
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal and waits for the exit (SIGKILL after `timeoutMs`). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServerOptions {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  /** Wait for /healthz 200 (default true). */
  waitReady?: boolean;
  port?: number;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: options.dataDir,
      AUTH_SECRET,
      RATE_LIMIT_ENABLED: 'false',
      WEB_DIST: 'none',
      LOG_LEVEL: 'warn',
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    out += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });
  const proc: ServerProcess = {
    port,
    url,
    child,
    output: () => out,
    exited,
    async stop(signal = 'SIGTERM', timeoutMs = 15_000) {
      if (!hasExited) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
  if (options.waitReady === false) return proc;
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (hasExited) throw new Error(`server exited before it was ready:\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return proc;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await proc.stop('SIGKILL');
  throw new Error(`server was not ready within 45 s:\n${out}`);
}

// ---------------------------------------------------------------------------------------------
// A private PostgreSQL instance.

function postgresBin(): string | null {
  if (process.env.PG_BIN && existsSync(path.join(process.env.PG_BIN, 'pg_ctl'))) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

export const postgresAvailable = postgresBin() !== null;

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL tool; as root, as the `postgres` OS user (initdb refuses root). */
async function pgTool(tool: string, args: string[]) {
  const bin = path.join(postgresBin() as string, tool);
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return run(file, argv, { timeout: 60_000 });
}

export interface PrivatePostgres {
  port: number;
  url: string;
  start(): Promise<void>;
  /** pg_ctl stop: 'fast' disconnects clients cleanly, 'immediate' is like a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = tempDir('pipit-pg-');
  const data = path.join(dir, 'data');
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await pgTool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=50`;
  let up = false;
  const pg: PrivatePostgres = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await pgTool('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']);
      up = true;
    },
    async stop(mode = 'fast') {
      await pgTool('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
      up = false;
    },
    async destroy() {
      if (up) await pg.stop('immediate').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await pg.start();
  return pg;
}

// ---------------------------------------------------------------------------------------------
// A small HTTP client: cookies, CSRF header, sign-in through the auth protocol.

export class HttpClient {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;

  constructor(readonly base: string) {}

  /** A valid CSRF cookie and token, minted with the shared secret (saves a round trip). */
  withCsrf(): this {
    const { token, value } = newCsrfCookie(AUTH_SECRET);
    this.cookies.set('next-auth.csrf-token', value);
    this.csrfToken = token;
    return this;
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
  }

  private absorb(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = decodeURIComponent(pair!.slice(eq + 1).trim());
      if (/;\s*Max-Age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** Sends a request; JSON bodies for objects. Throws only on network errors. */
  async request(method: string, url: string, body?: unknown, timeoutMs = 15_000): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (method !== 'GET' && this.csrfToken) headers[CSRF_HEADER] = this.csrfToken;
    let payload: string | undefined;
    if (body instanceof URLSearchParams) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = body.toString();
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(this.base + url, {
      method,
      headers,
      body: payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    this.absorb(res);
    return res;
  }

  /** Registers (POST /api/register) then signs in (POST /api/auth/callback/credentials). */
  async signUp(username: string): Promise<{ id: string }> {
    this.withCsrf();
    const email = `${username}@example.com`;
    const reg = await this.request('POST', '/api/register', { email, password: PASSWORD, username, name: username });
    if (reg.status !== 201) throw new Error(`register ${username}: ${reg.status} ${await reg.text()}`);
    const created = (await reg.json()) as { id: string };
    await this.signIn(email);
    return created;
  }

  async signIn(email: string): Promise<void> {
    if (!this.csrfToken) this.withCsrf();
    const form = new URLSearchParams({
      email,
      password: PASSWORD,
      csrfToken: this.csrfToken!,
      callbackUrl: `${this.base}/`,
      json: 'true',
    });
    const res = await this.request('POST', '/api/auth/callback/credentials', form);
    const text = await res.text();
    if (res.status !== 200 || ![...this.cookies.keys()].some((k) => k.includes('session-token'))) {
      throw new Error(`sign-in ${email}: ${res.status} ${text}`);
    }
  }
}

/** Classifies a fetch failure: no answer at all (refused/reset before headers) or a timeout. */
export function networkErrorCode(error: unknown): string {
  const e = error as { name?: string; code?: string; cause?: { code?: string; name?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'TIMEOUT';
  return e?.cause?.code ?? e?.code ?? e?.cause?.name ?? e?.name ?? 'UNKNOWN';
}
