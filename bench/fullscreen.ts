// Large-screen display benchmark (issue 20): the display's figures for a fleet, on PostgreSQL.
//   npx tsx bench/fullscreen.ts [--plants 1000] [--runs 3]
// N plants (3 inverters each, a year of days, seed-plants.ts); the platform administrator asks
// GET /api/v1/fullscreen/data through the full request pipeline (Fastify inject), each run with another
// flowPlantId so the 10 s answer cache is not hit. Month and year are one query over the daily rollup (until
// 2026-11-27 they asked each plant's overview, four at a time).
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { BENCH_ADMIN, startBenchServer } from './bench-server.js';
import { createMeasurer } from './measure.js';
import { seedPlants } from './seed-plants.js';

const { values: args } = parseArgs({ options: { plants: { type: 'string', default: '1000' }, runs: { type: 'string', default: '3' } } });
const plantCount = Number(args.plants);
const runs = Number(args.runs);
const { server, db, close } = await startBenchServer('fsbench');
const ADMIN_PASSWORD = BENCH_ADMIN.password;
await seedPlants(db, plantCount, ADMIN_PASSWORD);
await db.execute(sql`vacuum analyze`);
const ids = ((await db.execute(sql`select id from plants order by id`)) as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
const token = await createMeasurer(server.app, ADMIN_PASSWORD, runs).token('admin@bench.local');
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const start = performance.now();
  const answer = await server.app.inject({
    method: 'GET',
    url: `/api/v1/fullscreen/data?flowPlantId=${ids[i % ids.length]}`,
    headers: { authorization: `Bearer ${token}` },
  });
  times.push(performance.now() - start);
  if (answer.statusCode !== 200 || answer.json<{ code: number }>().code !== 0) throw new Error(answer.body.slice(0, 200));
}
times.sort((a, b) => a - b);
console.log(
  `fullscreen/data, ${plantCount} plants: median ${times[Math.floor(times.length / 2)]?.toFixed(0)} ms, worst ${times.at(-1)?.toFixed(0)} ms`,
);
await close();
