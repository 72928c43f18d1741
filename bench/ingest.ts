// Ingest benchmark: the real server (embedded broker, pipeline, database), publishers as separate processes
// playing gateways over MQTT. Prints throughput, publish-to-stored lag, memory, lost and duplicated readings.
//   npx tsx bench/ingest.ts --db pglite|postgres --gateways 200 --devices 10 --rate 300 --seconds 60
// Where the server runs (--server):
//   child (the default on PostgreSQL): the production build (scripts/build.mjs --server, then
//     `node --enable-source-maps apps/server/dist/main.js`) as a process of its own, as it runs in production; its memory is the kernel's (VmRSS each second, VmHWM for the peak) and the
//     figures come from its /metrics. The bench provisions the fleet through its own database connection.
//   inline (the default, and the only choice, on PGlite): startServer() in this process, for profiling
//     (node --cpu-prof) and heap snapshots; its memory figures include the bench's own (the fleet's provisioning).
//     node --expose-gc --import tsx bench/ingest.ts …: also collects the setup's garbage before the run and prints
//     what is still reachable after a full collection at the end.
//     BENCH_HEAP_SNAPSHOT=dir: heap snapshots before the run and at second BENCH_HEAP_SNAPSHOT_AT (default 20).
// Lag: each report's publish-to-PUBACK time at its gateway (the server acknowledges a report once it is stored).
// Extra server settings (INGEST_PENDING_MB, …) pass through the environment; BENCH_SERVER_NODE_OPTIONS adds node
// flags to a child server.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { count, sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.js';
import { type Database, openDatabase } from '../apps/server/src/db/client.js';
import { readings } from '../apps/server/src/db/schema.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { provisionLoadFleet } from '../apps/server/src/features/fleet/load-fleet.js';
import { startServer } from '../apps/server/src/server.js';
import { freePort } from '../apps/server/src/test/fleet.js';
import { publisher } from './publisher-process.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    server: { type: 'string' },
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
const mode = args.server ?? (args.db === 'postgres' ? 'child' : 'inline');
if (mode !== 'child' && mode !== 'inline') throw new Error('--server is child or inline');
if (mode === 'child' && args.db !== 'postgres')
  throw new Error('--server child needs --db postgres (the bench provisions the fleet through the database)');

const mb = (b: number) => `${Math.round(b / 1048576)} MB`;
const dataDir = mkdtempSync(join(tmpdir(), 'sunward-bench-'));
const scratch = args.db === 'postgres' ? await createScratchDatabase(pgUrl, 'sunward_bench') : undefined;
const databaseUrl = scratch?.url ?? '';

/** One second's memory of the server process, as far as the mode can tell. */
interface MemorySample {
  rss: number;
  heapUsed?: number;
  heapTotal?: number;
  external?: number;
  arrayBuffers?: number;
  spaces?: ReturnType<typeof v8.getHeapSpaceStatistics>;
}
/** The server under test, wherever it runs. */
interface ServerUnderTest {
  mqttUrl: string;
  db: Database;
  readingsStored(): Promise<number>;
  memory(): Promise<MemorySample | undefined>;
  /** The ingest byte budget's state now (sampled every 50 ms inline, each second in a child). */
  budget(): Promise<{ waiting: number; bytes: number; parkedSockets?: number; socketBytes?: number }>;
  /** Once the publishers are done: every accepted report committed. */
  drain(): Promise<void>;
  report(): Promise<string[]>;
  close(): Promise<void>;
}

