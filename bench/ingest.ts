// Ingest benchmark: the real server (embedded broker, pipeline, database) in this process, publishers
// as separate processes playing gateways over MQTT. Prints throughput, publish-to-stored lag, memory,
// lost and duplicated readings.
//   npx tsx bench/ingest.ts --db pglite|postgres --gateways 200 --devices 10 --rate 300 --seconds 60
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { count, sql } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.js';
import { companies, devices, gateways, plants, readings } from '../apps/server/src/db/schema.js';
import { hashGatewayKey } from '../apps/server/src/ingest/gateway-auth.js';
import { startServer } from '../apps/server/src/server.js';

const run = promisify(execFile);
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

let databaseUrl = '';
let dbName = '';
if (args.db === 'postgres') {
  dbName = `sunward_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${dbName}`;
  databaseUrl = url.toString();
}
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

// A bench fleet: G gateways with D devices each, on one company's plants.
const [company] = await db
  .insert(companies)
  .values({ name: `Bench ${Date.now()}` })
  .returning({ id: companies.id });
const fleet: { sn: string; key: string; devices: string[] }[] = [];
for (let g = 0; g < G; g += 100) {
  const slice = Array.from({ length: Math.min(100, G - g) }, (_, i) => g + i);
  const plantRows = await db
    .insert(plants)
    .values(
      slice.map((i) => ({
        name: `Bench plant ${i}`,
        companyId: company?.id,
        capacityKwp: 10,
        latitude: 48,
        longitude: 11,
        timezone: 'Europe/Berlin',
      })),
    )
    .returning({ id: plants.id });
  const keys = slice.map(() => randomBytes(9).toString('base64url'));
  const gatewayRows = await db
    .insert(gateways)
    .values(
      slice.map((i, k) => ({
        sn: `BG${String(i).padStart(6, '0')}`,
        keyHash: hashGatewayKey(keys[k] ?? ''),
        plantId: plantRows[k]?.id,
        companyId: company?.id,
        reportIntervalS: 60,
      })),
    )
    .returning({ id: gateways.id, sn: gateways.sn });
  const deviceRows = gatewayRows.flatMap((gw, k) =>
    Array.from({ length: D }, (_, d) => ({
      sn: `BD${gw.sn.slice(2)}${String(d).padStart(3, '0')}`,
      gatewayId: gw.id,
      plantId: plantRows[k]?.id,
      family: 'hybrid_inverter',
      protocolId: args.protocol ?? '',
    })),
  );
  await db.insert(devices).values(deviceRows);
  for (const [k, gw] of gatewayRows.entries()) {
    fleet.push({ sn: gw.sn, key: keys[k] ?? '', devices: deviceRows.filter((r) => r.gatewayId === gw.id).map((r) => r.sn) });
  }
}
await server.telemetry.pipeline.start();

// Lag: from the report's time (set when published) to the moment its batch is committed.
const lags: number[] = [];
server.telemetry.live.subscribe((event) => {
  if (event.type === 'device') lags.push(Date.now() - Date.parse(event.ts));
});
const rss: number[] = [];
const perSecond: number[] = [];
let lastStored = server.telemetry.pipeline.stats.readingsStored;
const sampler = setInterval(() => {
  const stored = server.telemetry.pipeline.stats.readingsStored;
  perSecond.push(stored - lastStored);
  lastStored = stored;
  rss.push(process.memoryUsage().rss);
}, 1000);

const url = `mqtt://127.0.0.1:${server.telemetry.mqttPort}`;
const started = Date.now();
const results = await Promise.all(
  Array.from({ length: P }, (_, p) => {
    const job = { url, gateways: fleet.filter((_, i) => i % P === p), protocolId: args.protocol, ratePerSecond: rate / P, seconds };
    return run(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'ingest-publisher.ts'), JSON.stringify(job)], {
      maxBuffer: 1 << 20,
    }).then((r) => JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { sent: number; readings: number; acked: number });
  }),
);
const elapsed = (Date.now() - started) / 1000;
clearInterval(sampler);
await server.telemetry.pipeline.drain();
const [stored] = await db.select({ n: count() }).from(readings);
const distinct = await db.execute(sql`select count(distinct (device_id, ts)) as n from readings`);
const sentReadings = results.reduce((n, r) => n + r.readings, 0);
const sentReports = results.reduce((n, r) => n + r.sent, 0);
const ackedReports = results.reduce((n, r) => n + r.acked, 0);
const sorted = [...lags].sort((a, b) => a - b);
const pct = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const steady = perSecond.slice(2, -2);
const mb = (b: number) => `${Math.round(b / 1048576)} MB`;
const storedCount = Number(stored?.n ?? 0);
const distinctCount = Number((distinct as unknown as { rows: { n: number | string }[] }).rows[0]?.n ?? 0);
console.log(
  `database: ${args.db}; ${G} gateways × ${D} devices (${args.protocol}), ${P} publisher processes, offered ${rate} reports/s (${rate * D} device readings/s) for ${seconds} s`,
);
console.log(`sent ${sentReports} reports (${sentReadings} readings), acknowledged ${ackedReports}, in ${elapsed.toFixed(1)} s`);
console.log(`stored ${storedCount} readings: lost ${sentReadings - storedCount}, duplicated ${storedCount - distinctCount}`);
console.log(
  `throughput: ${(storedCount / elapsed).toFixed(0)} device readings/s average; steady-state median ${steady.sort((a, b) => a - b)[Math.floor(steady.length / 2)] ?? 0}/s, max ${Math.max(...perSecond)}/s`,
);
console.log(`publish-to-stored lag: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${sorted.at(-1) ?? 0} ms (${sorted.length} samples)`);
console.log(`server rss: first ${mb(rss[0] ?? 0)}, peak ${mb(Math.max(...rss))}, last ${mb(rss.at(-1) ?? 0)}`);
await server.close();
if (dbName) {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}
process.exit(0);
