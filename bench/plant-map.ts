// Plant map benchmark (issue 4): the list's map view renders 10,000 plants as clustered markers.
//   npm run build && npx tsx bench/plant-map.ts [--plants 10000] [--runs 5]
// Seeds PostgreSQL (127.0.0.1:5432, a scratch database), serves the built console, signs in through the
// form in Debian's chromium (headless) and opens /plants?view=map again and again. A run is timed from
// navigation until the clusters on screen account for every plant (the markers call answered, clustering
// done, icons in the DOM); no tiles load (no network), which the map tolerates by design.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/server/src/config.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { startServer } from '../apps/server/src/server.js';
import { launchBrowser, openPage, signInThroughForm } from '../e2e/support/browser.js';
import { WEB_DIST } from '../e2e/support/product.js';
import { seedPlants } from './seed-plants.js';
import { traceRequests } from './trace.js';

const { values: args } = parseArgs({ options: { plants: { type: 'string', default: '10000' }, runs: { type: 'string', default: '5' } } });
const plantCount = Number(args.plants);
const runs = Number(args.runs);
const PASSWORD = 'Bench-Password-1';
const scratch = await createScratchDatabase(
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  'sunward_mapbench',
);
const server = await startServer(
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'sunward-mapbench-')),
    DATABASE_URL: scratch.url,
    LOG_LEVEL: 'silent',
    ADMIN_ACCOUNT: 'admin@bench.local',
    ADMIN_PASSWORD: PASSWORD,
    SIMULATOR: 'off',
    WEB_DIST,
  }),
  { logger: false },
);
await seedPlants(server.database.db, plantCount, PASSWORD);
const address = server.app.server.address();
const baseURL = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const browser = await launchBrowser();
const { page, errors } = await openPage(browser, baseURL);
await signInThroughForm(page, 'admin@bench.local', PASSWORD);

/** Plants the map accounts for: cluster counts plus single markers. */
const plantsOnMap = () =>
  page.evaluate(
    () =>
      [...document.querySelectorAll<HTMLElement>('.sw-cluster [data-count]')].reduce((sum, el) => sum + Number(el.dataset.count), 0) +
      document.querySelectorAll('path.sw-marker.leaflet-interactive').length,
  );

const trace = traceRequests(page, baseURL);
const times: number[] = [];
for (let run = 0; run <= runs; run++) {
  await page.goto('/');
  await page.getByTestId('user-menu').waitFor();
  const start = performance.now();
  trace.mark();
  const markersCall = page.waitForResponse((r) => r.url().includes('/api/v1/plants/map')).then(() => performance.now() - start);
  await page.goto('/plants?view=map');
  await page.waitForFunction(
    (expected) =>
      [...document.querySelectorAll<HTMLElement>('.sw-cluster [data-count]')].reduce((sum, el) => sum + Number(el.dataset.count), 0) +
        document.querySelectorAll('path.sw-marker.leaflet-interactive').length ===
      expected,
    plantCount,
    { timeout: 30_000, polling: 'raf' },
  );
  const elapsed = performance.now() - start;
  if (run > 0) times.push(elapsed); // the first run warms the browser cache
  console.log(
    `run ${run}${run === 0 ? ' (warm-up)' : ''}: ${elapsed.toFixed(0)} ms (markers call answered at ${(await markersCall).toFixed(0)} ms), ${await plantsOnMap()} plants on the map`,
  );
}
times.sort((a, b) => a - b);
console.log(
  `map view with ${plantCount} plants, navigation to every plant clustered on screen: median ${(times[Math.floor(times.length / 2)] ?? 0).toFixed(0)} ms, worst ${(times.at(-1) ?? 0).toFixed(0)} ms`,
);
if (errors.length > 0) console.log(`page errors: ${errors.join('; ')}`);
await browser.close();
await server.close();
await scratch.drop();
process.exit(0);
