import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite opens in seconds; one database per test file, data reset between tests.
    sequence: { concurrent: false },
  },
});
