// Plant list benchmark (issue 4): 10,000 plants with a year of daily energy, on PostgreSQL.
//   npx tsx bench/plants.ts [--plants 10000] [--runs 300]
// Measures through the full request pipeline (auth, validation, SQL, envelope) with Fastify's inject:
// a list page (default order, sorted by power, searched, filtered), the status statistics and the
// map markers, as the platform administrator (all plants) and as a company administrator (a third).
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { BENCH_ADMIN, startBenchServer } from './bench-server.js';
import { createMeasurer } from './measure.js';
import { seedPlants } from './seed-plants.js';

const { values: args } = parseArgs({ options: { plants: { type: 'string', default: '10000' }, runs: { type: 'string', default: '300' } } });
const plantCount = Number(args.plants);
const runs = Number(args.runs);
const { server, db, close } = await startBenchServer('pbench');
const ADMIN_PASSWORD = BENCH_ADMIN.password;
const t0 = performance.now();

await seedPlants(db, plantCount, ADMIN_PASSWORD);
const counts = (await db.execute(
  sql`select (select count(*) from plants)::int as plants, (select count(*) from devices)::int as devices, (select count(*) from plant_energy_daily)::int as plant_days`,
)) as unknown as { rows: Record<string, number>[] };
console.log(`data: ${JSON.stringify(counts.rows[0])} (loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);

const { token, measure } = createMeasurer(server.app, ADMIN_PASSWORD, runs);

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
await close();
process.exit(0);
