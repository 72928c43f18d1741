import { defineConfig } from 'vitest/config';

// Three levels, one runner. scripts/test.mjs (npm test) picks which run; the PostgreSQL project
// runs the same API files again against the machine's PostgreSQL (TEST_DATABASE=postgres).
// *.process.test.ts start the product's own entry point, once, on PGlite.
const apiFiles = ['apps/server/src/**/*.api.test.ts'];
// One migrated embedded database per run, copied by every PGlite test server (apps/server/src/test/global-setup.ts).
const TEMPLATE = 'apps/server/src/test/global-setup.ts';

export default defineConfig({
  test: {
    // Vitest's default is one worker per core minus one: a single worker on a 2-core CI machine, where the
    // API suites wait on PostgreSQL, PGlite and timers more than they compute (about 40 % CPU in one worker).
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/web/src/**/*.test.tsx'],
          exclude: ['**/*.api.test.ts', '**/*.process.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'api',
          include: [...apiFiles, 'apps/server/src/**/*.process.test.ts'],
          env: { TEST_DATABASE: 'pglite' },
          globalSetup: [TEMPLATE],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'api-postgres', include: apiFiles, env: { TEST_DATABASE: 'postgres' }, testTimeout: 30_000, hookTimeout: 60_000 } },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          globalSetup: [TEMPLATE],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Three files at a time: each runs its own server, browser and simulator (npm test runs this phase alone);
          // the browser files wait on the page more than they compute (about half the two cores with three).
          maxWorkers: 3,
        },
      },
    ],
  },
});
