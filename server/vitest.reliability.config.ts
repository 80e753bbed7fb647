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
    testTimeout: 120_000,
    hookTimeout: 60_000,
    sequence: { concurrent: false },
  },
});
