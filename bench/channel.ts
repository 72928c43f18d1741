// Channel hierarchy benchmark (issue 24): a 3-level tree (maker → 10 distributors → 100 installers) with
// 1,000 plants spread over the installers (3 inverters each), on PostgreSQL.
//   npx tsx bench/channel.ts [--plants 1000] [--runs 200]
// Measures through the full request pipeline, as the maker's, a distributor's and an installer's
// administrator: the plant list (every scope check is the subtree's recursive query), the status
// statistics, the device list and the channel dashboard's tree with its rollups.
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../apps/server/src/features/auth/password.js';
import { BENCH_ADMIN, startBenchServer } from './bench-server.js';
import { createMeasurer } from './measure.js';

const { values: args } = parseArgs({ options: { plants: { type: 'string', default: '1000' }, runs: { type: 'string', default: '200' } } });
const plantCount = Number(args.plants);
const runs = Number(args.runs);
const { server, db, close } = await startBenchServer('chbench');

await db.execute(sql`insert into companies (name, kind) values ('Bench maker', 'maker')`);
await db.execute(sql`insert into companies (name, kind, parent_id)
  select 'Bench distributor ' || i, 'distributor', (select id from companies where name = 'Bench maker') from generate_series(1, 10) i`);
await db.execute(sql`insert into companies (name, kind, parent_id)
  select 'Bench installer ' || d.i || '-' || k, 'installer', d.id
  from (select id, row_number() over (order by id) as i from companies where kind = 'distributor') d, generate_series(1, 10) k`);
await db.execute(sql`insert into plants (name, company_id, plant_type, capacity_kwp, latitude, longitude, timezone, status, power_w, energy_today_wh, tariff)
  select 'Plant ' || lpad(i::text, 5, '0'), (select id from companies where kind = 'installer' order by id offset i % 100 limit 1), 1, 10 + i % 90,
    48 + (i % 100) / 10.0, 10 + (i % 70) / 10.0, 'Europe/Berlin', case when i % 10 = 0 then 2 else 1 end, (i * 131 % 1000) * 10.0,
    (i * 17 % 500) * 100.0, '{"currency":"EUR","pricingMethod":"constant","price":0.2}'::jsonb
  from generate_series(1, ${plantCount}) i`);
await db.execute(sql`insert into devices (sn, plant_id, family, protocol_id, status)
  select 'CB' || lpad(p.id::text, 6, '0') || k, p.id, 'inverter', 'sunspec-inverter-3p', p.status from plants p, generate_series(1, 3) k`);
const role = (await db.execute(sql`select id from roles where key = 'company_admin'`)) as unknown as { rows: { id: number }[] };
const hash = await hashPassword(BENCH_ADMIN.password);
for (const [account, company] of [
  ['maker@bench.local', `(select id from companies where kind = 'maker')`],
  ['distributor@bench.local', `(select min(id) from companies where kind = 'distributor')`],
  ['installer@bench.local', `(select min(id) from companies where kind = 'installer')`],
] as const)
  await db.execute(sql`insert into users (account, password_hash, nickname, role_id, company_id)
    values (${account}, ${hash}, 'Bench', ${role.rows[0]?.id ?? 0}, ${sql.raw(company)})`);
await db.execute(sql`vacuum analyze`);

const { token, measure } = createMeasurer(server.app, BENCH_ADMIN.password, runs);
for (const [who, account] of [
  ['maker (1,000 plants in its subtree)', 'maker@bench.local'],
  ['distributor (100 plants)', 'distributor@bench.local'],
  ['installer (10 plants)', 'installer@bench.local'],
] as const) {
  const bearer = await token(account);
  console.log(`-- ${who}`);
  await measure('plant list page (20, newest first)', bearer, (i) => `/api/v1/plants?page=${1 + (i % 5)}&size=20`);
  await measure('plant list sorted by current power', bearer, () => '/api/v1/plants?size=20&sort=powerW&order=desc');
  await measure('status statistics', bearer, () => '/api/v1/overview/plantCount');
  await measure('channel tree with rollups', bearer, () => '/api/v1/channel/tree');
}
await close();
process.exit(0);
