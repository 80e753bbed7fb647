import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Process-level tests (kill -9, SIGTERM, database outages) run with vitest.reliability.config.ts.
    exclude: ['test/reliability/**', '**/node_modules/**'],
    pool: 'forks',
    // global.gc for the tests that measure memory (test/security/uploads.test.ts): from a collected heap.
    execArgv: ['--expose-gc'],
    maxWorkers: 2,
    // Hang detectors, not speed checks: on a loaded machine opening PGlite alone has taken over a minute.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // PGlite opens in seconds; one database per test file, data reset between tests.
    sequence: { concurrent: false },
  },
});
