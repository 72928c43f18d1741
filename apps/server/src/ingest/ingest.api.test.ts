import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { and, eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceEnergyDaily, deviceEvents, deviceRealtime, devices, gateways, readings } from '../db/schema.js';
import { provisionDemoFleet } from '../features/fleet/demo-fleet.js';
import { call, signIn } from '../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../test/harness.js';

let server: TestServer;
let fleet: SimulatedFleet;
let url: string;
const clients: MqttClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  url = `mqtt://127.0.0.1:${server.telemetry.mqttPort}`;
  fleet = await provisionDemoFleet(server.database.db, { seed: 7, mqttUrl: url, intervalSeconds: 60 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await server?.close();
});

function gateway(index = 0) {
  const g = fleet.gateways[index];
  if (!g) throw new Error('no gateway');
  return g;
}

/** Connects as a gateway and resolves on CONNACK, or rejects with the broker's refusal. */
function connect(sn: string, key: string): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(url, { clientId: sn, username: sn, password: key, reconnectPeriod: 0, clean: false, connectTimeout: 5000 });
    clients.push(client);
    client.once('connect', () => resolve(client));
    client.once('error', (error) => reject(error));
  });
}

function inverterReport(sn: string, protocolId: string, ts: number, seq: number, values: Record<string, number>) {
  const protocol = protocolById(protocolId);
  if (!protocol) throw new Error(`no protocol ${protocolId}`);
  const blocks = encodeValues(protocol, values).map((b) => ({
    fc: b.functionCode as 3 | 4,
    addr: b.address,
    hex: registersToHex(b.registers),
  }));
  return JSON.stringify({ v: 1, seq, ts, devices: [{ sn, proto: protocolId, blocks }] });
}

async function deviceId(sn: string): Promise<number> {
  const [row] = await server.database.db.select({ id: devices.id }).from(devices).where(eq(devices.sn, sn));
  if (!row) throw new Error(`no device ${sn}`);
  return row.id;
}

describe('gateway authentication and topics', () => {
  it('refuses a wrong key and an unknown SN at connect', async () => {
    await expect(connect(gateway().sn, 'wrong-key')).rejects.toThrow(/Bad username or password|Not authorized/i);
    await expect(connect('GWUNKNOWN01', 'whatever')).rejects.toThrow(/Bad username or password|Not authorized/i);
  });

  it('delivers nothing for subscriptions to another gateway or to wildcards', async () => {
    const client = await connect(gateway(1).sn, gateway(1).key);
    // mqtt.js rejects a SUBACK holding a failure code; the packet still lists what was granted.
    const suback = await client
      .subscribeAsync([gatewayTopic(gateway(2).sn, 'cmd'), 'sunward/v1/gw/#', gatewayTopic(gateway(1).sn, 'cmd')], { qos: 1 })
      .then(
        () => undefined,
        (error: { packet?: { granted?: number[] } }) => error.packet?.granted,
      );
    expect(suback).toEqual([128, 128, 1]);
  });

  it('closes the connection of a gateway publishing on another gateway’s topic, storing nothing', async () => {
    const client = await connect(gateway(3).sn, gateway(3).key);
    const other = gateway(4);
    const target = other.devices[0];
    if (!target) throw new Error('no device');
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(gatewayTopic(other.sn, 'report'), inverterReport(target.sn, target.protocolId, Date.now(), 1, { W: 1000, WH: 5000 }), {
      qos: 1,
    });
    await closed;
    const rows = await server.database.db
      .select()
      .from(readings)
      .where(eq(readings.deviceId, await deviceId(target.sn)));
    expect(rows).toHaveLength(0);
  });
});

