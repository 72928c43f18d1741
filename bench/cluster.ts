// Several server processes on one PostgreSQL and the machine's Mosquitto (issue 26 part 5): throughput, lag and
// takeover time with 1, 2 or 3 processes.
//   npx tsx bench/cluster.ts [--servers 3] [--rate 5000] [--seconds 30] [--kill-at 10] [--devices 25] [--report-hz 10]
// Real processes (main.ts, as `npm run cluster` starts them) on a scratch database; this script plays the gateways
// over MQTT (QoS 1, `--devices` inverters a report, `rate / devices` reports a second), reads every process's
// /metrics each second for the readings stored, and a live stream on the first process for the lag (a reading's
// time to its arrival there, whichever process stored it). `--kill-at T` kills the last process with SIGKILL T
// seconds in and reports when its sessions were adopted and when everything offered was stored.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { sampleValues } from '@sunward/protocol/sample-values';
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { openDatabase, queryRows } from '../apps/server/src/db/client.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { provisionLoadFleet } from '../apps/server/src/features/fleet/load-fleet.js';
import { openLiveStream, signInTo, startCluster } from '../apps/server/src/test/cluster-harness.js';

const { values: args } = parseArgs({
  options: {
    servers: { type: 'string', default: '3' },
    rate: { type: 'string', default: '5000' },
    seconds: { type: 'string', default: '30' },
    'kill-at': { type: 'string' },
    devices: { type: 'string', default: '25' },
    'report-hz': { type: 'string', default: '10' },
  },
});
const SERVERS = Number(args.servers);
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const DEVICES = Number(args.devices);
const KILL_AT = args['kill-at'] ? Number(args['kill-at']) * 1000 : undefined;
const REPORTS_PER_SECOND = RATE / DEVICES;
/**
 * Each gateway reports at most `--report-hz` times a second (10 by default, as the figures before 2026-11-28 ran).
 * Several processes store one gateway's reports in any order when they are closer than a batch's time: a device's
 * reading older than one another process stored has its day recomputed (telemetry.repository.ts).
 */
const GATEWAYS = Math.max(10, Math.ceil(REPORTS_PER_SECOND / Number(args['report-hz'])));
const PROTOCOL = 'sunspec-inverter-3p';
const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const ADMIN = { account: 'bench@example.com', password: 'Bench-Cluster-2026!' };
const run = `bc${process.pid}`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

const protocol = protocolById(PROTOCOL);
if (!protocol) throw new Error('no protocol');
const blocksJson = JSON.stringify(
  encodeValues(protocol, sampleValues(protocol)).map((b) => ({ fc: b.functionCode, addr: b.address, hex: registersToHex(b.registers) })),
);

async function storedReadings(urls: string[]): Promise<number> {
  let total = 0;
  for (const url of urls) {
    const text = await (await fetch(`${url}/metrics`).catch(() => undefined))?.text().catch(() => '');
    const line = text?.split('\n').find((l) => l.startsWith('sunward_ingest_readings_total'));
    total += Number(line?.split(' ')[1] ?? 0);
  }
  return total;
}

