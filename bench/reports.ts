// Report benchmark (issue 21): a customer report over 1,000 plants, a month and a year, on PostgreSQL.
//   npx tsx bench/reports.ts [--plants 1000] [--runs 3]
// 1,000 plants (3 inverters each) with a year of plant and device days and a few events each, all assigned to
// one customer; the platform administrator asks for the customer's month and year reports as JSON (the
// console's preview), PDF and .xlsx through the full request pipeline (Fastify inject). Target: under 60 s.
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { BENCH_ADMIN, startBenchServer } from './bench-server.js';
import { createMeasurer } from './measure.js';
import { seedPlants } from './seed-plants.js';

const { values: args } = parseArgs({ options: { plants: { type: 'string', default: '1000' }, runs: { type: 'string', default: '3' } } });
const plantCount = Number(args.plants);
const runs = Number(args.runs);
const { server, db, close } = await startBenchServer('rbench');
const ADMIN_PASSWORD = BENCH_ADMIN.password;
const t0 = performance.now();
await seedPlants(db, plantCount, ADMIN_PASSWORD);
// Device days (plant = Σ devices: each inverter a third of the plant's day) and two events a week per plant.
await db.execute(sql`insert into device_energy_daily (device_id, day, energy_wh, last_wh)
  select d.id, e.day, e.energy_wh / 3, 0 from devices d join plant_energy_daily e on e.plant_id = d.plant_id`);
await db.execute(sql`insert into device_events (device_id, plant_id, code, level, opened_at, cleared_at)
  select d.id, d.plant_id, 1001, case when g % 2 = 0 then 'fault' else 'warning' end, now() - make_interval(days => g * 3), now() - make_interval(days => g * 3) + interval '40 minutes'
  from devices d, generate_series(1, 120) g where d.sn like '%1'`);
const [company] = ((await db.execute(sql`select min(id)::int as id from companies`)) as unknown as { rows: { id: number }[] }).rows;
const [admin] = ((await db.execute(sql`select id from users where account = 'admin@bench.local'`)) as unknown as { rows: { id: number }[] })
  .rows;
const [customer] = (
  (await db.execute(
    sql`insert into company_customers (company_id, user_id, name) values (${company?.id}, ${admin?.id}, 'Bench customer') returning id`,
  )) as unknown as { rows: { id: number }[] }
).rows;
await db.execute(sql`insert into company_customer_plants (customer_id, plant_id) select ${customer?.id}, id from plants`);
await db.execute(sql`vacuum analyze`);
console.log(
  `data: ${plantCount} plants, a year of days, customer ${customer?.id} (loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
);

const token = await createMeasurer(server.app, ADMIN_PASSWORD, runs).token('admin@bench.local');
const month = new Date().toISOString().slice(0, 7);
const year = month.slice(0, 4);
for (const [name, url] of [
  ['month, JSON', `/api/v1/reports?scope=customer&customerId=${customer?.id}&period=month&date=${month}`],
  ['month, PDF', `/api/v1/reports/file?scope=customer&customerId=${customer?.id}&period=month&date=${month}&format=pdf`],
  ['month, xlsx', `/api/v1/reports/file?scope=customer&customerId=${customer?.id}&period=month&date=${month}&format=xlsx`],
  ['year, PDF', `/api/v1/reports/file?scope=customer&customerId=${customer?.id}&period=year&date=${year}&format=pdf`],
] as const) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const answer = await server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    times.push((performance.now() - start) / 1000);
    if (answer.statusCode !== 200) throw new Error(`${name}: ${answer.statusCode} ${answer.body.slice(0, 200)}`);
    bytes = answer.rawPayload.length;
  }
  times.sort((a, b) => a - b);
  console.log(
    `${name}: median ${times[Math.floor(times.length / 2)]?.toFixed(1)} s, worst ${times.at(-1)?.toFixed(1)} s (${(bytes / 1024).toFixed(0)} KB)`,
  );
}
await close();