describe('reports', () => {
  it('acknowledges a report only once it is stored: readable at PUBACK, with realtime and daily rollups', async () => {
    const g = gateway(0);
    const device = g.devices[0];
    if (!device) throw new Error('no device');
    const client = await connect(g.sn, g.key);
    const ts = Date.now() - 60_000;
    await client.publishAsync(
      gatewayTopic(g.sn, 'report'),
      inverterReport(device.sn, device.protocolId, ts, 1, { W: 4200, WH: 1_000_000, St: 4 }),
      { qos: 1 },
    );
    const id = await deviceId(device.sn);
    const stored = await server.database.db.select().from(readings).where(eq(readings.deviceId, id));
    expect(stored).toHaveLength(1);
    const [realtime] = await server.database.db.select().from(deviceRealtime).where(eq(deviceRealtime.deviceId, id));
    expect(realtime).toMatchObject({ powerW: 4200, energyTotalWh: 1_000_000 });
    await client.publishAsync(
      gatewayTopic(g.sn, 'report'),
      inverterReport(device.sn, device.protocolId, ts + 30_000, 2, { W: 4300, WH: 1_000_500, St: 4 }),
      { qos: 1 },
    );
    const daily = await server.database.db.select().from(deviceEnergyDaily).where(eq(deviceEnergyDaily.deviceId, id));
    expect(daily).toHaveLength(1);
    expect(daily[0]).toMatchObject({ firstWh: 1_000_000, lastWh: 1_000_500, energyWh: 500, dropWh: 0, peakW: 4300 });
    const [status] = await server.database.db.select({ status: devices.status }).from(devices).where(eq(devices.id, id));
    expect(status?.status).toBe(1);
  });

  it('stores a redelivered report once', async () => {
    const g = gateway(5);
    const device = g.devices[0];
    if (!device) throw new Error('no device');
    const client = await connect(g.sn, g.key);
    const payload = inverterReport(device.sn, device.protocolId, Date.now() - 5000, 1, { W: 100, WH: 2000 });
    await client.publishAsync(gatewayTopic(g.sn, 'report'), payload, { qos: 1 });
    await client.publishAsync(gatewayTopic(g.sn, 'report'), payload, { qos: 1, dup: true });
    const rows = await server.database.db
      .select()
      .from(readings)
      .where(eq(readings.deviceId, await deviceId(device.sn)));
    expect(rows).toHaveLength(1);
  });

  it('counts gaps in the sequence and keeps the realtime snapshot at the newest reading during a replay', async () => {
    const g = gateway(6);
    const device = g.devices[0];
    if (!device) throw new Error('no device');
    const client = await connect(g.sn, g.key);
    const now = Date.now();
    await client.publishAsync(
      gatewayTopic(g.sn, 'report'),
      inverterReport(device.sn, device.protocolId, now - 1000, 10, { W: 900, WH: 9000 }),
      { qos: 1 },
    );
    // A replay of older readings arriving after the newest one.
    await client.publishAsync(
      gatewayTopic(g.sn, 'report'),
      inverterReport(device.sn, device.protocolId, now - 5000, 14, { W: 500, WH: 8500 }),
      { qos: 1 },
    );
    const [gw] = await server.database.db
      .select({ gapCount: gateways.gapCount, lastSeq: gateways.lastSeq })
      .from(gateways)
      .where(eq(gateways.sn, g.sn));
    expect(gw).toMatchObject({ gapCount: 3, lastSeq: 14 });
    const [realtime] = await server.database.db
      .select()
      .from(deviceRealtime)
      .where(eq(deviceRealtime.deviceId, await deviceId(device.sn)));
    expect(realtime?.powerW).toBe(900);
  });

  it('refuses malformed payloads, unknown devices and far timestamps with a counted reason, and keeps running', async () => {
    const g = gateway(7);
    const device = g.devices[0];
    if (!device) throw new Error('no device');
    const client = await connect(g.sn, g.key);
    const before = { ...server.telemetry.pipeline.stats.rejected };
    await client.publishAsync(gatewayTopic(g.sn, 'report'), '{not json', { qos: 1 });
    await client.publishAsync(gatewayTopic(g.sn, 'report'), JSON.stringify({ v: 1, seq: 1, ts: Date.now(), devices: [] }), { qos: 1 });
    // A device nobody registered, with a register map the server does not know, cannot be discovered.
    const unknownDevice = { sn: 'NOSUCHDEVICE1', proto: 'no-such-map', blocks: [{ fc: 3, addr: 40000, hex: '0000' }] };
    await client.publishAsync(gatewayTopic(g.sn, 'report'), JSON.stringify({ v: 1, seq: 2, ts: Date.now(), devices: [unknownDevice] }), {
      qos: 1,
    });
    await client.publishAsync(
      gatewayTopic(g.sn, 'report'),
      inverterReport(device.sn, device.protocolId, Date.now() + 3_600_000, 3, { W: 1 }),
      { qos: 1 },
    );
    await client.publishAsync(
      gatewayTopic(g.sn, 'report'),
      inverterReport(device.sn, device.protocolId, Date.now() - 90 * 86_400_000, 4, { W: 1 }),
      { qos: 1 },
    );
    await client.publishAsync(
      gatewayTopic(g.sn, 'report'),
      JSON.stringify({
        v: 1,
        seq: 5,
        ts: Date.now(),
        devices: [{ sn: device.sn, proto: device.protocolId, blocks: [{ fc: 3, addr: 40000, hex: 'zz' }] }],
      }),
      { qos: 1 },
    );
    const after = server.telemetry.pipeline.stats.rejected;
    const grew = (reason: keyof typeof after) => (after[reason] ?? 0) - (before[reason] ?? 0);
    expect(grew('malformed_json')).toBe(1);
    expect(grew('malformed_payload')).toBe(2);
    expect(grew('unknown_device')).toBe(1);
    expect(grew('timestamp_in_future')).toBe(1);
    expect(grew('timestamp_too_old')).toBe(1);
    const rows = await server.database.db
      .select()
      .from(readings)
      .where(eq(readings.deviceId, await deviceId(device.sn)));
    expect(rows).toHaveLength(0);
    expect(client.connected).toBe(true);
  });

  it('opens an event and sets Fault when a fault bit is set, and clears both when it is gone', async () => {
    const g = gateway(8);
    const device = g.devices.find((d) => d.family === 'inverter');
    if (!device) throw new Error('no inverter');
    const protocol = protocolById(device.protocolId);
    const definition = protocol?.events.find((e) => e.level === 'fault');
    if (!protocol || !definition) throw new Error('no fault event in map');
    const client = await connect(g.sn, g.key);
    const id = await deviceId(device.sn);
    const now = Date.now();
    await client.publishAsync(
      gatewayTopic(g.sn, 'report'),
      inverterReport(device.sn, device.protocolId, now - 2000, 1, { W: 0, WH: 100, [definition.point]: 2 ** definition.bit }),
      { qos: 1 },
    );
    const open = await server.database.db
      .select()
      .from(deviceEvents)
      .where(and(eq(deviceEvents.deviceId, id), eq(deviceEvents.code, definition.code)));
    expect(open).toHaveLength(1);
    expect(open[0]?.clearedAt).toBeNull();
    expect((await server.database.db.select({ s: devices.status }).from(devices).where(eq(devices.id, id)))[0]?.s).toBe(4);
    await client.publishAsync(
      gatewayTopic(g.sn, 'report'),
      inverterReport(device.sn, device.protocolId, now - 1000, 2, { W: 10, WH: 101, [definition.point]: 0 }),
      { qos: 1 },
    );
    const cleared = await server.database.db
      .select()
      .from(deviceEvents)
      .where(and(eq(deviceEvents.deviceId, id), eq(deviceEvents.code, definition.code)));
    expect(cleared[0]?.clearedAt).not.toBeNull();
    expect((await server.database.db.select({ s: devices.status }).from(devices).where(eq(devices.id, id)))[0]?.s).toBe(1);
  });
});

