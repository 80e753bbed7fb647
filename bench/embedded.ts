// npm run bench:embedded [-- --mode dev|prod|all] [--posts 3000] [--rest 10] [--concurrency 4]
//
// What a self-hoster's embedded default costs in memory (issue 31, item 6). For each mode it starts
// the real app the way `npm start` does — its command from package.json, development or production
// (NODE_ENV=production) — on a fresh temporary DATA_DIR, and samples the
// resident memory of the whole process tree (the server and any process it starts) from /proc every
// 100 ms through: the first start (until /healthz answers), a rest, a burst of posts through the HTTP
// API by a member registered and signed in the way the web app does it, a rest after it, and a second
// start on the same data directory. Goal: every phase's peak ≤ 300 MB.
//
// Only 127.0.0.1; every wait is bounded; the temporary directories are removed at the end.
// Results: bench/results/embedded-<time>.{json,md} and bench/results/latest-embedded.{json,md}.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, CSRF_HEADER } from '@pipit/contract';
import { buildWebIfStale } from '../scripts/web-build.mjs';
import { parseArgs, RESULTS_DIR, ROOT_DIR } from './lib/options.ts';
import { freePort } from './lib/server.ts';

const GOAL_MB = 300;
const SAMPLE_MS = 100;
const START_TIMEOUT_MS = 300_000;
const BURST_TIMEOUT_MS = 900_000;
const STOP_TIMEOUT_MS = 30_000;

type Mode = 'dev' | 'prod';

const args = parseArgs(process.argv.slice(2));
const modeArg = args.get('mode') ?? 'all';
if (!['dev', 'prod', 'all'].includes(modeArg)) throw new Error(`--mode must be dev, prod or all, got ${modeArg}`);
const modes: Mode[] = modeArg === 'all' ? ['dev', 'prod'] : [modeArg as Mode];
const posts = Number(args.get('posts') ?? 3_000);
const restS = Number(args.get('rest') ?? 10);
const concurrency = Number(args.get('concurrency') ?? 4);

// ---------------------------------------------------------------------------------------------
// Resident memory of a process tree, from /proc.

function childrenOf(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const tid of tasks) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text) found.push(...text.split(/\s+/).map(Number));
    } catch {
      // the thread ended
    }
  }
  return found;
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const CLOCK_TICKS_PER_S = 100;

/** CPU time of a process and of its children it has reaped, in ms (from /proc/<pid>/stat). */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // utime, stime, cutime, cstime: fields 14–17, counted after the command (which may hold spaces).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return (ticks * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** The RSS and CPU time of `root` and all its descendants, and how many processes that is. */
function treeUsage(root: number): { mb: number; cpuMs: number; processes: number } {
  let mb = 0;
  let cpu = 0;
  let processes = 0;
  const queue = [root];
  while (queue.length) {
    const pid = queue.pop() as number;
    const rss = rssMb(pid);
    if (rss === 0) continue;
    mb += rss;
    cpu += cpuMs(pid);
    processes++;
    queue.push(...childrenOf(pid));
  }
  return { mb, cpuMs: cpu, processes };
}

interface PhaseResult {
  phase: string;
  seconds: number;
  peakMb: number;
  endMb: number;
  /** CPU time the tree used in the phase (a helper's counts once its server has reaped it). */
  cpuS: number;
  /** Most processes seen in the tree at once (2: the server and a helper it started). */
  processes: number;
  note?: string;
}

/** Samples a process tree every 100 ms; phases record the peak and the value at their end. */
class TreeSampler {
  private timer: NodeJS.Timeout;
  private peak = 0;
  private processes = 0;
  private last = 0;
  private cpu = 0;
  private phaseCpu = 0;
  private phaseStart = performance.now();

  constructor(private readonly root: number) {
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
  }

  private sample(): void {
    const { mb, cpuMs, processes } = treeUsage(this.root);
    if (mb > 0) this.last = mb;
    // A helper's CPU leaves the tree when it exits and comes back with its server's reaped time.
    this.cpu = Math.max(this.cpu, cpuMs);
    this.peak = Math.max(this.peak, mb);
    this.processes = Math.max(this.processes, processes);
  }

  begin(): void {
    this.peak = 0;
    this.processes = 0;
    this.phaseStart = performance.now();
    this.sample();
    this.phaseCpu = this.cpu;
  }

