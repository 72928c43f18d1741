// Plant list benchmark (issue 4): 10,000 plants with a year of daily energy, on PostgreSQL.
//   npx tsx bench/plants.ts [--plants 10000] [--runs 300]
// Measures through the full request pipeline (auth, validation, SQL, envelope) with Fastify's inject:
// a list page (default order, sorted by power, searched, filtered), the status statistics and the
// map markers, as the platform administrator (all plants) and as a company administrator (a third).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { startServer } from '../apps/server/src/server.js';
import { seedPlants } from './seed-plants.js';

const { values: args } = parseArgs({ options: { plants: { type: 'string', default: '10000' }, runs: { type: 'string', default: '300' } } });
const plantCount = Number(args.plants);
const runs = Number(args.runs);
const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const scratch = await createScratchDatabase(pgUrl, 'sunward_pbench');
const ADMIN_PASSWORD = 'Bench-Password-1';
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  MQTT_PORT: '0',
  MQTT_HOST: '127.0.0.1',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'sunward-pbench-')),
  DATABASE_URL: scratch.url,
  LOG_LEVEL: 'silent',
  ADMIN_ACCOUNT: 'admin@bench.local',
  ADMIN_PASSWORD,
  SIMULATOR: 'off',
});
const server = await startServer(config, { logger: false });
const db = server.database.db;
const t0 = performance.now();

await seedPlants(db, plantCount, ADMIN_PASSWORD);
const counts = (await db.execute(
  sql`select (select count(*) from plants)::int as plants, (select count(*) from devices)::int as devices, (select count(*) from plant_energy_daily)::int as plant_days`,
)) as unknown as { rows: Record<string, number>[] };
console.log(`data: ${JSON.stringify(counts.rows[0])} (loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);

async function token(account: string): Promise<string> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'password', username: account, password: ADMIN_PASSWORD },
  });
  return (response.json() as { data: { access_token: string } }).data.access_token;
}

async function measure(name: string, bearer: string, url: (i: number) => string) {
  const call = async (i: number) => {
    const response = await server.app.inject({ method: 'GET', url: url(i), headers: { authorization: `Bearer ${bearer}` } });
    const body = response.json() as { code: number };
    if (body.code !== 0) throw new Error(`${url(i)} answered ${JSON.stringify(body)}`);
    return response.body.length;
  };
  let bytes = 0;
  for (let i = 0; i < 10; i++) bytes = await call(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await call(i);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const p = (x: number) => (times[Math.min(times.length - 1, Math.floor(x * times.length))] ?? 0).toFixed(2);
  console.log(`${name.padEnd(62)} p50 ${p(0.5)} ms  p95 ${p(0.95)} ms  p99 ${p(0.99)} ms  (${(bytes / 1024).toFixed(0)} KB)`);
}

for (const [who, account] of [
  ['admin, all plants', 'admin@bench.local'],
  ['company admin, a third', 'company@bench.local'],
] as const) {
  const bearer = await token(account);
  console.log(`-- ${who}`);
  await measure('list page (20, newest first)', bearer, (i) => `/api/v1/plants?page=${1 + (i % 50)}&size=20`);
  await measure('list page sorted by current power', bearer, (i) => `/api/v1/plants?page=${1 + (i % 50)}&size=20&sort=powerW&order=desc`);
  await measure('list search by name', bearer, (i) => `/api/v1/plants?keyword=${String(i % 100).padStart(2, '0')}&size=20`);
  await measure(
    'list filtered (fault + warning, capacity 100–500)',
    bearer,
    () => '/api/v1/plants?status=3,4&capacityMin=100&capacityMax=500&size=20',
  );
  await measure('status statistics', bearer, () => '/api/v1/overview/plantCount');
  await measure('map markers (every plant)', bearer, () => '/api/v1/plants/map');
}
await server.close();
await scratch.drop();
process.exit(0);
