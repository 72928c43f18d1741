import { defineConfig } from 'vitest/config';

// Three levels, one runner. scripts/test.mjs (npm test) picks which run; the PostgreSQL project
// runs the same API files again against the machine's PostgreSQL (TEST_DATABASE=postgres).
// *.process.test.ts start the product's own entry point, once, on PGlite.
const apiFiles = ['apps/server/src/**/*.api.test.ts'];
// One migrated embedded database per run, copied by every PGlite test server (apps/server/src/test/global-setup.ts).
const TEMPLATE = 'apps/server/src/test/global-setup.ts';
// expect.poll's defaults (1 s, every 50 ms) are for unit tests: an answer on a loaded machine takes longer, and a
// query every 50 ms is load of its own (three browser files failed on a 1 s poll in CI).
const API_POLL = { timeout: 15_000, interval: 100 };

export default defineConfig({
  test: {
    // Vitest's default is one worker per core minus one: a single worker on a 2-core CI machine, where the
    // API suites wait on PostgreSQL, PGlite and timers more than they compute (about 40 % CPU in one worker).
    maxWorkers: 3,
    // The API files share each worker's module cache too (isolate: false): every file starts its own
    // servers, and evaluating the server's modules afresh for each file was most of a file's time. Measured on 15 API
    // files (2-core machine under load): 274 CPU-s and 650 s isolated, 179 CPU-s and 251 s shared, with no failure
    // (the isolated run's server starts timed out). No test file mocks modules, stubs globals or leaves fake timers.
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/web/src/**/*.test.tsx'],
          exclude: ['**/*.api.test.ts', '**/*.process.test.ts', '**/node_modules/**'],
          // The unit files share each worker's module cache: importing the same modules afresh for each of 100+
          // files was most of this project's time (273 s against 102 s on a loaded 2-core machine). They keep no
          // global state (no module mocks, stubbed globals or fake timers left behind).
          isolate: false,
          // Property tests and the zip-bomb check take 1-3 s alone; a loaded machine must not turn them red.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'api',
          include: [...apiFiles, 'apps/server/src/**/*.process.test.ts'],
          env: { TEST_DATABASE: 'pglite' },
          isolate: false,
          globalSetup: [TEMPLATE],
          expect: { poll: API_POLL },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api-postgres',
          include: apiFiles,
          // The two sweeps over every route (tenant boundaries, malformed input) check the permission and validation
          // layers, which do not depend on the database: they run once, on PGlite (144 s and 76 s of a worker). So do
          // the SIP peer (sipp) and the camera's media path (24 s and 8 s): video.api.test.ts runs the video
          // feature's SQL on both.
          exclude: [
            'apps/server/src/tenant-isolation.api.test.ts',
            'apps/server/src/api-fuzz.api.test.ts',
            'apps/server/src/features/video/video-sipp.api.test.ts',
            'apps/server/src/features/video/media/camera-stream.api.test.ts',
            '**/node_modules/**',
          ],
          isolate: false,
          env: { TEST_DATABASE: 'postgres' },
          // One migrated database per run, copied by every PostgreSQL test server (CREATE DATABASE … TEMPLATE).
          globalSetup: ['apps/server/src/test/postgres-template.ts'],
          expect: { poll: API_POLL },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          // The browser files share each worker's module cache too: evaluating the server's modules afresh for each
          // file was 255 s of the phase's worker time. A probe (start the product, a simulator and a browser, close
          // them) leaves no handle and under 1 % of a core behind. An earlier rehearsal that timed device-detail out
          // with shared workers ran beside five busy engineers.
          isolate: false,
          globalSetup: [TEMPLATE],
          // A page waits as long as a locator does (page.setDefaultTimeout in e2e/support/browser.ts).
          expect: { poll: { timeout: 30_000, interval: 250 } },
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
