// Device benchmark (issue 5): 10,000 inverters on PostgreSQL.
//   npm run build && npx tsx bench/devices.ts [--runs 200] [--pages 5]
// 1. The inverter list with filters and counts through the full request pipeline (Fastify inject), as the
//    platform administrator (every inverter) and a company administrator (a third of them).
// 2. An inverter detail page's first screen in Debian's chromium on the built console: from navigation
//    until the live power, the realtime sections and today's curve are drawn; the inverter has a day of
//    5-minute readings.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { numericPointIds } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { pointIndex } from '@sunward/protocol/positions';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.js';
import { queryRows } from '../apps/server/src/db/client.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { startServer } from '../apps/server/src/server.js';
import { launchBrowser, openPage, signInThroughForm } from '../e2e/support/browser.js';
import { WEB_DIST } from '../e2e/support/product.js';
import { createMeasurer } from './measure.js';
import { seedPlants } from './seed-plants.js';
import { traceRequests } from './trace.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '200' }, pages: { type: 'string', default: '5' } } });
const runs = Number(args.runs);
const PASSWORD = 'Bench-Password-1';
const scratch = await createScratchDatabase(
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  'sunward_devbench',
);
const server = await startServer(
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'sunward-devbench-')),
    DATABASE_URL: scratch.url,
    LOG_LEVEL: 'silent',
    ADMIN_ACCOUNT: 'admin@bench.local',
    ADMIN_PASSWORD: PASSWORD,
    SIMULATOR: 'off',
    WEB_DIST,
  }),
  { logger: false },
);
const db = server.database.db;
const t0 = performance.now();
// 3,334 plants × 3 inverters = 10,002 inverters, with a realtime row each and a year of daily counters.
await seedPlants(db, 3334, PASSWORD);
const protocol = protocolById('sunspec-inverter-3p');
if (!protocol) throw new Error('no inverter map');
const width = numericPointIds(protocol).length;
const powerIndex = pointIndex(protocol.id, 'W') ?? 1;
await db.execute(sql`insert into device_realtime (device_id, ts, power_w, energy_total_wh, energy_day, energy_today_wh)
  select d.id, now() - make_interval(secs => d.id % 300), (d.id * 37 % 10000)::float8, (d.id * 53 % 900000) * 100.0,
         (now() at time zone 'Europe/Berlin')::date, (d.id * 17 % 60000)::float8
  from devices d`);
// Each device's latest reading, whose values the detail page shows.
await db.execute(
  sql`insert into readings (device_id, ts, values) select device_id, ts, array_fill(1::float8, array[${width}::int]) from device_realtime`,
);
await db.execute(sql`update devices set brand = 'Sunward', model = case when id % 2 = 0 then 'SW-10K' else 'SW-20K' end`);
await db.execute(sql`insert into device_energy_daily (device_id, day, first_wh, last_wh, energy_wh)
  select d.id, (current_date - k), (d.id * 53 % 900000) * 100.0 - k * 20000 - 20000, (d.id * 53 % 900000) * 100.0 - k * 20000, 20000
  from devices d, generate_series(0, 364) k`);
// One inverter with a day of 5-minute readings for the detail page.
const [target] = await queryRows<{ id: number; sn: string }>(db, sql`select id, sn from devices order by id limit 1`);
await db.execute(sql`insert into readings (device_id, ts, values)
  select ${target?.id}, date_trunc('day', now()) + make_interval(mins => 5 * k),
         array(select (case when i = ${powerIndex}::int then 5000 + 4000 * sin(k / 288.0 * pi()) else i end)::float8 from generate_series(1, ${width}::int) i)
  from generate_series(0, 287) k where date_trunc('day', now()) + make_interval(mins => 5 * k) < now()`);
await db.execute(sql`vacuum analyze`);
console.log(`data: 10,002 inverters, 3.65 M device-days (loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);

const { token, measure } = createMeasurer(server.app, PASSWORD, runs);
for (const [who, account] of [
  ['admin, every inverter', 'admin@bench.local'],
  ['company admin, a third', 'company@bench.local'],
] as const) {
  const bearer = await token(account);
  console.log(`-- ${who}`);
  await measure('inverter list (20, by SN, pages 1–50)', bearer, (i) => `/api/v1/inverters?page=${1 + (i % 50)}&size=20`);
  await measure('inverter list sorted by power', bearer, (i) => `/api/v1/inverters?page=${1 + (i % 5)}&size=20&sort=powerW&order=desc`);
  await measure('inverter list sorted by today’s energy', bearer, () => '/api/v1/inverters?size=20&sort=energyTodayWh&order=desc');
  await measure('inverter list filtered (fault + warning, model)', bearer, () => '/api/v1/inverters?status=3,4&model=SW-10K&size=20');
  await measure('inverter list search by SN', bearer, (i) => `/api/v1/inverters?keyword=${String(i % 100).padStart(2, '0')}1&size=20`);
  await measure('inverter counts by status', bearer, () => '/api/v1/inverters/count');
}

// The detail page's first screen in Chromium.
const address = server.app.server.address();
const baseURL = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const browser = await launchBrowser();
const { page, errors } = await openPage(browser, baseURL);
await signInThroughForm(page, 'admin@bench.local', PASSWORD);
const trace = traceRequests(page, baseURL);
const times: number[] = [];
const pages = Number(args.pages);
for (let run = 0; run <= pages; run++) {
  await page.goto('/');
  await page.getByTestId('user-menu').waitFor();
  const start = performance.now();
  trace.mark();
  await page.goto(`/device/detail/inverter/${target?.sn}`);
  await page.getByTestId('device-power').waitFor();
  await page.getByTestId('section-output').waitFor();
  await page.getByTestId('device-chart').locator('canvas').first().waitFor();
  const elapsed = performance.now() - start;
  if (run > 0) times.push(elapsed);
  console.log(`detail run ${run}${run === 0 ? ' (warm-up)' : ''}: ${elapsed.toFixed(0)} ms`);
}
times.sort((a, b) => a - b);
console.log(
  `inverter detail first screen (power, realtime sections, today's curve): median ${(times[Math.floor(times.length / 2)] ?? 0).toFixed(0)} ms, worst ${(times.at(-1) ?? 0).toFixed(0)} ms`,
);
if (errors.length > 0) console.log(`page errors: ${errors.join('; ')}`);
await browser.close();
await server.close();
await scratch.drop();
process.exit(0);