  end(phase: string, note?: string): PhaseResult {
    this.sample();
    const result: PhaseResult = {
      phase,
      seconds: (performance.now() - this.phaseStart) / 1000,
      peakMb: this.peak,
      endMb: this.last,
      cpuS: (this.cpu - this.phaseCpu) / 1000,
      processes: this.processes,
      ...(note ? { note } : {}),
    };
    console.log(
      `  ${phase.padEnd(24)} ${result.seconds.toFixed(1).padStart(6)} s   CPU ${result.cpuS.toFixed(1).padStart(5)} s   peak ${result.peakMb.toFixed(0).padStart(4)} MB   end ${result.endMb.toFixed(0).padStart(4)} MB   processes ${result.processes}${note ? `   ${note}` : ''}`,
    );
    return result;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

// ---------------------------------------------------------------------------------------------
// The app as `npm start` runs it.

interface Running {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  output(): string;
}

/**
 * What `npm start` runs (package.json: `node [flags] scripts/start.mjs`), without npm's own process in
 * front of it: the Node flags and the script, run by this Node.
 */
function startCommand(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'scripts/start.mjs')
    throw new Error(`npm start is no longer "node … scripts/start.mjs": ${pkg.scripts.start}`);
  return [...words.slice(1, -1), path.join(ROOT_DIR, 'scripts/start.mjs')];
}

function start(mode: Mode, dataDir: string, port: number, authSecret: string): Running {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    RATE_LIMIT_ENABLED: 'false',
  };
  // Production refuses to start without a secret; development makes one in the data directory.
  if (mode === 'prod') Object.assign(env, { NODE_ENV: 'production', AUTH_SECRET: authSecret });
  const child = spawn(process.execPath, startCommand(), {
    cwd: ROOT_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Keep the tail of the output for error reports; the pipes are always drained.
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, exited, output: () => tail };
}

/** Resolves when /healthz answers 200; throws if the process exits first or the deadline passes. */
async function ready(server: Running): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (server.child.exitCode !== null)
      throw new Error(`the server exited with ${server.child.exitCode}:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer /healthz in time:\n${server.output()}`);
    try {
      const response = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(SAMPLE_MS);
  }
}

