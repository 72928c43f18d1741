// Ingest benchmark: the real server (embedded broker, pipeline, database) in this process, publishers
// as separate processes playing gateways over MQTT. Prints throughput, publish-to-stored lag, memory,
// lost and duplicated readings. The memory figures are this process's: the server's plus the bench's own
// (the fleet's provisioning before the run, about 2 MB of lag samples during it).
//   npx tsx bench/ingest.ts --db pglite|postgres --gateways 200 --devices 10 --rate 300 --seconds 60
//   node --expose-gc --import tsx bench/ingest.ts …: also collects the setup's garbage before the run and prints
//   what is still reachable after a full collection at the end.
//   BENCH_HEAP_SNAPSHOT=dir: heap snapshots before the run and at second BENCH_HEAP_SNAPSHOT_AT (default 20).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { count, sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.js';
import { readings } from '../apps/server/src/db/schema.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { provisionLoadFleet } from '../apps/server/src/features/fleet/load-fleet.js';
import { startServer } from '../apps/server/src/server.js';
import { publisher } from './publisher-process.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    gateways: { type: 'string', default: '200' },
    devices: { type: 'string', default: '10' },
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    publishers: { type: 'string', default: '2' },
    protocol: { type: 'string', default: 'sunspec-hybrid-lv' },
  },
});
const G = Number(args.gateways);
const D = Number(args.devices);
const rate = Number(args.rate);
const seconds = Number(args.seconds);
const P = Number(args.publishers);
const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const scratch = args.db === 'postgres' ? await createScratchDatabase(pgUrl, 'sunward_bench') : undefined;
const databaseUrl = scratch?.url ?? '';
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  MQTT_PORT: '0',
  MQTT_HOST: '127.0.0.1',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'sunward-bench-')),
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: 'silent',
  ADMIN_PASSWORD: 'Bench-Password-1',
  SIMULATOR: 'off',
});
const server = await startServer(config, { logger: false });
const db = server.database.db;

// A bench fleet: G gateways with D devices each, registered like any load-test fleet.
const url = `mqtt://127.0.0.1:${server.telemetry.mqttPort}`;
const provisioned = await provisionLoadFleet(db, {
  gateways: G,
  devicesPerGateway: D,
  protocolId: args.protocol ?? '',
  intervalSeconds: 60,
  mqttUrl: url,
  seed: 1,
  prefix: 'B',
});
const fleet = provisioned.gateways.map((g) => ({ sn: g.sn, key: g.key, devices: g.devices.map((d) => d.sn) }));
await server.telemetry.pipeline.start();

// Lag: from the report's time (set when published) to the moment its batch is committed.
const lags: number[] = [];
// The worst lag of each second of the run, to see when a stall happened.
const worstLagBySecond = new Map<number, number>();
let runStarted = Date.now();
server.telemetry.live.subscribe((event) => {
  if (event.type !== 'device') return;
  const lag = Date.now() - Date.parse(event.ts);
  lags.push(lag);
  const second = Math.floor((Date.now() - runStarted) / 1000);
  worstLagBySecond.set(second, Math.max(worstLagBySecond.get(second) ?? 0, lag));
});
const checkpointsBefore = await checkpoints();
async function checkpoints(): Promise<number> {
  if (args.db !== 'postgres') return 0;
  const rows = (await db.execute(sql`select checkpoints_timed + checkpoints_req as n from pg_stat_bgwriter`)) as unknown as {
    rows: { n: string | number }[];
  };
  return Number(rows.rows[0]?.n ?? 0);
}
const rss: number[] = [];
// The breakdown of each second's memory (heap, external, array buffers), printed at the peak and at the end.
const breakdown: NodeJS.MemoryUsage[] = [];
const spacesAt: ReturnType<typeof v8.getHeapSpaceStatistics>[] = [];
// BENCH_HEAP_SNAPSHOT=dir: a heap snapshot before the run and at second BENCH_HEAP_SNAPSHOT_AT (default 20).
const snapshotDir = process.env.BENCH_HEAP_SNAPSHOT;
const snapshotAt = Number(process.env.BENCH_HEAP_SNAPSHOT_AT ?? 20);
const perSecond: number[] = [];
let mostWaiting = 0;
let mostParked = 0;
let mostSocketBytes = 0;
let lastStored = server.telemetry.pipeline.stats.readingsStored;
const sampler = setInterval(() => {
  const stored = server.telemetry.pipeline.stats.readingsStored;
  perSecond.push(stored - lastStored);
  lastStored = stored;
  const usage = process.memoryUsage();
  rss.push(usage.rss);
  breakdown.push(usage);
  spacesAt.push(v8.getHeapSpaceStatistics());
  if (snapshotDir && rss.length === snapshotAt) console.log(`heap snapshot: ${v8.writeHeapSnapshot(join(snapshotDir, 'at.heapsnapshot'))}`);
}, 1000);
// The byte budget's state, sampled often (the budget keeps its own peak).
const budgetSampler = setInterval(() => {
  const p = server.telemetry.pipeline.pending();
  mostWaiting = Math.max(mostWaiting, p.waiting);
  mostParked = Math.max(mostParked, p.parkedSockets);
  mostSocketBytes = Math.max(mostSocketBytes, p.socketBytes);
}, 50);

