/**
 * Process-level harness: spawns the real server (`node --import tsx src/main.ts`, or a compiled one) and, for
 * PostgreSQL, a private PostgreSQL instance in a temp dir on a free port. Everything listens on
 * 127.0.0.1 only; the machine's shared PostgreSQL (5432) is never touched.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { CSRF_HEADER } from '@pipit/contract';
import { newCsrfCookie } from '../../src/lib/auth-cookies.ts';
import { CookieJar } from '../helpers/cookie-jar.ts';

const run = promisify(execFile);

export const SERVER_DIR = path.resolve(import.meta.dirname, '../..');
const journal = JSON.parse(readFileSync(path.join(SERVER_DIR, 'src/db/migrations/meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};
/** How many migrations there are, and the last one's tag (what a set-up data directory is marked with). */
export const MIGRATIONS = journal.entries.length;
export const LATEST_MIGRATION = journal.entries.at(-1)?.tag;

/** Runs statements on a data directory's database as it is: no lock, no migrations (the server is stopped). */
export async function rawQuery(dataDir: string, text: string): Promise<Record<string, unknown>[]> {
  const db = new PGlite(path.join(dataDir, 'pgdata'));
  try {
    return (await db.query<Record<string, unknown>>(text)).rows;
  } finally {
    await db.close();
  }
}

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
  /** A compiled server's main.js to run instead of the sources (`node --import tsx src/main.ts`). */
  main?: string;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const args = options.main ? [options.main] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
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
  // Ready is a signal (/healthz answers 200), failure another (the process exits); how long start-up
  // takes depends on the machine's load, so no deadline here: the test's timeout catches a hang.
  for (;;) {
    if (hasExited) throw new Error(`server exited before it was ready:\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return proc;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
}

/**
 * The first line of the process's output that contains `text`. The output arrives on a pipe, so it is
 * awaited, bounded by the test's timeout; a process that exits without printing it fails at once.
 */
export async function outputLine(server: ServerProcess, text: string): Promise<string> {
  for (;;) {
    const line = server
      .output()
      .split('\n')
      .find((l) => l.includes(text));
    if (line !== undefined) return line;
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`no line with "${text}" before exit:\n${server.output()}`);
    }
    await sleep(25);
  }
}

// ---------------------------------------------------------------------------------------------
// Redis: the machine's (TEST_REDIS_URL), reached through a relay a test can cut or stall.

export const REDIS = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

/**
 * Whether the tests that need Redis run: a Redis answers at REDIS. Named explicitly by TEST_REDIS_URL
 * (as CI does), one that does not answer is a failure, not a reason to skip.
 */
export async function redisForTests(file: string): Promise<boolean> {
  const available = await redisAnswers();
  if (!available && process.env.TEST_REDIS_URL) throw new Error(`no Redis answers at TEST_REDIS_URL (${REDIS.host})`);
  if (!available) console.warn(`${file}: skipped, no Redis at ${REDIS.host} (set TEST_REDIS_URL)`);
  return available;
}

export async function redisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(REDIS.port || 6379), REDIS.hostname);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
/** A TCP relay to Redis that the test can cut (every connection dropped, new ones refused) and restore. */
export class Relay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(readonly port: number) {}

  /** While true, bytes are swallowed both ways: Redis looks alive (connected) but never answers. */
  stalled = false;

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(REDIS.port || 6379), REDIS.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.on('data', (data) => {
        if (!this.stalled) upstream.write(data);
      });
      upstream.on('data', (data) => {
        if (!this.stalled) client.write(data);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
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

const postgresAvailable = postgresBin() !== null;

/**
 * Whether the tests that need a private PostgreSQL run: its programs (initdb, pg_ctl) are installed.
 * In CI (CI=true) their absence is a failure, as a missing Redis is: a skip there would pass a
 * submission whose PostgreSQL paths were never run.
 */
export function postgresForTests(file: string): boolean {
  if (postgresAvailable) return true;
  if (process.env.CI === 'true')
    throw new Error(`${file}: no PostgreSQL programs (pg_ctl) found; install them or set PG_BIN`);
  console.warn(`${file}: PostgreSQL tests skipped, no pg_ctl found (install PostgreSQL or set PG_BIN)`);
  return false;
}

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
  readonly cookies = new CookieJar();
  csrfToken: string | null = null;

  constructor(readonly base: string) {}

  /** A valid CSRF cookie and token, minted with the shared secret (saves a round trip). */
  withCsrf(): this {
    const { token, value } = newCsrfCookie(AUTH_SECRET);
    this.cookies.set('next-auth.csrf-token', value);
    this.csrfToken = token;
    return this;
  }

  /** Sends a request; JSON bodies for objects. Throws only on network errors. */
  async request(method: string, url: string, body?: unknown, timeoutMs = 15_000): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = this.cookies.header();
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
    this.cookies.absorb(res.headers.getSetCookie());
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

// ---------------------------------------------------------------------------------------------
// A mixed write load that remembers every write the server acknowledged.

export interface Member {
  client: HttpClient;
  id: string;
}

/** Registers and signs in `count` members (names made unique by `prefix`). */
export async function signUpMembers(base: string, prefix: string, count: number): Promise<Member[]> {
  const members: Member[] = [];
  for (let i = 0; i < count; i++) {
    const client = new HttpClient(base);
    const { id } = await client.signUp(`${prefix}${i}`);
    members.push({ client, id });
  }
  return members;
}

export interface RequestRecord {
  op: string;
  startedAt: number;
  endedAt: number;
  /** HTTP status, or null when no answer came at all. */
  status: number | null;
  /** The error code of a non-2xx answer. */
  code?: string;
  /** 'none': the connection failed before any answer; 'partial': headers came, the body broke off. */
  failure?: { kind: 'none' | 'partial' | 'timeout'; code: string };
}

/**
 * Workers (one or more per member) loop over posts, replies, likes, follows and timeline reads
 * until stopped or the deadline passes. Only writes answered 2xx with a complete body count as
 * acknowledged.
 */
export class WriteLoad {
  readonly posts = new Map<string, { text: string; authorId: string; parentId: string | null }>();
  readonly likes = new Set<string>();
  readonly follows = new Set<string>();
  readonly records: RequestRecord[] = [];
  private stopped = false;
  private counter = 0;

  constructor(
    private readonly members: Member[],
    private readonly tag: string,
  ) {}

  stop() {
    this.stopped = true;
  }

  /** Runs `workersPerMember` loops per member until stop() or `maxMs`; stops a worker after `maxFailures` failures in a row. */
  async run(options: { maxMs: number; workersPerMember?: number; maxFailures?: number; readShare?: number }) {
    const deadline = Date.now() + options.maxMs;
    const loops: Promise<void>[] = [];
    for (const member of this.members) {
      for (let w = 0; w < (options.workersPerMember ?? 1); w++) {
        loops.push(this.worker(member, deadline, options.maxFailures ?? 3, options.readShare ?? 0.2));
      }
    }
    await Promise.all(loops);
  }

  private pick<T>(items: T[]): T | undefined {
    return items[Math.floor(Math.random() * items.length)];
  }

  private async worker(me: Member, deadline: number, maxFailures: number, readShare: number) {
    let failuresInARow = 0;
    while (!this.stopped && Date.now() < deadline && failuresInARow < maxFailures) {
      const roll = Math.random();
      const postIds = [...this.posts.keys()];
      const target = this.pick(postIds.slice(-200));
      const other = this.pick(this.members.filter((m) => m.id !== me.id));
      let op: string;
      let call: () => Promise<Response>;
      let onAck: (body: unknown) => void = () => {};
      if (roll < readShare) {
        op = 'read';
        call = () => me.client.request('GET', '/api/timeline/everyone?limit=20');
      } else if (roll < readShare + 0.15 && target) {
        op = 'like';
        call = () => me.client.request('PUT', `/api/posts/${target}/like`);
        onAck = () => this.likes.add(`${me.id}:${target}`);
      } else if (roll < readShare + 0.22 && other) {
        op = 'follow';
        call = () => me.client.request('PUT', `/api/users/${other.id}/follow`);
        onAck = () => this.follows.add(`${me.id}:${other.id}`);
      } else {
        op = 'post';
        const text = `${this.tag} ${me.id} #${this.counter++} ${'é🙂'.repeat(Math.floor(Math.random() * 5))}`.trim();
        const parentId = Math.random() < 0.3 && target ? target : null;
        call = () => me.client.request('POST', '/api/posts', { text, ...(parentId ? { parentId } : {}) });
        onAck = (body) => {
          const id = (body as { id: string }).id;
          this.posts.set(id, { text, authorId: me.id, parentId });
        };
      }
      const record: RequestRecord = { op, startedAt: Date.now(), endedAt: 0, status: null };
      this.records.push(record);
      let res: Response;
      try {
        res = await call();
      } catch (error) {
        record.endedAt = Date.now();
        const code = networkErrorCode(error);
        record.failure = { kind: code === 'TIMEOUT' ? 'timeout' : 'none', code };
        failuresInARow++;
        continue;
      }
      record.status = res.status;
      let body: unknown;
      try {
        const text = await res.text();
        body = text ? JSON.parse(text) : null;
      } catch (error) {
        record.endedAt = Date.now();
        record.failure = { kind: 'partial', code: networkErrorCode(error) };
        failuresInARow++;
        continue;
      }
      record.endedAt = Date.now();
      if (res.status >= 200 && res.status < 300) {
        failuresInARow = 0;
        onAck(body);
      } else {
        record.code = String((body as { code?: unknown } | null)?.code);
        failuresInARow++;
        if (res.status === 503) await sleep(50);
      }
    }
  }

  acknowledgedWrites(): number {
    return this.posts.size + this.likes.size + this.follows.size;
  }
}

