// The bare pipeline to compare one server process with (issue 26 part 7): gateways → Mosquitto → decode → COPY,
// nothing else. The same publisher processes as bench/ingest.ts publish to the machine's Mosquitto on a topic root
// of their own (other servers may share that broker); one process here takes the reports over a shared
// subscription (MQTT 5, several persistent sessions), decodes them with the product's decoder, and writes the
// readings with COPY through one long-lived psql (a batch every 20 ms or 2,000 readings, each its own transaction,
// counted when psql answers "COPY n"). Each report is acknowledged once its COPY committed, in arrival order, by the
// product's consumer session (ingest/ordered-ack-session.ts), as the product acknowledges: `--ack receipt` acknowledges
// on arrival instead (mqtt.js; Mosquitto then drops what overflows a session's queue). No realtime rows, energy,
// statuses, events, gaps or live events: only raw readings, into a table without a key.
//   npx tsx bench/ingest-bare.ts --gateways 1500 --devices 10 --rate 3000 --seconds 30 [--connections 4] [--ack stored|receipt]
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { protocolById } from '@sunward/protocol/maps/index';
import mqtt from 'mqtt';
import pg from 'pg';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { holdOrderedAckSession } from '../apps/server/src/ingest/ordered-ack-session.js';
import { type DecodedReading, decodeReport, parseReport } from '../apps/server/src/ingest/report-decoder.js';
import { publisher } from './publisher-process.js';

