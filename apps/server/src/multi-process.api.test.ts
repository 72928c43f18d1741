import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { sampleValues } from '@sunward/protocol/sample-values';
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase, queryRows } from './db/client.js';
import { createScratchDatabase } from './db/scratch-database.js';
import { provisionLoadFleet } from './features/fleet/load-fleet.js';
import { api, type Cluster, openLiveStream, signInTo, startCluster, startSimulator } from './test/cluster-harness.js';
import { TEST_POSTGRES_URL } from './test/harness.js';

// Issue 26 part 5: three real server processes (main.ts) on one PostgreSQL database and the machine's Mosquitto,
// sharing the gateways' messages through a shared subscription, as `npm run cluster -- --servers 3` runs them.
const MOSQUITTO_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const ADMIN = { account: 'cluster-admin@example.com', password: 'Cluster-Pass-2026!' };
const PROTOCOL = 'sunspec-inverter-3p';
const run = `mp${process.pid}${Date.now() % 100000}`;

const protocol = protocolById(PROTOCOL);
/** An inverter's registers holding the sample values, with `overrides`, as the report's JSON. */
function blocksOf(overrides: Record<string, number> = {}): string {
  const values = protocol ? encodeValues(protocol, { ...sampleValues(protocol), ...overrides }) : [];
  return JSON.stringify(values.map((b) => ({ fc: b.functionCode, addr: b.address, hex: registersToHex(b.registers) })));
}
const sampleBlocks = blocksOf();
/** One report of a gateway: every device's registers, at `ts`. */
function report(seq: number, ts: number, devices: readonly string[], blocks = sampleBlocks): string {
  const list = devices.map((sn) => `{"sn":"${sn}","proto":"${PROTOCOL}","blocks":${blocks}}`).join(',');
  return `{"v":1,"seq":${seq},"ts":${ts},"devices":[${list}]}`;
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(250);
  }
}

async function count(db: Database, query: ReturnType<typeof sql>): Promise<number> {
  return Number((await queryRows<{ n: number | string }>(db, query))[0]?.n ?? 0);
}