async function inlineServer(): Promise<ServerUnderTest> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: 'Bench-Password-1',
    SIMULATOR: 'off',
  });
  const server = await startServer(config, { logger: false });
  await server.telemetry.pipeline.start();
  return {
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    db: server.database.db,
    readingsStored: async () => server.telemetry.pipeline.stats.readingsStored,
    memory: async () => {
      const m = process.memoryUsage();
      return { ...m, spaces: v8.getHeapSpaceStatistics() };
    },
    budget: async () => server.telemetry.pipeline.pending(),
    drain: () => server.telemetry.pipeline.drain(),
    report: async () => {
      const { rejected, gaps } = server.telemetry.pipeline.stats;
      const budget = server.telemetry.pipeline.pending();
      const lines = [
        `rejected by reason: ${JSON.stringify(rejected)}; sequence gaps seen: ${gaps}`,
        `ingest byte budget: ${mb(budget.limitBytes)}, peak ${mb(budget.peakBytes)} accepted and not committed`,
      ];
      // With node --expose-gc: what is still reachable once a full collection has run (the rest was garbage).
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc) {
        gc();
        if (snapshotDir) lines.push(`heap snapshot: ${v8.writeHeapSnapshot(join(snapshotDir, 'end.heapsnapshot'))}`);
        const m = process.memoryUsage();
        lines.push(
          `after a full GC: rss ${mb(m.rss)}: heap ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, external ${mb(m.external)} (array buffers ${mb(m.arrayBuffers)}), other ${mb(m.rss - m.heapTotal - m.external)}`,
        );
      }
      return lines;
    },
    close: () => server.close(),
  };
}

