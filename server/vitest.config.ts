import { defineConfig } from 'vitest/config';

/**
 * Files that replace a module (vi.mock) or set up browser globals for a client library: each runs in
 * a fresh module graph, as vitest runs files by default. Every other file shares its worker's modules
 * and its database (test/helpers/app.ts: one per worker, wiped before each test), so the app's module
 * graph is loaded once per worker instead of once per file — the graph's import was half the run.
 */
const ISOLATED = [
  'test/auth/sign-in.test.ts',
  'test/auth/next-auth-client.test.ts',
  'test/security/enumeration.test.ts',
  'test/security/uploads.test.ts',
  'test/media/images.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // global.gc for the tests that measure memory (test/security/uploads.test.ts): from a collected heap.
    execArgv: ['--expose-gc'],
    maxWorkers: 2,
    // Hang detectors, not speed checks: on a loaded machine opening PGlite alone has taken over a minute.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    sequence: { concurrent: false },
    projects: [
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, isolate: true },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          // Process-level tests (kill -9, SIGTERM, database outages) run with vitest.reliability.config.ts.
          exclude: ['test/reliability/**', '**/node_modules/**', ...ISOLATED],
          isolate: false,
        },
      },
    ],
  },
});
