import { defineConfig } from 'vitest/config';

/**
 * Process-level reliability tests: each file spawns the real server (and, for PostgreSQL, a private
 * PostgreSQL instance in a temp dir) and talks HTTP to 127.0.0.1 only. Files run one at a time so
 * the load and crash tests do not compete for the CPU.
 */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    // Hang detectors, not speed checks: every wait inside is for a signal, and a loaded machine
    // (CI's is shared) can make a server's start-up alone take a minute.
    testTimeout: 600_000,
    hookTimeout: 300_000,
    sequence: { concurrent: false },
  },
});