const connectBegan = Date.now();
const publishers = Array.from({ length: P }, (_, p) =>
  publisher({ url, gateways: fleet.filter((_, i) => i % P === p), protocolId: args.protocol, ratePerSecond: rate / P, seconds }),
);
await Promise.race([Promise.all(publishers.map((p) => p.connected)), Promise.all(publishers.map((p) => p.done))]);
const connectSeconds = (Date.now() - connectBegan) / 1000;
const started = Date.now();
runStarted = started;
perSecond.length = 0;
rss.length = 0;
breakdown.length = 0;
spacesAt.length = 0;
// With node --expose-gc: the provisioning's garbage (50,000 devices at 5,000 gateways) is collected before the
// run, so that the first second shows the server's memory and not the bench's setup in the same process.
(globalThis as { gc?: () => void }).gc?.();
if (snapshotDir) console.log(`heap snapshot: ${v8.writeHeapSnapshot(join(snapshotDir, 'start.heapsnapshot'))}`);
lastStored = server.telemetry.pipeline.stats.readingsStored;
for (const p of publishers) p.go();
const results = await Promise.all(publishers.map((p) => p.done));
const elapsed = (Date.now() - started) / 1000;
clearInterval(sampler);
clearInterval(budgetSampler);
await server.telemetry.pipeline.drain();
const [stored] = await db.select({ n: count() }).from(readings);
const distinct = await db.execute(sql`select count(distinct (device_id, ts)) as n from readings`);
const sentReadings = results.reduce((n, r) => n + r.readings, 0);
const sentReports = results.reduce((n, r) => n + r.sent, 0);
const ackedReports = results.reduce((n, r) => n + r.acked, 0);
const refusedReports = results.reduce((n, r) => n + (r.refused ?? 0), 0);
const sorted = [...lags].sort((a, b) => a - b);
const pct = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
// Steady state: the offered seconds after the first two (the drain after them is not counted).
const steady = perSecond.slice(2, seconds);
const mb = (b: number) => `${Math.round(b / 1048576)} MB`;
const storedCount = Number(stored?.n ?? 0);
const distinctCount = Number((distinct as unknown as { rows: { n: number | string }[] }).rows[0]?.n ?? 0);
console.log(
  `database: ${args.db}; ${G} gateways × ${D} devices (${args.protocol}), ${P} publisher processes, offered ${rate} reports/s (${rate * D} device readings/s) for ${seconds} s`,
);
console.log(
  `${G} gateways connected in ${connectSeconds.toFixed(1)} s; sent ${sentReports} reports (${sentReadings} readings), acknowledged ${ackedReports}, in ${elapsed.toFixed(1)} s; refused then resent ${refusedReports}`,
);
const { rejected, gaps } = server.telemetry.pipeline.stats;
console.log(`rejected by reason: ${JSON.stringify(rejected)}; sequence gaps seen: ${gaps}`);
console.log(`stored ${storedCount} readings: lost ${sentReadings - storedCount}, duplicated ${storedCount - distinctCount}`);
console.log(
  `throughput: ${(storedCount / elapsed).toFixed(0)} device readings/s average; steady-state median ${steady.sort((a, b) => a - b)[Math.floor(steady.length / 2)] ?? 0}/s, max ${Math.max(...perSecond)}/s`,
);
console.log(`publish-to-stored lag: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${sorted.at(-1) ?? 0} ms (${sorted.length} samples)`);
const memory = process.memoryUsage();
console.log(
  `server rss: first ${mb(rss[0] ?? 0)}, peak ${mb(Math.max(...rss))}, last ${mb(rss.at(-1) ?? 0)}; at the end: heap ${mb(memory.heapUsed)} of ${mb(memory.heapTotal)}, buffers ${mb(memory.arrayBuffers)}`,
);
// Memory over the run: a steady state shows as a flat line after the first minute.
const tenths = Array.from({ length: 10 }, (_, i) => rss[Math.min(rss.length - 1, Math.floor(((i + 1) * rss.length) / 10) - 1)] ?? 0);
console.log(`server rss at each tenth of the run: ${tenths.map(mb).join(', ')}`);
// Second by second (thousands of readings stored / RSS in MB): a collapse past capacity shows here.
console.log(
  `stored per second (k) / rss (MB): ${perSecond.map((n, i) => `${(n / 1000).toFixed(1)}/${Math.round((rss[i] ?? 0) / 1048576)}`).join(' ')}`,
);
const describe = (i: number) => {
  const m = breakdown[i];
  if (!m) return '–';
  const spaces = (spacesAt[i] ?? [])
    .filter((s) => s.space_used_size > 1048576)
    .map((s) => `${s.space_name.replace('_space', '')} ${mb(s.space_used_size)}/${mb(s.space_size)}`)
    .join(', ');
  return `rss ${mb(m.rss)}: heap ${mb(m.heapUsed)} of ${mb(m.heapTotal)} (${spaces}), external ${mb(m.external)} (array buffers ${mb(m.arrayBuffers)}), other ${mb(m.rss - m.heapTotal - m.external)}`;
};
const peakAt = rss.indexOf(Math.max(...rss));
console.log(`memory at the first second: ${describe(0)}`);
console.log(`memory at the peak (second ${peakAt + 1}): ${describe(peakAt)}`);
console.log(`memory at the last second: ${describe(breakdown.length - 1)}`);
// With node --expose-gc: what is still reachable once a full collection has run (the rest was garbage).
const gc = (globalThis as { gc?: () => void }).gc;
if (gc) {
  gc();
  if (snapshotDir) console.log(`heap snapshot: ${v8.writeHeapSnapshot(join(snapshotDir, 'end.heapsnapshot'))}`);
  const m = process.memoryUsage();
  console.log(
    `after a full GC: rss ${mb(m.rss)}: heap ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, external ${mb(m.external)} (array buffers ${mb(m.arrayBuffers)}), other ${mb(m.rss - m.heapTotal - m.external)}`,
  );
}
console.log(`bench's own bookkeeping: ${lags.length} lag samples (about ${mb(lags.length * 8)})`);
const budget = server.telemetry.pipeline.pending();
console.log(
  `ingest byte budget: ${mb(budget.limitBytes)}, peak ${mb(budget.peakBytes)} accepted and not committed; at most ${mostWaiting} reports waiting for room, ${mb(mostSocketBytes)} read and not yet parsed, ${mostParked} sockets not read`,
);
const stalls = [...worstLagBySecond].filter(([, lag]) => lag > 2000);
console.log(
  `seconds with a lag over 2 s: ${stalls.length}${
    stalls.length > 0
      ? ` (${stalls
          .slice(0, 30)
          .map(([s, lag]) => `${s}s: ${(lag / 1000).toFixed(1)} s`)
          .join(', ')})`
      : ''
  }`,
);
if (args.db === 'postgres') console.log(`PostgreSQL checkpoints during the run: ${(await checkpoints()) - checkpointsBefore}`);
await server.close();
await scratch?.drop();
process.exit(0);
