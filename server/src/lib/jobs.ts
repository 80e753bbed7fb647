import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that must not hold up an answer (collecting unreferenced media today; fan-out and feed
 * rebuilds later). Jobs are idempotent: running one twice, or after a crash that lost it, does no
 * harm. The in-process runner is the embedded default; a durable queue (surviving a restart, shared
 * by several processes) can implement the same interface.
 */
export interface Jobs {
  /** Starts `task` in the background; a failure is logged, never thrown at the caller. */
  run(name: string, task: () => Promise<void>): void;
  /** Resolves when every job started so far (and any they started) has finished. */
  drain(): Promise<void>;
}

export class InProcessJobs implements Jobs {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  run(name: string, task: () => Promise<void>): void {
    const job: Promise<void> = Promise.resolve()
      .then(task)
      .catch((error: unknown) => this.log.error({ err: error, job: name }, 'job failed'))
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