// ---------------------------------------------------------------------------------------------
// What the database must hold afterwards.

export type Query = (text: string) => Promise<Record<string, unknown>[]>;

/** A query function on a PostgreSQL database (closed by the returned `end`). */
export async function pgQuery(url: string): Promise<{ query: Query; end: () => Promise<void> }> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { query: async (text) => (await client.query(text)).rows, end: () => client.end() };
}

/** A query function on an embedded data directory, opened in this process (the server must be stopped). */
export async function pgliteQuery(dataDir: string): Promise<{ query: Query; end: () => Promise<void> }> {
  const { openDatabase, sql } = await import('../../src/db/client.ts');
  const handle = await openDatabase({ databaseUrl: null, pgliteDir: dataDir });
  return {
    query: async (text) => {
      const result = await handle.db.execute(sql.raw(text));
      return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
    },
    end: () => handle.close(),
  };
}

/** Every acknowledged write is in the database, and every counter equals the rows it counts. */
/** Writes the server acknowledged: posts by id, likes as `user:post`, follows as `follower:followee`. */
export interface Acknowledged {
  posts: Map<string, { text: string; authorId: string; parentId: string | null }>;
  likes: Set<string>;
  follows: Set<string>;
}

export async function verifyDurability(query: Query, load: Acknowledged): Promise<string[]> {
  const problems: string[] = [];
  const rows = await query('SELECT id::text AS id, text, author_id::text AS author FROM posts');
  const found = new Map(rows.map((r) => [String(r.id), r]));
  for (const [id, post] of load.posts) {
    const row = found.get(id);
    if (!row) problems.push(`acknowledged post ${id} is missing`);
    else if (row.text !== post.text || row.author !== post.authorId)
      problems.push(`post ${id} differs: ${JSON.stringify(row)}`);
  }
  const likeRows = await query("SELECT user_id::text || ':' || post_id::text AS k FROM likes");
  const likes = new Set(likeRows.map((r) => String(r.k)));
  for (const like of load.likes) {
    // A like goes away with its post only if the post was deleted, which this load never does.
    if (!likes.has(like)) problems.push(`acknowledged like ${like} is missing`);
  }
  const followRows = await query("SELECT follower_id::text || ':' || followee_id::text AS k FROM follows");
  const follows = new Set(followRows.map((r) => String(r.k)));
  for (const follow of load.follows)
    if (!follows.has(follow)) problems.push(`acknowledged follow ${follow} is missing`);
  problems.push(...(await verifyCounters(query)));
  return problems;
}