describe.runIf(process.env.TEST_DATABASE === 'postgres')('three server processes, one database, one broker', () => {
  let cluster: Cluster;
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let drop: () => Promise<void>;
  let token = '';
  /** Gateways played by this test over MQTT: 20 gateways of 25 inverters. */
  let fleet: SimulatedFleet;
  /** Gateways whose counters rise: 4 gateways of 10 inverters, in gateways[20..23]. */
  let energyFleet: SimulatedFleet;
  const gateways: MqttClient[] = [];
  const seqs = new Map<string, number>();
  const lastTs = new Map<string, number>();

  beforeAll(async () => {
    const scratch = await createScratchDatabase(TEST_POSTGRES_URL, 'sunward_mp', inject('postgresTemplate'));
    drop = scratch.drop;
    cluster = await startCluster({
      servers: 3,
      databaseUrl: scratch.url,
      mqttUrl: MOSQUITTO_URL,
      run,
      env: {
        ADMIN_ACCOUNT: ADMIN.account,
        ADMIN_PASSWORD: ADMIN.password,
        COMMAND_TIMEOUT_S: '30',
        BATCH_CONCURRENCY: '50',
        COMMAND_CAP_PER_MINUTE: '1000',
        MQTT_TAKEOVER_S: process.env.TEST_TAKEOVER_S ?? '6',
        ACCESS_TOKEN_TTL_MINUTES: '60',
      },
    });
    database = await openDatabase({ dataDir: join(cluster.dataDir, 'unused'), databaseUrl: scratch.url });
    fleet = await provisionLoadFleet(database.db, {
      gateways: 20,
      devicesPerGateway: 25,
      protocolId: PROTOCOL,
      intervalSeconds: 60,
      mqttUrl: MOSQUITTO_URL,
      seed: 7,
      prefix: `${run}L`,
    });
    energyFleet = await provisionLoadFleet(database.db, {
      gateways: 4,
      devicesPerGateway: 10,
      protocolId: PROTOCOL,
      intervalSeconds: 60,
      mqttUrl: MOSQUITTO_URL,
      seed: 8,
      prefix: `${run}E`,
    });
    for (const g of [...fleet.gateways, ...energyFleet.gateways]) {
      const client = await mqtt.connectAsync(MOSQUITTO_URL, { clientId: g.sn, username: g.sn, password: g.key, reconnectPeriod: 1000 });
      gateways.push(client);
    }
    token = await signInTo(cluster.processes[0]?.url ?? '', ADMIN.account, ADMIN.password);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.endAsync(true)));
    await database?.close();
    await cluster?.close();
    await drop?.();
  }, 60_000);

  /** Publishes one report of gateway `i` (QoS 1); resolves on the broker's PUBACK. */
  function publishReport(i: number): { ts: number; readings: number; done: Promise<unknown> } {
    const g = fleet.gateways[i];
    const client = gateways[i];
    if (!g || !client) throw new Error(`no gateway ${i}`);
    const ts = Math.max(Date.now(), (lastTs.get(g.sn) ?? 0) + 1);
    lastTs.set(g.sn, ts);
    const seq = (seqs.get(g.sn) ?? 0) + 1;
    seqs.set(g.sn, seq);
    const sns = g.devices.map((d) => d.sn);
    return { ts, readings: sns.length, done: client.publishAsync(gatewayTopic(g.sn, 'report'), report(seq, ts, sns), { qos: 1 }) };
  }

  it('a reading stored by any process reaches a live stream on every process within 2 s', async () => {
    const arrivals = cluster.processes.map(() => new Map<number, number>());
    const streams = await Promise.all(
      cluster.processes.map((p, index) =>
        openLiveStream(p.url, token, (type, data) => {
          if (type === 'device') arrivals[index]?.set(Date.parse((data as { ts: string }).ts), Date.now());
        }),
      ),
    );
    try {
      // Ten reports one after another, from different gateways: the broker hands them to different processes.
      const sent: { ts: number; at: number }[] = [];
      for (let i = 0; i < 10; i++) {
        const published = publishReport(i);
        sent.push({ ts: published.ts, at: Date.now() });
        await published.done;
        await delay(100);
      }
      await until('every report on every stream', 15_000, async () => arrivals.every((seen) => sent.every((s) => seen.has(s.ts))));
      const delays = sent.flatMap((s) => arrivals.map((seen) => (seen.get(s.ts) ?? Number.POSITIVE_INFINITY) - s.at));
      expect(Math.max(...delays)).toBeLessThan(2000);
      // They were stored by more than one process (the streams of the others got them over the live bus).
      const storing = await Promise.all(cluster.processes.map((p) => metric(p.url, 'sunward_ingest_reports_total')));
      expect(storing.filter((n) => n > 0).length).toBeGreaterThan(1);
    } finally {
      for (const stream of streams) stream.close();
    }
  }, 60_000);

  it('a command sent through one process is confirmed when its reply lands on another', async () => {
    const g = fleet.gateways[19];
    const client = gateways[19];
    const inverter = g?.devices[0]?.sn;
    if (!g || !client || !inverter) throw new Error('no gateway');
    // Online as a device is: its gateway reports (a status set by hand would be undone by the offline sweep).
    await publishReport(19).done;
    await until('the inverter online', 30_000, async () => {
      const rows = await queryRows<{ status: number }>(database.db, sql`select status from devices where sn = ${inverter}`);
      return rows[0]?.status === 1;
    });
    // The gateway answers every command on its reply topic, which the three processes share.
    await client.subscribeAsync(gatewayTopic(g.sn, 'cmd'), { qos: 1 });
    client.on('message', (_topic, payload) => {
      const command = JSON.parse(payload.toString()) as { id: string };
      void client.publishAsync(gatewayTopic(g.sn, 'reply'), JSON.stringify({ v: 1, id: command.id, status: 'ok' }), { qos: 1 });
    });
    const a = cluster.processes[0]?.url ?? '';
    const relayedBefore = await Promise.all(cluster.processes.map((p) => metric(p.url, 'sunward_command_replies_total{route="relayed"}')));
    for (let i = 0; i < 9; i++) {
      const boot = await api<{ status: string }>(a, 'POST', `/api/v1/inverter/${inverter}/boot`, { token, json: {} });
      expect(boot.code).toBe(0);
      expect(boot.data.status).toBe('ok');
    }
    const relayed = await Promise.all(cluster.processes.map((p) => metric(p.url, 'sunward_command_replies_total{route="relayed"}')));
    // Of nine replies shared among three processes, some landed on B or C and were handed to A.
    expect(relayed.reduce((n, r, i) => n + r - (relayedBefore[i] ?? 0), 0)).toBeGreaterThan(0);
    const statuses = await queryRows<{ status: string; n: number }>(
      database.db,
      sql`select status, count(*)::int as n from device_commands where device_sn = ${inverter} and op = 'boot' group by status`,
    );
    expect(statuses).toEqual([{ status: 'ok', n: 9 }]);
  }, 120_000);

  it('a batch upgrade of 100 inverters runs each item exactly once across the processes', async () => {
    const upgradeFleet = await provisionLoadFleet(database.db, {
      gateways: 10,
      devicesPerGateway: 10,
      protocolId: PROTOCOL,
      intervalSeconds: 60,
      mqttUrl: MOSQUITTO_URL,
      seed: 11,
      prefix: `${run}U`,
    });
    const sns = upgradeFleet.gateways.flatMap((g) => g.devices.map((d) => d.sn));
    const a = cluster.processes[0]?.url ?? '';
    const { data: key } = await api<{ publicKey: string }>(a, 'GET', '/api/v1/firmware/publicKey', { token });
    const fleetFile = join(cluster.dataDir, 'upgrade-fleet.json');
    const keyFile = join(cluster.dataDir, 'firmware-key.pem');
    writeFileSync(fleetFile, JSON.stringify(upgradeFleet));
    writeFileSync(keyFile, key.publicKey);
    const simulator = startSimulator([
      '--fleet',
      fleetFile,
      '--url',
      MOSQUITTO_URL,
      '--interval',
      '60',
      '--fault-rate',
      '0',
      '--upgrade-step-ms',
      '100',
      '--firmware-key',
      keyFile,
    ]);
    try {
      await until('the 100 inverters online', 120_000, async () => {
        const online = await count(database.db, sql`select count(*) as n from devices where sn in ${sns} and status <> 2`);
        return online === sns.length;
      });
      const image = randomBytes(32 * 1024);
      const version = `9.${Date.now().toString(36)}`;
      const form = new FormData();
      const fields: Record<string, string> = {
        name: `CLUSTER-${version}`,
        manufacturer: 'Sunward',
        product: 'SW-INV',
        swVersion: version,
        type: 'inverter',
        mode: 'remote',
        fileName: `cluster_${version}.bin`,
        md5: createHash('md5').update(image).digest('hex'),
      };
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', new Blob([image]), fields.fileName);
      // Uploaded through one process, enabled through another, the task created through the third.
      const uploaded = (await (
        await fetch(`${a}/api/v1/firmware`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
      ).json()) as { code: number; data: { id: number } };
      expect(uploaded.code).toBe(0);
      const b = cluster.processes[1]?.url ?? '';
      const c = cluster.processes[2]?.url ?? '';
      expect((await api(b, 'POST', `/api/v1/firmware/${uploaded.data.id}/enable`, { token, json: { enabled: true } })).code).toBe(0);
      const created = await api<{ id: number }>(c, 'POST', '/api/v1/tasks', {
        token,
        json: { name: `Cluster ${version}`, firmId: uploaded.data.id, sns, password: ADMIN.password },
      });
      expect(created.code).toBe(0);
      const taskId = created.data.id;
      const done = await until('the task done', 240_000, async () => {
        const rows = await queryRows<{ status: string }>(database.db, sql`select status from batch_tasks where id = ${taskId}`);
        return rows[0]?.status === 'done' ? rows[0] : undefined;
      });
      expect(done.status).toBe('done');
      const items = await queryRows<{ status: string; n: number }>(
        database.db,
        sql`select status, count(*)::int as n from batch_task_items where task_id = ${taskId} group by status`,
      );
      expect(items).toEqual([{ status: 'successful', n: 100 }]);
      // Exactly once: one upgrade command per inverter, each item holding its own.
      const perDevice = await queryRows<{ sn: string; n: number }>(
        database.db,
        sql`select device_sn as sn, count(*)::int as n from device_commands where op = 'upgrade' and device_sn in ${sns} group by device_sn`,
      );
      expect(perDevice).toHaveLength(100);
      expect(perDevice.every((row) => row.n === 1)).toBe(true);
      expect(await count(database.db, sql`select count(distinct command_id) as n from batch_task_items where task_id = ${taskId}`)).toBe(
        100,
      );
      // The scheduler ran on more than one process (each due time claimed by one of them).
      const owners = await count(database.db, sql`select count(distinct owner) as n from job_runs where job = 'batch_tasks'`);
      expect(owners).toBeGreaterThan(1);
    } finally {
      await simulator.stop();
    }
  }, 360_000);

  it('energy counted across the processes is each device’s counter rise, once, whatever process stores each report', async () => {
    // 60 reports a gateway, a minute apart (the last an hour ago), each inverter's counter 500 Wh higher each time,
    // in waves of 6 reports: the share group spreads each gateway's reports over the three processes, and each
    // process stores some of a device's readings, then more after another process stored later ones.
    const reports = 60;
    const wave = 6;
    const stepWh = 500;
    const start = Date.now() - (reports + 60) * 60_000;
    const devices = energyFleet.gateways.flatMap((g) => g.devices.map((d) => d.sn));
    for (let first = 0; first < reports; first += wave) {
      const sends: Promise<unknown>[] = [];
      for (let n = first; n < first + wave; n++) {
        const blocks = blocksOf({ WH: 1_000_000 + n * stepWh });
        for (const [i, g] of energyFleet.gateways.entries()) {
          const payload = report(
            n + 1,
            start + n * 60_000,
            g.devices.map((d) => d.sn),
            blocks,
          );
          sends.push(gateways[20 + i]?.publishAsync(gatewayTopic(g.sn, 'report'), payload, { qos: 1 }) ?? Promise.resolve());
        }
      }
      await Promise.all(sends);
      await until(`reports ${first + 1}–${first + wave} stored`, 60_000, async () => {
        const stored = await count(
          database.db,
          sql`select count(*) as n from readings r join devices d on d.id = r.device_id where d.sn in ${devices}`,
        );
        return stored === devices.length * (first + wave);
      });
    }
    const days = await queryRows<{ sn: string; energy: number | string }>(
      database.db,
      sql`select d.sn, coalesce(sum(e.energy_wh), 0) as energy from devices d left join device_energy_daily e on e.device_id = d.id
          where d.sn in ${devices} group by d.sn`,
    );
    expect(days).toHaveLength(devices.length);
    for (const day of days) expect({ sn: day.sn, energy: Number(day.energy) }).toEqual({ sn: day.sn, energy: (reports - 1) * stepWh });
  });

  it('kill -9 of one process during ingest at 5,000 readings/s loses nothing, duplicates nothing, and its share and jobs move to the others', async () => {
    const readingsBefore = await count(database.db, sql`select count(*) as n from readings`);
    const victim = cluster.processes[2];
    if (!victim?.child.pid) throw new Error('no third process');
    const victimPid = victim.child.pid;
    // 20 gateways × 25 inverters, 10 reports a second each: 5,000 readings a second, for 12 s, the kill after 4 s.
    const RATE = 200;
    const SECONDS = 12;
    let readings = 0;
    const acks: Promise<unknown>[] = [];
    const started = Date.now();
    let killedAt = 0;
    for (let n = 0; n < RATE * SECONDS; n++) {
      const published = publishReport(n % fleet.gateways.length);
      readings += published.readings;
      acks.push(published.done);
      if (!killedAt && Date.now() - started > 4000) {
        await cluster.kill(victim);
        killedAt = Date.now();
      }
      const wait = started + ((n + 1) * 1000) / RATE - Date.now();
      if (wait > 0) await delay(wait);
    }
    const offeredPerSecond = readings / ((Date.now() - started) / 1000);
    await Promise.all(acks);
    expect(offeredPerSecond).toBeGreaterThan(4500);
    // Everything the broker accepted is stored: by the live processes, and what it kept for the dead one by the
    // process that adopted its sessions.
    const expected = readingsBefore + readings;
    await until(
      'every reading stored',
      180_000,
      async () => (await count(database.db, sql`select count(*) as n from readings`)) >= expected,
    );
    await delay(2000);
    const stored = await count(database.db, sql`select count(*) as n from readings`);
    const distinct = await count(database.db, sql`select count(*) as n from (select distinct device_id, ts from readings) d`);
    expect(stored).toBe(expected);
    expect(distinct).toBe(stored);
    // Its sessions were adopted and ended: none of them is left in the registry.
    const victimSessions = await count(
      database.db,
      sql`select count(*) as n from mqtt_consumer_sessions where client_id like ${`sunward-${run}-s3-%`}`,
    );
    expect(victimSessions).toBe(0);
    // Its cluster jobs: no lease of its own is left, and the batch scheduler (every second) ran since on the others.
    await until('the dead process holds no job', 60_000, async () => {
      const held = await count(
        database.db,
        sql`select count(*) as n from background_jobs where owner like ${`%:${victimPid}:%`} and lease_until > now()`,
      );
      return held === 0;
    });
    await until('the batch scheduler run by a live process since the kill', 60_000, async () => {
      const since = await count(
        database.db,
        sql`select count(*) as n from job_runs where job = 'batch_tasks' and started_at > to_timestamp(${killedAt / 1000}) and owner not like ${`%:${victimPid}:%`}`,
      );
      return since > 0;
    });
  }, 360_000);
});

/** One figure from a process's /metrics (loopback needs no token). */
async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const [key, value] = line.split(' ');
    if (key === name || (key?.startsWith(`${name}{`) && !name.includes('{'))) total += Number(value);
  }
  return total;
}
