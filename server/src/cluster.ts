import cluster, { type Worker } from 'node:cluster';
import pino from 'pino';
import type { Config } from './config.ts';

/** A worker that dies this soon after starting counts as failing to start. */
const EARLY_DEATH_MS = 10_000;
/** This many early deaths in a row stop the whole server (a broken config, not a crash to ride out). */
const MAX_EARLY_DEATHS = 5;
const SHUTDOWN_GRACE_MS = 15_000;

/**
 * The primary of `WORKERS=N`: forks N server processes that share the port (node:cluster hands
 * each connection to one of them), one PostgreSQL and one Redis. A worker that dies is replaced;
 * SIGTERM/SIGINT stop every worker gracefully (each drains its requests) and then the primary.
 */
export function runPrimary(config: Config): void {
  const log = pino({ level: config.logLevel, name: 'pipit-primary' });
  let stopping = false;
  let earlyDeaths = 0;
  const startedAt = new Map<Worker, number>();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    earlyDeaths = lived < EARLY_DEATH_MS ? earlyDeaths + 1 : 0;
    if (earlyDeaths >= MAX_EARLY_DEATHS) {
      log.error({ code, signal }, `workers keep dying at start (${earlyDeaths} in a row); stopping`);
      void stop('workers failing', 1);
      return;
    }
    log.warn({ pid: worker.process.pid, code, signal }, 'a worker died; starting another');
    fork();
  });

  const stop = async (why: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    log.info({ why }, 'stopping every worker');
    const force = setTimeout(() => {
      log.error('workers did not stop in time; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    if (workers.length === 0) process.exit(exitCode);
    for (const worker of workers) worker.process.kill('SIGTERM');
    if (exitCode !== 0) process.exitCode = exitCode;
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  log.info(`starting ${config.workers} workers`);
  for (let i = 0; i < config.workers; i++) fork();
}