async function stop(server: Running): Promise<number | null> {
  if (server.child.exitCode !== null) return server.child.exitCode;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  const code = await server.exited;
  clearTimeout(timer);
  return code;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// A member, signed in as the web app does it: the CSRF token of /api/auth/csrf, registration, then
// the credentials callback of the auth protocol; writes carry the token in X-CSRF-Token.

class Member {
  private readonly cookies = new Map<string, string>();
  private csrfToken = '';

  constructor(private readonly base: string) {}

  private absorb(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = (pair ?? '').indexOf('=');
      if (at > 0) this.cookies.set((pair as string).slice(0, at), (pair as string).slice(at + 1));
    }
  }

  async request(method: string, url: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    if (method !== 'GET') headers[CSRF_HEADER] = this.csrfToken;
    let payload: string | undefined;
    if (body instanceof URLSearchParams) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = body.toString();
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(this.base + url, {
      method,
      headers,
      body: payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    this.absorb(response);
    return response;
  }

  async signUp(username: string): Promise<void> {
    const csrf = await this.request('GET', '/api/auth/csrf');
    this.csrfToken = ((await csrf.json()) as { csrfToken: string }).csrfToken;
    const email = `${username}@example.com`;
    const password = `embedded bench ${randomBytes(6).toString('hex')}`;
    const registered = await this.request('POST', api.register, { email, password, username, name: username });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
    const form = new URLSearchParams({
      email,
      password,
      csrfToken: this.csrfToken,
      callbackUrl: this.base,
      json: 'true',
    });
    const signedIn = await this.request('POST', '/api/auth/callback/credentials', form);
    await signedIn.text();
    if (![...this.cookies.keys()].some((name) => name.includes('session-token')))
      throw new Error(`sign-in: ${signedIn.status}, no session cookie`);
  }
}

/** `count` posts through POST /api/posts from `concurrency` loops; returns posts per second. */
async function burst(member: Member, count: number): Promise<number> {
  const started = performance.now();
  const deadline = Date.now() + BURST_TIMEOUT_MS;
  let next = 0;
  let failures = 0;
  const loop = async () => {
    while (next < count) {
      if (Date.now() > deadline) throw new Error(`the burst did not finish within ${BURST_TIMEOUT_MS / 1000} s`);
      const i = next++;
      const response = await member.request('POST', api.posts, {
        text: `Post ${i} of the embedded memory bench: a few words, a #hashtag and @nobody, as people write.`,
      });
      const text = await response.text();
      if (response.status !== 201 && ++failures > 10) throw new Error(`POST /api/posts: ${response.status} ${text}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  if (failures) console.log(`  (${failures} posts refused)`);
  return count / ((performance.now() - started) / 1000);
}

// ---------------------------------------------------------------------------------------------

async function runMode(mode: Mode): Promise<PhaseResult[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `pipit-embedded-${mode}-`));
  const dataDir = path.join(dir, 'data');
  const authSecret = randomBytes(32).toString('hex');
  const phases: PhaseResult[] = [];
  console.log(`\n${mode === 'dev' ? 'development (npm start)' : 'production (NODE_ENV=production npm start)'}`);
  try {
    for (const round of ['first', 'second'] as const) {
      const port = await freePort();
      const server = start(mode, dataDir, port, authSecret);
      const sampler = new TreeSampler(server.child.pid as number);
      try {
        sampler.begin();
        await ready(server);
        phases.push(sampler.end(`${round} start`));
        sampler.begin();
        await sleep(restS * 1000);
        phases.push(sampler.end(round === 'first' ? 'rest' : 'rest after second start'));
        if (round === 'first') {
          const member = new Member(server.url);
          await member.signUp(`bench_${mode}`);
          sampler.begin();
          const rate = await burst(member, posts);
          const phase = sampler.end(`burst (${posts.toLocaleString('en-US')} posts)`);
          phase.note = `${rate.toFixed(0)} posts/s, ${((phase.cpuS * 1000) / posts).toFixed(1)} ms CPU per post`;
          console.log(`    ${phase.note}`);
          phases.push(phase);
          sampler.begin();
          await sleep(restS * 1000);
          phases.push(sampler.end('rest after burst'));
        }
      } finally {
        sampler.stop();
        const code = await stop(server);
        if (code !== 0)
          console.log(`  the server exited with ${code} after SIGTERM:\n${server.output().slice(-2_000)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return phases;
}

function markdown(result: {
  date: string;
  machine: string;
  command: string;
  modes: { mode: Mode; phases: PhaseResult[] }[];
}): string {
  const parts = [`Run ${result.date} · ${result.machine}`, `Command: \`${result.command}\``];
  for (const { mode, phases } of result.modes) {
    const over = phases.filter((p) => p.peakMb > GOAL_MB);
    const title = mode === 'dev' ? 'Development (`npm start`)' : 'Production (`NODE_ENV=production npm start`)';
    parts.push(
      [
        `### ${title}`,
        '',
        '| phase | seconds | CPU (s) | peak RSS (MB) | RSS at end (MB) | processes | |',
        '|---|---|---|---|---|---|---|',
        ...phases.map(
          (p) =>
            `| ${p.phase} | ${p.seconds.toFixed(1)} | ${p.cpuS.toFixed(1)} | ${p.peakMb.toFixed(0)}${p.peakMb > GOAL_MB ? ' ✗' : ''} | ${p.endMb.toFixed(0)} | ${p.processes} | ${p.note ?? ''} |`,
        ),
        '',
        `Goal: every peak ≤ ${GOAL_MB} MB — ${
          over.length === 0
            ? 'met'
            : `not met: ${over.map((p) => `${p.phase} ${p.peakMb.toFixed(0)} MB`).join(', ')} (${phases.length - over.length} of ${phases.length} phases met)`
        }.`,
      ].join('\n'),
    );
  }
  return `${parts.join('\n\n')}\n`;
}

async function main() {
  // What `npm start` runs, built from the current sources first: the web app and the compiled server
  // (in development start.mjs rebuilds either when stale; its builds are not the server's memory).
  buildWebIfStale();
  execFileSync(process.execPath, [path.join(ROOT_DIR, 'scripts/build-server.mjs')], { stdio: 'inherit' });

  const pglite = JSON.parse(
    readFileSync(path.join(ROOT_DIR, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  const date = new Date().toISOString();
  const result = {
    date,
    machine: `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.type()} ${os.release()}, Node ${process.version}, PGlite ${pglite.version}, load average at start ${os.loadavg()[0]?.toFixed(1)}`,
    command: `npm run bench:embedded${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    posts,
    restS,
    concurrency,
    goalMb: GOAL_MB,
    modes: [] as { mode: Mode; phases: PhaseResult[] }[],
  };
  console.log(result.machine);
  for (const mode of modes) result.modes.push({ mode, phases: await runMode(mode) });

  const md = markdown(result);
  console.log(`\n${md}`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = date.replace(/[:.]/g, '-');
  for (const name of [`embedded-${stamp}`, 'latest-embedded']) {
    writeFileSync(path.join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(path.join(RESULTS_DIR, `${name}.md`), md);
  }
  console.log(`written to ${path.relative(ROOT_DIR, RESULTS_DIR)}/embedded-${stamp}.{json,md}`);
}

await main();