console.log(
  `machine: load average ${load()}; ${SERVERS} server processes, ${RATE} readings/s offered (${GATEWAYS} gateways × ${DEVICES} inverters) for ${SECONDS} s`,
);
const scratch = await createScratchDatabase(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'sunward_bcl');
const cluster = await startCluster({
  servers: SERVERS,
  databaseUrl: scratch.url,
  mqttUrl: MQTT_URL,
  run,
  env: {
    ADMIN_ACCOUNT: ADMIN.account,
    ADMIN_PASSWORD: ADMIN.password,
    MQTT_TAKEOVER_S: process.env.MQTT_TAKEOVER_S ?? '10',
    // The product's default is 16 consumer connections a process; the harness's 4 unless set.
    ...(process.env.MQTT_CONSUMERS ? { MQTT_CONSUMERS: process.env.MQTT_CONSUMERS } : {}),
  },
});
const database = await openDatabase({ dataDir: join(cluster.dataDir, 'unused'), databaseUrl: scratch.url });
const clients: MqttClient[] = [];
try {
  const fleet = await provisionLoadFleet(database.db, {
    gateways: GATEWAYS,
    devicesPerGateway: DEVICES,
    protocolId: PROTOCOL,
    intervalSeconds: 60,
    mqttUrl: MQTT_URL,
    seed: 3,
    prefix: run,
  });
  for (const g of fleet.gateways)
    clients.push(await mqtt.connectAsync(MQTT_URL, { clientId: g.sn, username: g.sn, password: g.key, reconnectPeriod: 1000 }));
  const token = await signInTo(cluster.processes[0]?.url ?? '', ADMIN.account, ADMIN.password);
  const lags: number[] = [];
  const stream = await openLiveStream(cluster.processes[0]?.url ?? '', token, (type, data) => {
    if (type === 'device') lags.push(Date.now() - Date.parse((data as { ts: string }).ts));
  });
  const urls = () => cluster.processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null).map((p) => p.url);

  const perSecond: number[] = [];
  let last = await storedReadings(urls());
  // A killed process's count is gone with it: what it had stored is kept here.
  let lostWithVictim = 0;
  const sampler = setInterval(() => {
    void storedReadings(urls()).then((now) => {
      perSecond.push(now + lostWithVictim - last);
      last = now + lostWithVictim;
    });
  }, 1000);

  const started = Date.now();
  let killedAt = 0;
  let sent = 0;
  let readings = 0;
  const acks: Promise<unknown>[] = [];
  const lastTs = new Map<string, number>();
  for (let n = 0; Date.now() - started < SECONDS * 1000; n++) {
    const g = fleet.gateways[n % GATEWAYS];
    const client = clients[n % GATEWAYS];
    if (!g || !client) break;
    const ts = Math.max(Date.now(), (lastTs.get(g.sn) ?? 0) + 1);
    lastTs.set(g.sn, ts);
    const list = g.devices.map((d) => `{"sn":"${d.sn}","proto":"${PROTOCOL}","blocks":${blocksJson}}`).join(',');
    acks.push(client.publishAsync(gatewayTopic(g.sn, 'report'), `{"v":1,"seq":${n + 1},"ts":${ts},"devices":[${list}]}`, { qos: 1 }));
    sent++;
    readings += g.devices.length;
    if (KILL_AT !== undefined && !killedAt && Date.now() - started >= KILL_AT) {
      const victim = cluster.processes[SERVERS - 1];
      if (victim) {
        lostWithVictim += await storedReadings([victim.url]);
        await cluster.kill(victim);
        killedAt = Date.now();
        console.log(`killed process ${SERVERS} (SIGKILL) ${((killedAt - started) / 1000).toFixed(1)} s in`);
      }
    }
    const wait = started + ((n + 1) * 1000) / REPORTS_PER_SECOND - Date.now();
    if (wait > 0) await delay(wait);
  }
  await Promise.all(acks);
  const offeredFor = (Date.now() - started) / 1000;
  let adoptedAt = 0;
  const countStored = async () => Number((await queryRows<{ n: string }>(database.db, sql`select count(*) as n from readings`))[0]?.n ?? 0);
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (killedAt && !adoptedAt) {
      const left = await queryRows<{ n: string }>(
        database.db,
        sql`select count(*) as n from mqtt_consumer_sessions where client_id like ${`sunward-${run}-s${SERVERS}-%`}`,
      );
      if (Number(left[0]?.n ?? 0) === 0) adoptedAt = Date.now();
    }
    if ((await countStored()) >= readings || Date.now() > deadline) break;
    await delay(250);
  }
  const allStoredAt = Date.now();
  clearInterval(sampler);
  stream.close();
  const stored = await countStored();
  const distinct = Number(
    (await queryRows<{ n: string }>(database.db, sql`select count(*) as n from (select distinct device_id, ts from readings) d`))[0]?.n ??
      0,
  );
  const sorted = [...lags].sort((a, b) => a - b);
  const pct = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const steady = perSecond.slice(3, Math.max(4, Math.floor(offeredFor) - 1)).sort((a, b) => a - b);
  console.log(`offered ${readings} readings in ${sent} reports over ${offeredFor.toFixed(1)} s (${(readings / offeredFor).toFixed(0)}/s)`);
  console.log(`stored ${stored}: lost ${readings - stored}, duplicated ${stored - distinct}`);
  console.log(
    `throughput while offered: median ${steady[Math.floor(steady.length / 2)] ?? 0}/s, max ${Math.max(0, ...perSecond)}/s; all stored ${((allStoredAt - started) / 1000).toFixed(1)} s after the start`,
  );
  console.log(`stored each second: ${perSecond.join(' ')}`);
  console.log(`lag (reading time → live event on process 1): p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${sorted.at(-1) ?? 0} ms`);
  // When the survivors claimed and finished adopting the dead process's sessions (their log lines).
  for (const p of cluster.processes.slice(0, SERVERS - 1))
    for (const line of p
      .output()
      .split('\n')
      .filter((l) => l.includes('adopt'))) {
      const entry = JSON.parse(line) as { time: number; msg: string; handled?: number };
      if (killedAt)
        console.log(
          `  process ${p.index + 1}, ${((entry.time - killedAt) / 1000).toFixed(1)} s after the kill: ${entry.msg}${entry.handled === undefined ? '' : ` (${entry.handled} messages)`}`,
        );
    }
  if (killedAt)
    console.log(
      `takeover: the killed process's sessions adopted and ended ${adoptedAt ? `${((adoptedAt - killedAt) / 1000).toFixed(1)} s` : 'never'} after the kill; everything stored ${((allStoredAt - killedAt) / 1000).toFixed(1)} s after it`,
    );
  console.log(`machine: load average ${load()} at the end`);
} finally {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await database.close();
  await cluster.close();
  await scratch.drop();
}