export async function verifyCounters(query: Query): Promise<string[]> {
  const checks: Record<string, string> = {
    'users.posts_count':
      'SELECT id FROM users u WHERE posts_count <> (SELECT count(*) FROM posts p WHERE p.author_id = u.id)',
    'users.followers_count':
      'SELECT id FROM users u WHERE followers_count <> (SELECT count(*) FROM follows f WHERE f.followee_id = u.id)',
    'users.following_count':
      'SELECT id FROM users u WHERE following_count <> (SELECT count(*) FROM follows f WHERE f.follower_id = u.id)',
    'posts.like_count':
      'SELECT id FROM posts p WHERE like_count <> (SELECT count(*) FROM likes l WHERE l.post_id = p.id)',
    'posts.reply_count':
      'SELECT id FROM posts p WHERE reply_count <> (SELECT count(*) FROM posts c WHERE c.parent_id = p.id)',
  };
  const problems: string[] = [];
  for (const [counter, text] of Object.entries(checks)) {
    const wrong = await query(text);
    if (wrong.length) problems.push(`${counter} is wrong for ids ${wrong.map((r) => r.id).join(', ')}`);
  }
  return problems;
}

export function summarize(records: RequestRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of records) {
    const key = r.failure ? `${r.failure.kind}:${r.failure.code}` : String(r.status);
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}
