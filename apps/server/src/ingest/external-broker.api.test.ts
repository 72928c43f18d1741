import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gatewayRefusedTopic, gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { count, eq, inArray } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/client.js';
import { devices, gateways, readings } from '../db/schema.js';
import { createScratchDatabase } from '../db/scratch-database.js';
import { provisionDemoFleet } from '../features/fleet/demo-fleet.js';
import { startServerProcess } from '../test/cluster-harness.js';
import { reportOf } from '../test/fleet.js';
import { TEST_POSTGRES_URL } from '../test/harness.js';
import { hashGatewayKey } from './gateway-auth.js';

// The external-broker path: the machine's Mosquitto at 127.0.0.1:1883 and its PostgreSQL. Runs in the
// api-postgres project (npm test says when that project is skipped).
const MOSQUITTO_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const run = `${process.pid}${Date.now() % 100000}`;
let databaseUrl = '';
let dropDatabase: () => Promise<void> = async () => undefined;
let database: DatabaseHandle;
let fleet: SimulatedFleet;
const publishers: MqttClient[] = [];

function startServer(consumerId: string) {
  return startServerProcess({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'sunward-ext-')),
    DATABASE_URL: databaseUrl,
    MQTT_URL: MOSQUITTO_URL,
    MQTT_CONSUMER_ID: consumerId,
    MQTT_SHARE_GROUP: `test-${run}`,
    MQTT_SESSION_EXPIRY_S: '300',
    MQTT_CONSUMERS: '4',
    ADMIN_PASSWORD: 'External-Broker-1',
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function storedFor(sn: string): Promise<number> {
  const [device] = await database.db.select({ id: devices.id }).from(devices).where(eq(devices.sn, sn));
  const [row] = await database.db
    .select({ n: count() })
    .from(readings)
    .where(eq(readings.deviceId, device?.id ?? -1));
  return Number(row?.n ?? 0);
}

describe.runIf(process.env.TEST_DATABASE === 'postgres')('external broker (Mosquitto) with persistent sessions', () => {
  beforeAll(async () => {
    const scratch = await createScratchDatabase(TEST_POSTGRES_URL, 'sunward_ext');
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
    database = await openDatabase({ dataDir: tmpdir(), databaseUrl });
    fleet = await provisionDemoFleet(database.db, { seed: Number(run) % 90000, mqttUrl: MOSQUITTO_URL, intervalSeconds: 60 });
  });
  afterAll(async () => {
    await Promise.all(publishers.map((p) => p.endAsync(true)));
    await database?.close();
    await dropDatabase();
  });

  function publisher(sn: string): Promise<MqttClient> {
    return new Promise((resolve, reject) => {
      const client = mqtt.connect(MOSQUITTO_URL, { clientId: sn, clean: false, reconnectPeriod: 500 });
      publishers.push(client);
      client.once('connect', () => resolve(client));
      client.once('error', reject);
    });
  }

  it('stores reports that arrive through the external broker', async () => {
    const server = await startServer(`a${run}`);
    try {
      const gateway = fleet.gateways[0];
      if (!gateway) throw new Error('no gateway');
      const client = await publisher(gateway.sn);
      const now = Date.now();
      for (let i = 1; i <= 20; i++)
        await client.publishAsync(gatewayTopic(gateway.sn, 'report'), reportOf(gateway, i, now - 60_000 + i * 1000), { qos: 1 });
      await waitFor(async () => (await storedFor(gateway.devices[0]?.sn ?? '')) === 20, 15_000);
    } finally {
      await stopServer(server.child);
    }
  }, 60_000);

  it('answers a refused report on the gateway’s report/refused topic through the external broker (issue 25)', async () => {
    const server = await startServer(`r${run}`);
    try {
      const gateway = fleet.gateways[1];
      if (!gateway) throw new Error('no gateway');
      const client = await publisher(gateway.sn);
      await client.subscribeAsync(gatewayRefusedTopic(gateway.sn, 'report'), { qos: 1 });
      const answer = new Promise<Record<string, unknown>>((resolve) =>
        client.on('message', (topic, payload) => {
          if (topic === gatewayRefusedTopic(gateway.sn, 'report')) resolve(JSON.parse(payload.toString('utf8')) as Record<string, unknown>);
        }),
      );
      await client.publishAsync(gatewayTopic(gateway.sn, 'report'), JSON.stringify({ v: 1, seq: 77, ts: Date.now(), devices: [] }), {
        qos: 1,
      });
      expect(await answer).toMatchObject({ v: 1, seq: 77, reason: 'malformed_payload', field: 'devices' });
    } finally {
      await stopServer(server.child);
    }
  }, 60_000);

  it('stores all 1,000 readings of a new gateway’s first 100 reports for 10 new devices, sent at once', async () => {
    const server = await startServer(`d${run}`);
    try {
      const sn = `GWNEW${run}`.slice(0, 32);
      await database.db.insert(gateways).values({ sn, keyHash: hashGatewayKey('unused-here') });
      const client = await publisher(sn);
      const sns = Array.from({ length: 10 }, (_, i) => `NW${run}${i}`.slice(0, 32));
      const protocol = protocolById('sunspec-inverter-3p');
      if (!protocol) throw new Error('no map');
      const t0 = Date.now() - 200_000;
      const payload = (i: number) =>
        JSON.stringify({
          v: 1,
          seq: i + 1,
          ts: t0 + i * 1000,
          devices: sns.map((deviceSn) => ({
            sn: deviceSn,
            proto: protocol.id,
            blocks: encodeValues(protocol, { W: 1000 + i, WH: 100_000 + i * 10 }).map((b) => ({
              fc: b.functionCode,
              addr: b.address,
              hex: registersToHex(b.registers),
            })),
          })),
        });
      await Promise.all(Array.from({ length: 100 }, (_, i) => client.publishAsync(gatewayTopic(sn, 'report'), payload(i), { qos: 1 })));
      const stored = async () => {
        const ids = (await database.db.select({ id: devices.id }).from(devices).where(inArray(devices.sn, sns))).map((d) => d.id);
        if (ids.length === 0) return 0;
        const [row] = await database.db.select({ n: count() }).from(readings).where(inArray(readings.deviceId, ids));
        return Number(row?.n ?? 0);
      };
      await waitFor(async () => (await stored()) >= 1000, 30_000);
      // Acknowledged only once stored: no reading was refused while its device was being registered.
      expect(server.output()).not.toContain('unknown_device');
      expect(await stored()).toBe(1000);
    } finally {
      await stopServer(server.child);
    }
  }, 90_000);

  it('stores every QoS 1 report exactly once across a kill -9 of the server', async () => {
    const consumerId = `k${run}`;
    let server = await startServer(consumerId);
    const gateway = fleet.gateways[1];
    if (!gateway) throw new Error('no gateway');
    const client = await publisher(gateway.sn);
    const total = 400;
    const start = Date.now() - 3_600_000;
    let killed = false;
    for (let i = 1; i <= total; i++) {
      await client.publishAsync(gatewayTopic(gateway.sn, 'report'), reportOf(gateway, i, start + i * 1000), { qos: 1 });
      if (i === 150) {
        server.child.kill('SIGKILL');
        killed = true;
      }
      if (i === 250) server = await startServer(consumerId);
    }
    expect(killed).toBe(true);
    try {
      await waitFor(async () => (await storedFor(gateway.devices[0]?.sn ?? '')) >= total, 30_000).catch(async (error: unknown) => {
        const [device] = await database.db
          .select({ id: devices.id })
          .from(devices)
          .where(eq(devices.sn, gateway.devices[0]?.sn ?? ''));
        const rows = await database.db
          .select({ ts: readings.ts })
          .from(readings)
          .where(eq(readings.deviceId, device?.id ?? -1));
        const seen = new Set(rows.map((r) => Math.round((r.ts.getTime() - start) / 1000)));
        const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !seen.has(i));
        throw new Error(`${String(error)}: ${rows.length} stored, missing seq ${missing.slice(0, 20).join(',')}… (${missing.length})`);
      });
      // Settle: no late duplicate may appear either (the key forbids it; the count proves it).
      await new Promise((r) => setTimeout(r, 500));
      expect(await storedFor(gateway.devices[0]?.sn ?? '')).toBe(total);
    } finally {
      await stopServer(server.child);
    }
  }, 120_000);
});
