import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['journeys/**/*.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    pool: 'forks',
    // Each file runs its own server and Chromium; two at once keep the run short without
    // starving the machine.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    sequence: { concurrent: false },
  },
});
