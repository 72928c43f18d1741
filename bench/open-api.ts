// Open plant API benchmark (issue 25): what an API key costs over the console's own call, on PostgreSQL.
//   npx tsx bench/open-api.ts [--plants 1000] [--runs 50]
// N plants (seed-plants.ts); the platform administrator makes an API key for every plant they see; then, through
// the full request pipeline (Fastify inject), GET /open/v1/plants (every plant) and, per run, one plant's realtime
// through /open/v1 (key checked at each call, quota counted) and through the console (/api/v1/plant/{id}/realtime).
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { BENCH_ADMIN, startBenchServer } from './bench-server.js';
import { createMeasurer } from './measure.js';
import { seedPlants } from './seed-plants.js';

const { values: args } = parseArgs({ options: { plants: { type: 'string', default: '1000' }, runs: { type: 'string', default: '50' } } });
const plantCount = Number(args.plants);
const runs = Number(args.runs);
const { server, db, close } = await startBenchServer('oabench');
await seedPlants(db, plantCount, BENCH_ADMIN.password);
await db.execute(sql`vacuum analyze`);
const ids = ((await db.execute(sql`select id from plants order by id`)) as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
const token = await createMeasurer(server.app, BENCH_ADMIN.password, runs).token(BENCH_ADMIN.account);
const created = await server.app.inject({
  method: 'POST',
  url: '/api/v1/openApi/keys',
  headers: { authorization: `Bearer ${token}` },
  payload: { name: 'bench', scope: 'all', access: 'read', expiresInDays: 1, quotaPerMinute: 6000 },
});
const key = created.json<{ data: { secret: string } }>().data.secret;

async function timed(url: string, bearer: string): Promise<number> {
  const start = performance.now();
  const answer = await server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } });
  const ms = performance.now() - start;
  if (answer.statusCode !== 200 || answer.json<{ code: number }>().code !== 0) throw new Error(`${url}: ${answer.body.slice(0, 200)}`);
  return ms;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const list: number[] = [];
for (let i = 0; i < Math.min(runs, 10); i++) list.push(await timed('/open/v1/plants', key));
const open: number[] = [];
const console_: number[] = [];
for (let i = 0; i < runs; i++) {
  const id = ids[(i * 7919) % ids.length];
  open.push(await timed(`/open/v1/plants/${id}/realtime`, key));
  console_.push(await timed(`/api/v1/plant/${id}/realtime`, token));
}
console.log(`open/v1/plants, ${plantCount} plants: median ${median(list).toFixed(0)} ms`);
console.log(
  `plant realtime over ${runs} runs: /open/v1 median ${median(open).toFixed(1)} ms, console median ${median(console_).toFixed(1)} ms`,
);
await close();