const { values: args } = parseArgs({
  options: {
    gateways: { type: 'string', default: '1500' },
    devices: { type: 'string', default: '10' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '30' },
    publishers: { type: 'string', default: '2' },
    connections: { type: 'string', default: '4' },
    ack: { type: 'string', default: 'stored' },
    protocol: { type: 'string', default: 'sunspec-hybrid-lv' },
    broker: { type: 'string', default: process.env.BENCH_MQTT_URL ?? 'mqtt://127.0.0.1:1883' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const G = Number(args.gateways);
const D = Number(args.devices);
const rate = Number(args.rate);
const seconds = Number(args.seconds);
const P = Number(args.publishers);
const protocolId = args.protocol ?? '';
const topicRoot = `sunward-bare-${process.pid}`;

const scratch = await createScratchDatabase(args.postgres ?? '', 'sunward_bare');
const admin = new pg.Client({ connectionString: scratch.url });
await admin.connect();
await admin.query('create table bare_readings (device_id int not null, ts timestamptz not null, values float8[] not null)');

// The fleet: device ids by SN, each gateway's devices its own (the decoder checks that a device is the gateway's).
const fleet = Array.from({ length: G }, (_, g) => ({
  sn: `BARE${String(g).padStart(6, '0')}`,
  key: 'unused',
  devices: Array.from({ length: D }, (_, d) => `BD${String(g).padStart(6, '0')}${String(d).padStart(3, '0')}`),
}));
const gatewayIds = new Map(fleet.map((g, i) => [g.sn, i + 1]));
const deviceIds = new Map<string, { id: number; gatewayId: number; protocolId: string }>();
fleet.forEach((g, i) => {
  for (const sn of g.devices) deviceIds.set(sn, { id: deviceIds.size + 1, gatewayId: i + 1, protocolId });
});

// COPY through one psql: each batch is "COPY … FROM STDIN", its rows, "\.", and counts when psql prints "COPY n".
const psql = spawn('psql', [scratch.url, '-X', '-v', 'ON_ERROR_STOP=1'], { stdio: ['pipe', 'pipe', 'inherit'] });
const committing: { rows: number; done: (() => void)[] }[] = [];
let stored = 0;
let copies = '';
psql.stdout.setEncoding('utf8');
psql.stdout.on('data', (chunk: string) => {
  copies += chunk;
  let end = copies.indexOf('\n');
  while (end >= 0) {
    const line = copies.slice(0, end);
    copies = copies.slice(end + 1);
    if (line.startsWith('COPY ')) {
      const copy = committing.shift();
      stored += copy?.rows ?? 0;
      for (const done of copy?.done ?? []) done();
    }
    end = copies.indexOf('\n');
  }
});
let batch: DecodedReading[] = [];
let waiting: (() => void)[] = [];
let timer: NodeJS.Timeout | undefined;
function flush() {
  clearTimeout(timer);
  timer = undefined;
  if (batch.length === 0) return;
  const rows = batch;
  const done = waiting;
  batch = [];
  waiting = [];
  let text = 'COPY bare_readings (device_id, ts, values) FROM STDIN;\n';
  for (const r of rows) text += `${r.deviceId}\t${r.ts.toISOString()}\t{${r.values.join(',')}}\n`;
  text += '\\.\n';
  committing.push({ rows: rows.length, done });
  psql.stdin.write(text);
}
function add(readings: readonly DecodedReading[], done: () => void) {
  for (const r of readings) batch.push(r);
  waiting.push(done);
  if (batch.length >= 2000) flush();
  else timer ??= setTimeout(flush, 20);
}

let refused = 0;
function receive(topic: string, payload: Buffer): Promise<void> {
  const gatewayId = gatewayIds.get(topic.split('/')[1] ?? '') ?? 0;
  const parsed = parseReport(payload);
  if (!parsed.ok) {
    refused++;
    return Promise.resolve();
  }
  const decoded = decodeReport(parsed.report, {
    gatewayId,
    now: new Date(),
    maxAgeMs: 31 * 86_400_000,
    maxFutureMs: 300_000,
    findDevice: (sn) => deviceIds.get(sn),
    findProtocol: protocolById,
  });
  refused += decoded.rejected.length;
  return new Promise((resolve) => add(decoded.readings, resolve));
}
const share = `$share/bare/${topicRoot}/+/report`;
const closers: (() => Promise<unknown>)[] = [];
if (args.ack === 'receipt') {
  const consumers = Array.from({ length: Number(args.connections) }, (_, i) =>
    mqtt.connect(args.broker ?? '', { clientId: `${topicRoot}-${i}`, protocolVersion: 5, clean: true, reconnectPeriod: 1000 }),
  );
  await Promise.all(consumers.map((c) => new Promise((resolve) => c.once('connect', resolve))));
  await Promise.all(consumers.map((c) => c.subscribeAsync(share, { qos: 1 })));
  for (const c of consumers) c.on('message', (topic, payload) => void receive(topic, payload));
  closers.push(...consumers.map((c) => () => c.endAsync(true)));
} else {
  const sessions = Array.from({ length: Number(args.connections) }, (_, i) =>
    holdOrderedAckSession({
      url: args.broker ?? '',
      clientId: `${topicRoot}-${i}`,
      sessionExpirySeconds: 600,
      handle: receive,
      reconnectMs: 1000,
      onConnect: (session) => session.subscribe([share]),
      onError: (error) => console.error('consumer connection:', error),
    }),
  );
  await Promise.all(sessions.map((s) => s.ready));
  closers.push(...sessions.map((s) => () => s.close()));
}

const perSecond: number[] = [];
let last = 0;
const sampler = setInterval(() => {
  perSecond.push(stored - last);
  last = stored;
}, 1000);
const publishers = Array.from({ length: P }, (_, p) =>
  publisher({
    url: args.broker,
    gateways: fleet.filter((_, i) => i % P === p),
    protocolId,
    ratePerSecond: rate / P,
    seconds,
    topicRoot,
  }),
);
await Promise.all(publishers.map((p) => p.connected));
const started = Date.now();
perSecond.length = 0;
last = stored;
for (const p of publishers) p.go();
const results = await Promise.all(publishers.map((p) => p.done));
const sentReadings = results.reduce((n, r) => n + r.readings, 0);
// The rest arrives and is written: wait until nothing more comes for 2 s.
for (let quiet = 0, seen = stored; quiet < 4; ) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  flush();
  quiet = stored === seen && committing.length === 0 ? quiet + 1 : 0;
  seen = stored;
}
const elapsed = (Date.now() - started) / 1000;
clearInterval(sampler);
const steady = perSecond.slice(2, seconds);
const rows = Number((await admin.query('select count(*) as n from bare_readings')).rows[0]?.n ?? 0);
console.log(
  `bare: ${G} gateways × ${D} devices (${protocolId}) through Mosquitto, offered ${rate} reports/s (${rate * D} readings/s) for ${seconds} s, ${args.connections} consumer connections, acknowledged ${args.ack === 'receipt' ? 'on receipt' : 'once stored'}`,
);
console.log(`sent ${sentReadings} readings; stored ${rows} (refused ${refused}), all in ${elapsed.toFixed(1)} s`);
console.log(
  `stored per second: median ${[...steady].sort((a, b) => a - b)[Math.floor(steady.length / 2)] ?? 0}, mean of s 2–${seconds} ${Math.round(steady.reduce((a, b) => a + b, 0) / Math.max(1, steady.length))}`,
);
console.log(`stored per second (k): ${perSecond.map((n) => (n / 1000).toFixed(1)).join(' ')}`);
console.log(`this process: rss ${Math.round(process.memoryUsage().rss / 1048576)} MB`);
psql.stdin.end();
await Promise.all(closers.map((close) => close()));
await admin.end();
await scratch.drop();
process.exit(0);