/** The value of one unlabelled metric in a Prometheus text exposition. */
function metric(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}
/** Counters of a labelled metric, by label value (`sunward_ingest_refused_total{reason="…"} n`). */
function labelled(text: string, name: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}\\{[a-z_]+="([^"]*)"\\} (\\S+)$`).exec(line);
    if (match?.[1] !== undefined) out[match[1]] = Number(match[2]);
  }
  return out;
}
/** VmRSS or VmHWM of a process in bytes, from /proc (undefined once it is gone). */
function procStatus(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function childServer(): Promise<ServerUnderTest> {
  const [port, mqttPort] = [await freePort(), await freePort()];
  // The production build, run as the image and `npm start` run it (plain node, no tsx: scripts/build.mjs).
  const root = join(import.meta.dirname, '..');
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--server'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the server build failed');
  const nodeFlags = (process.env.BENCH_SERVER_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, '--enable-source-maps', 'apps/server/dist/main.js'], {
    cwd: root,
    env: {
      // As scripts/lib.mjs serverEnv gives it to the server (npm start, npm run cluster, the image).
      MALLOC_MMAP_THRESHOLD_: '65536',
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      MQTT_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'Bench-Password-1',
      SIMULATOR: 'off',
      SIP_PORT: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const base = `http://127.0.0.1:${port}`;
  // One /metrics scrape serves the figures of the same moment (stored, memory, budget), not one scrape each.
  let lastScrape: { at: number; text: Promise<string> } | undefined;
  const scrape = () => {
    if (!lastScrape || Date.now() - lastScrape.at > 100)
      lastScrape = { at: Date.now(), text: fetch(`${base}/metrics`).then((r) => r.text()) };
    return lastScrape.text;
  };
  const deadline = Date.now() + 120_000;
  while (!/running at http/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${out}`);
    await delay(100);
  }
  const handle = await openDatabase({ dataDir, databaseUrl });
  return {
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    db: handle.db,
    readingsStored: async () => metric(await scrape(), 'sunward_ingest_readings_total') ?? 0,
    memory: async () => {
      const rss = procStatus(child.pid, 'VmRSS');
      if (rss === undefined) return undefined;
      const text = await scrape().catch(() => '');
      return {
        rss,
        heapUsed: metric(text, 'sunward_nodejs_heap_size_used_bytes'),
        heapTotal: metric(text, 'sunward_nodejs_heap_size_total_bytes'),
        external: metric(text, 'sunward_nodejs_external_memory_bytes'),
      };
    },
    budget: async () => {
      const text = await scrape();
      const waiting = metric(text, 'sunward_ingest_waiting_reports') ?? 0;
      return { waiting, bytes: metric(text, 'sunward_ingest_pending_bytes') ?? 0 };
    },
    drain: async () => {
      // Drained when nothing is queued, waiting or uncommitted.
      await delay(200);
      for (;;) {
        const text = await scrape();
        if ((metric(text, 'sunward_ingest_queue_reports') ?? 0) === 0 && (metric(text, 'sunward_ingest_waiting_reports') ?? 0) === 0)
          return;
        await delay(100);
      }
    },
    report: async () => {
      const text = await scrape();
      return [
        `refused by reason: ${JSON.stringify(labelled(text, 'sunward_ingest_refused_total'))}; sequence gaps seen: ${metric(text, 'sunward_ingest_sequence_gaps_total') ?? 0}`,
        `server process: peak resident set (VmHWM) ${mb(procStatus(child.pid, 'VmHWM') ?? 0)}, now ${mb(procStatus(child.pid, 'VmRSS') ?? 0)}`,
      ];
    },
    close: async () => {
      await handle.close();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(force);
    },
  };
}

const snapshotDir = process.env.BENCH_HEAP_SNAPSHOT;
const snapshotAt = Number(process.env.BENCH_HEAP_SNAPSHOT_AT ?? 20);
const server = mode === 'child' ? await childServer() : await inlineServer();
const db = server.db;

// A bench fleet: G gateways with D devices each, registered like any load-test fleet.
const url = server.mqttUrl;
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

const checkpointsBefore = await checkpoints();
async function checkpoints(): Promise<number> {
  if (args.db !== 'postgres') return 0;
  const rows = (await db.execute(sql`select checkpoints_timed + checkpoints_req as n from pg_stat_bgwriter`)) as unknown as {
    rows: { n: string | number }[];
  };
  return Number(rows.rows[0]?.n ?? 0);
}
// Each second: readings stored, and the server's memory.
const memory: MemorySample[] = [];
const perSecond: number[] = [];
let mostWaiting = 0;
let mostParked = 0;
let mostSocketBytes = 0;
let lastStored = 0;
let sampling = false;
let sampler: NodeJS.Timeout | undefined;
let budgetSampler: NodeJS.Timeout | undefined;
function startSampling(): void {
  sampler = setInterval(() => {
    if (sampling) return;
    sampling = true;
    void (async () => {
      const stored = await server.readingsStored();
      perSecond.push(stored - lastStored);
      lastStored = stored;
      const m = await server.memory();
      if (m) memory.push(m);
      if (mode === 'inline' && snapshotDir && memory.length === snapshotAt)
        console.log(`heap snapshot: ${v8.writeHeapSnapshot(join(snapshotDir, 'at.heapsnapshot'))}`);
    })()
      .catch(() => undefined)
      .finally(() => {
        sampling = false;
      });
  }, 1000);
  // The byte budget's state (the inline budget also keeps its own peak).
  budgetSampler = setInterval(
    () =>
      void server
        .budget()
        .then((p) => {
          mostWaiting = Math.max(mostWaiting, p.waiting);
          mostParked = Math.max(mostParked, p.parkedSockets ?? 0);
          mostSocketBytes = Math.max(mostSocketBytes, p.socketBytes ?? 0);
        })
        .catch(() => undefined),
    mode === 'inline' ? 50 : 1000,
  );
}

const connectBegan = Date.now();
const publishers = Array.from({ length: P }, (_, p) =>
  publisher({ url, gateways: fleet.filter((_, i) => i % P === p), protocolId: args.protocol, ratePerSecond: rate / P, seconds }),
);
await Promise.race([Promise.all(publishers.map((p) => p.connected)), Promise.all(publishers.map((p) => p.done))]);
const connectSeconds = (Date.now() - connectBegan) / 1000;
// With node --expose-gc (inline): the provisioning's garbage (50,000 devices at 5,000 gateways) is collected
// before the run, so that the first second shows the server's memory and not the bench's setup in this process.
(globalThis as { gc?: () => void }).gc?.();
if (mode === 'inline' && snapshotDir) console.log(`heap snapshot: ${v8.writeHeapSnapshot(join(snapshotDir, 'start.heapsnapshot'))}`);
const memoryAtStart = await server.memory();
lastStored = await server.readingsStored();
const started = Date.now();
startSampling();
for (const p of publishers) p.go();
const results = await Promise.all(publishers.map((p) => p.done));
const elapsed = (Date.now() - started) / 1000;
clearInterval(sampler);
clearInterval(budgetSampler);
await server.drain();
const [stored] = await db.select({ n: count() }).from(readings);
const distinct = await db.execute(sql`select count(distinct (device_id, ts)) as n from readings`);
const sentReadings = results.reduce((n, r) => n + r.readings, 0);
const sentReports = results.reduce((n, r) => n + r.sent, 0);
const ackedReports = results.reduce((n, r) => n + r.acked, 0);
const refusedReports = results.reduce((n, r) => n + (r.refused ?? 0), 0);
const sorted = results.flatMap((r) => r.lags ?? []).sort((a, b) => a - b);
const pct = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
// Steady state: the offered seconds after the first two (the drain after them is not counted).
const steady = perSecond.slice(2, seconds);
const storedCount = Number(stored?.n ?? 0);
const distinctCount = Number((distinct as unknown as { rows: { n: number | string }[] }).rows[0]?.n ?? 0);
console.log(
  `database: ${args.db}; server: ${mode === 'child' ? 'its own process' : "this bench's process"}; ${G} gateways × ${D} devices (${args.protocol}), ${P} publisher processes, offered ${rate} reports/s (${rate * D} device readings/s) for ${seconds} s`,
);
console.log(
  `${G} gateways connected in ${connectSeconds.toFixed(1)} s; sent ${sentReports} reports (${sentReadings} readings), acknowledged ${ackedReports}, in ${elapsed.toFixed(1)} s; refused then resent ${refusedReports}`,
);
for (const line of await server.report()) console.log(line);
console.log(`stored ${storedCount} readings: lost ${sentReadings - storedCount}, duplicated ${storedCount - distinctCount}`);
console.log(
  `throughput: ${(storedCount / elapsed).toFixed(0)} device readings/s average; steady-state median ${[...steady].sort((a, b) => a - b)[Math.floor(steady.length / 2)] ?? 0}/s, max ${Math.max(...perSecond)}/s`,
);
console.log(
  `publish-to-acknowledged (stored) lag per report: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${sorted.at(-1) ?? 0} ms (${sorted.length} reports)`,
);
const rss = memory.map((m) => m.rss);
console.log(
  `server rss: before the run ${mb(memoryAtStart?.rss ?? 0)}, first second ${mb(rss[0] ?? 0)}, peak of the seconds ${mb(Math.max(...rss))}, last ${mb(rss.at(-1) ?? 0)}`,
);
// Memory over the run: a steady state shows as a flat line after the first minute.
const tenths = Array.from({ length: 10 }, (_, i) => rss[Math.min(rss.length - 1, Math.floor(((i + 1) * rss.length) / 10) - 1)] ?? 0);
console.log(`server rss at each tenth of the run: ${tenths.map(mb).join(', ')}`);
// Second by second (thousands of readings stored / RSS in MB): a collapse past capacity shows here.
console.log(
  `stored per second (k) / rss (MB): ${perSecond.map((n, i) => `${(n / 1000).toFixed(1)}/${Math.round((rss[i] ?? 0) / 1048576)}`).join(' ')}`,
);
const describe = (m: MemorySample | undefined) => {
  if (!m) return '–';
  const spaces = (m.spaces ?? [])
    .filter((s) => s.space_used_size > 1048576)
    .map((s) => `${s.space_name.replace('_space', '')} ${mb(s.space_used_size)}/${mb(s.space_size)}`)
    .join(', ');
  const heapTotal = m.heapTotal ?? 0;
  const external = m.external ?? 0;
  return `rss ${mb(m.rss)}: heap ${mb(m.heapUsed ?? 0)} of ${mb(heapTotal)}${spaces ? ` (${spaces})` : ''}, external ${mb(external)}${
    m.arrayBuffers === undefined ? '' : ` (array buffers ${mb(m.arrayBuffers)})`
  }, other ${mb(m.rss - heapTotal - external)}`;
};
const peakAt = rss.indexOf(Math.max(...rss));
console.log(`memory before the run: ${describe(memoryAtStart)}`);
console.log(`memory at the peak second (${peakAt + 1}): ${describe(memory[peakAt])}`);
console.log(`memory at the last second: ${describe(memory.at(-1))}`);
console.log(
  `ingest byte budget: at most ${mostWaiting} reports waiting for room${mode === 'inline' ? `, ${mb(mostSocketBytes)} read and not yet parsed, ${mostParked} sockets not read` : ''}`,
);
if (args.db === 'postgres') console.log(`PostgreSQL checkpoints during the run: ${(await checkpoints()) - checkpointsBefore}`);
await server.close();
await scratch?.drop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