describe('energy rollups', () => {
  it('counts each plant-local day from the cumulative counter, through a reset, and sums the plant', async () => {
    const g = gateway(12);
    const inverters = g.devices.filter((d) => d.family === 'inverter');
    const device = inverters[0];
    if (!device) throw new Error('no inverter');
    const client = await connect(g.sn, g.key);
    const tz = g.plant.timezone;
    // Three readings on each of two days (10:00, 12:00, 14:00 plant-local, roughly: the offset is taken from the zone).
    const dayStart = (daysAgo: number) => {
      const local = new Date(Date.now() - daysAgo * 86_400_000);
      const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(local);
      const offset =
        new Date(local.toLocaleString('en-US', { timeZone: tz })).getTime() -
        new Date(local.toLocaleString('en-US', { timeZone: 'UTC' })).getTime();
      return { day: parts, at: (hour: number) => Date.parse(`${parts}T${String(hour).padStart(2, '0')}:00:00Z`) - offset };
    };
    const d2 = dayStart(2);
    const d1 = dayStart(1);
    let seq = 1;
    const send = (ts: number, wh: number) =>
      client.publishAsync(gatewayTopic(g.sn, 'report'), inverterReport(device.sn, device.protocolId, ts, seq++, { W: 1000, WH: wh }), {
        qos: 1,
      });
    await send(d2.at(10), 50_000);
    await send(d2.at(12), 54_000);
    await send(d2.at(14), 58_000);
    // Day 1 arrives out of order, and the counter was reset in between (device replaced its board).
    await send(d1.at(14), 3_000);
    await send(d1.at(10), 1_000);
    await send(d1.at(12), 2_000);
    await server.telemetry.pipeline.drain();
    const id = await deviceId(device.sn);
    const daily = await server.telemetry.queries.deviceDailyEnergy(id, d2.day, d1.day);
    expect(daily).toEqual([
      { day: d2.day, energyWh: 8_000 },
      { day: d1.day, energyWh: 2_000 },
    ]);
    const [plant] = await server.database.db.select({ plantId: devices.plantId }).from(devices).where(eq(devices.id, id));
    const plantDaily = await server.telemetry.queries.plantDailyEnergy(plant?.plantId ?? -1, d2.day, d1.day);
    expect(plantDaily.map((d) => d.energyWh)).toEqual([8_000, 2_000]);
    const months = await server.telemetry.queries.plantMonthlyEnergy(plant?.plantId ?? -1, Number(d1.day.slice(0, 4)));
    expect(months.reduce((sum, m) => sum + m.energyWh, 0)).toBeGreaterThanOrEqual(2_000);
  });
});

describe('live push', () => {
  it('pushes a device’s status and power to a signed-in console within 2 s of the report', async () => {
    const { access_token } = await signIn(server.app, ADMIN.account, ADMIN.password);
    const controller = new AbortController();
    const response = await fetch(`${server.url}/api/v1/live`, {
      headers: { authorization: `Bearer ${access_token}` },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const g = gateway(9);
    const device = g.devices[0];
    if (!device) throw new Error('no device');
    const id = await deviceId(device.sn);
    const client = await connect(g.sn, g.key);
    const started = Date.now();
    await client.publishAsync(
      gatewayTopic(g.sn, 'report'),
      inverterReport(device.sn, device.protocolId, Date.now(), 1, { W: 3210, WH: 7777 }),
      { qos: 1 },
    );
    let text = '';
    const decoder = new TextDecoder();
    while (!text.includes(`"deviceId":${id}`)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    controller.abort();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(text).toContain('"powerW":3210');
  });

  it('refuses the live stream without a token', async () => {
    const result = await call(server.app, 'GET', '/api/v1/live');
    expect(result.status).toBe(401);
  });
});
