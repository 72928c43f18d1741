// Read benchmark: the queries behind charts and lists, on PostgreSQL, with 1,000 devices.
//   npx tsx bench/queries.ts [--raw-days 3] [--full-year-devices 5]
// Data: 100 plants × 10 devices; a year of daily energy rollups for all 1,000 devices and all plants;
// raw 5-minute readings (40 values each) for every device over the last --raw-days days, and for a
// full year for --full-year-devices devices (1,000 full device-years would be 105 M rows here).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { startServer } from '../apps/server/src/server.js';
import { lttb, type SeriesPoint } from '../packages/contracts/src/downsample.js';

const { values: args } = parseArgs({
  options: { 'raw-days': { type: 'string', default: '3' }, 'full-year-devices': { type: 'string', default: '5' } },
});
const rawDays = Number(args['raw-days']);
const fullYear = Number(args['full-year-devices']);
const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const scratch = await createScratchDatabase(pgUrl, 'sunward_qbench');
const url = new URL(scratch.url);
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  MQTT_PORT: '0',
  MQTT_HOST: '127.0.0.1',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'sunward-qbench-')),
  DATABASE_URL: url.toString(),
  LOG_LEVEL: 'silent',
  ADMIN_PASSWORD: 'Bench-Password-1',
  SIMULATOR: 'off',
});
const server = await startServer(config, { logger: false });
const db = server.database.db;
const q = server.telemetry.queries;
const t0 = performance.now();

await db.execute(sql`insert into companies (name) values ('Query bench')`);
await db.execute(sql`insert into plants (name, company_id, capacity_kwp, latitude, longitude, timezone)
  select 'Plant ' || i, (select id from companies where name = 'Query bench'), 100, 48, 11, 'Europe/Berlin' from generate_series(1, 100) i`);
await db.execute(sql`insert into devices (sn, plant_id, family, protocol_id)
  select 'QD' || lpad(i::text, 5, '0'), (select min(id) from plants) + (i - 1) / 10, 'inverter', 'sunspec-inverter-3p' from generate_series(1, 1000) i`);
// A year of daily counters per device: ~40 kWh a day on a counter that only grows.
await db.execute(sql`insert into device_energy_daily (device_id, day, first_wh, last_wh, energy_wh, peak_w)
  select d.id, day::date, (day::date - date '2025-01-01') * 40000.0, (day::date - date '2025-01-01') * 40000.0 + 38000 + (d.id % 7) * 500,
         38000 + (d.id % 7) * 500, 9000
  from devices d, generate_series(current_date - 364, current_date, interval '1 day') day`);
await db.execute(sql`insert into device_realtime (device_id, ts, power_w, energy_total_wh, soc)
  select id, now(), 5000, 1e6, null from devices`);
// Raw readings: recent days for all devices, a full year for a few.
await server.telemetry.pipeline.drain();
await db.execute(sql`insert into readings (device_id, ts, values)
  select d.id, ts, array_fill((extract(hour from ts) * 100)::float8, array[40])
  from devices d, generate_series(date_trunc('day', now()) - make_interval(days => ${rawDays}), now(), interval '5 minutes') ts`);
await db.execute(sql`insert into readings (device_id, ts, values)
  select d.id, ts, array_fill((extract(hour from ts) * 100)::float8, array[40])
  from (select id from devices order by id limit ${fullYear}) d, generate_series(now() - interval '365 days', date_trunc('day', now()) - make_interval(days => ${rawDays}) - interval '5 minutes', interval '5 minutes') ts
  on conflict do nothing`);
const plantIds = (await db.execute(sql`select id from plants order by id`)) as unknown as { rows: { id: number }[] };
const deviceIds = (await db.execute(sql`select id from devices order by id`)) as unknown as { rows: { id: number }[] };
const plantDays = plantIds.rows.flatMap((p) =>
  Array.from({ length: 365 }, (_, i) => ({ plantId: p.id, day: new Date(Date.now() - i * 86_400_000).toISOString().slice(0, 10) })),
);
for (let i = 0; i < plantDays.length; i += 5000) await q.refreshPlantDays(plantDays.slice(i, i + 5000));
// Hourly averages as the retention job keeps them (it catches up two days per run).
for (let done = 1; done > 0; ) done = await server.telemetry.retention.aggregateHours();
// Measure a settled database, as a live one is: no autovacuum pass running over the freshly loaded rows.
await db.execute(sql`vacuum analyze`);
const counts = (await db.execute(
  sql`select (select count(*) from readings)::int as readings, (select count(*) from device_energy_daily)::int as daily, (select count(*) from plant_energy_daily)::int as plant_daily`,
)) as unknown as { rows: Record<string, number>[] };
console.log(`data: ${JSON.stringify(counts.rows[0])} (loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);

async function measure(name: string, runs: number, fn: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn(i);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const p = (x: number) => (times[Math.min(times.length - 1, Math.floor(x * times.length))] ?? 0).toFixed(2);
  console.log(`${name.padEnd(58)} p50 ${p(0.5)} ms  p95 ${p(0.95)} ms  p99 ${p(0.99)} ms`);
}

const devices = deviceIds.rows.map((r) => r.id);
const plants = plantIds.rows.map((r) => r.id);
const today = new Date();
const dayStart = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 1));
const dayEnd = new Date(dayStart.getTime() + 86_400_000);
const monthFrom = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
const todayDay = today.toISOString().slice(0, 10);
await measure('device day curve (288 points, one point id)', 300, (i) =>
  q.deviceCurve(devices[i % devices.length] ?? 0, dayStart, dayEnd, 3, 500),
);
await measure('device month by day (energy from counters)', 300, (i) =>
  q.deviceDailyEnergy(devices[i % devices.length] ?? 0, monthFrom, todayDay),
);
await measure('plant month by day', 300, (i) => q.plantDailyEnergy(plants[i % plants.length] ?? 0, monthFrom, todayDay));
await measure('plant year by month', 300, (i) => q.plantMonthlyEnergy(plants[i % plants.length] ?? 0, today.getUTCFullYear()));
await measure('realtime snapshot of 1,000 devices', 300, () => q.realtimeSnapshot(devices));
await measure('device year curve (105,120 points → 1,000 by LTTB)', 20, (i) =>
  q.deviceCurve(devices[i % fullYear] ?? 0, new Date(Date.now() - 365 * 86_400_000), new Date(), 3, 1000),
);
const year: SeriesPoint[] = Array.from({ length: 105_120 }, (_, i) => [i * 300_000, Math.sin(i / 288) * 5000]);
await measure('LTTB alone: 105,120 → 1,000 points (in memory)', 50, async () => lttb(year, 1000));
await server.close();
await scratch.drop();
process.exit(0);
