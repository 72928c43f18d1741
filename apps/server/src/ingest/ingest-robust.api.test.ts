import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { sampleValues } from '@sunward/protocol/sample-values';
import { count, eq, inArray } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, readings } from '../db/schema.js';
import { createDevicesRepository } from '../features/devices/devices.repository.js';
import { call, signIn } from '../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../test/harness.js';

// Over the real broker: no report can stop the server or fail other gateways' reports (15.1), a deleted
// device stops being stored without failing anyone else's batch (15.3), and a new gateway's first burst
// of reports is stored whole while its devices are being registered (16.3).

let server: TestServer;
const clients: MqttClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await server?.close();
});

/** Registers a gateway and connects it (QoS 1 publishes resolve at PUBACK: stored or refused). */
async function gateway(sn: string, companyId?: number): Promise<MqttClient> {
  const key = `${sn.toLowerCase()}-key`;
  await server.registerGateway(sn, key, companyId);
  const client = await new Promise<MqttClient>((resolve, reject) => {
    const c = mqtt.connect(`mqtt://127.0.0.1:${server.telemetry.mqttPort}`, {
      clientId: sn,
      username: sn,
      password: key,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    c.once('connect', () => resolve(c));
    c.once('error', reject);
  });
  clients.push(client);
  return client;
}

function device(sn: string, proto: string, values: Record<string, number> = {}) {
  const protocol = protocolById(proto);
  if (!protocol) throw new Error(`no map ${proto}`);
  const blocks = encodeValues(protocol, { ...sampleValues(protocol), ...values }).map((b) => ({
    fc: b.functionCode,
    addr: b.address,
    hex: registersToHex(b.registers),
  }));
  return { sn, proto, blocks };
}

/** The device's reading with one register replaced (by its address). */
function withRegister(reading: ReturnType<typeof device>, address: number, value: number) {
  return {
    ...reading,
    blocks: reading.blocks.map((b) => {
      const offset = address - b.addr;
      if (offset < 0 || offset * 4 >= b.hex.length) return b;
      const word = value.toString(16).padStart(4, '0');
      return { ...b, hex: b.hex.slice(0, offset * 4) + word + b.hex.slice(offset * 4 + 4) };
    }),
  };
}

const report = (seq: number, ts: number, list: unknown[]) => JSON.stringify({ v: 1, seq, ts, devices: list });

function publish(client: MqttClient, sn: string, payload: string) {
  return client.publishAsync(gatewayTopic(sn, 'report'), payload, { qos: 1 });
}

async function storedFor(sns: readonly string[]): Promise<number> {
  const ids = (
    await server.database.db
      .select({ id: devices.id })
      .from(devices)
      .where(inArray(devices.sn, [...sns]))
  ).map((d) => d.id);
  if (ids.length === 0) return 0;
  const [row] = await server.database.db.select({ n: count() }).from(readings).where(inArray(readings.deviceId, ids));
  return Number(row?.n ?? 0);
}

async function deviceId(sn: string): Promise<number | undefined> {
  const [row] = await server.database.db.select({ id: devices.id }).from(devices).where(eq(devices.sn, sn));
  return row?.id;
}

describe('poisoned reports (15.1)', () => {
  it('refuses reports with impossible times, numbers and strings, keeps answering, and stores a good report sent with them', async () => {
    const bad = await gateway('GWPOISON01');
    const good = await gateway('GWGOOD0001');
    const now = Date.now();
    // Known devices first, so the poisoned reports reach the decoder and the batch.
    await publish(bad, 'GWPOISON01', report(1, now - 60_000, [device('PSINV00001', 'sunspec-inverter-3p')]));
    await publish(good, 'GWGOOD0001', report(1, now - 60_000, [device('GDINV00001', 'sunspec-inverter-3p')]));
    const before = { ...server.telemetry.pipeline.stats.rejected };
    const inverter = device('PSINV00001', 'sunspec-inverter-3p');
    const poisoned = [
      report(2, 8_700_000_000_000_000, [inverter]),
      report(3, Number.MAX_SAFE_INTEGER, [inverter]),
      report(4, 946_684_799_999, [inverter]),
      // The lifetime counter (WH, 40094) above 16 million with its scale factor (WH_SF, 40096) at 10^10.
      report(5, now, [withRegister(withRegister(inverter, 40_096, 10), 40_094, 0x0100)]),
      report(6, now, [{ ...inverter, values: { W: 1e300 } }]).replace('"W":1e+300', '"W":1e999'),
      report(7, now, [{ ...inverter, sn: 'PSINV\u000000001' }]),
      report(8, now, [{ ...inverter, proto: 'x'.repeat(100_000) }]),
      report(9, now, [{ ...inverter, blocks: [{ fc: 3, addr: 40_000, hex: 'FFF' }] }]),
      report(10, now, [{ ...inverter, blocks: 'blocks' }]),
      '{"v":1,"seq":11,"ts":"soon","devices":[]}',
      '\u0000\u0000\u0000',
    ];
    // All in one batch window with the good gateway's report.
    await Promise.all([
      ...poisoned.map((p) => publish(bad, 'GWPOISON01', p)),
      publish(good, 'GWGOOD0001', report(2, now - 1000, [device('GDINV00001', 'sunspec-inverter-3p')])),
    ]);
    expect(await storedFor(['GDINV00001'])).toBe(2);
    expect(await storedFor(['PSINV00001'])).toBe(1);
    const after = server.telemetry.pipeline.stats.rejected;
    const grew = (reason: keyof typeof after) => (after[reason] ?? 0) - (before[reason] ?? 0);
    expect(grew('timestamp_in_future')).toBe(2);
    expect(grew('timestamp_too_old')).toBe(1);
    expect(grew('value_out_of_range')).toBe(1);
    expect(grew('malformed_payload') + grew('malformed_json')).toBe(7);
    // The server still answers over HTTP and MQTT.
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    await publish(bad, 'GWPOISON01', report(12, now + 1000, [device('PSINV00001', 'sunspec-inverter-3p')]));
    expect(await storedFor(['PSINV00001'])).toBe(2);
    expect(bad.connected && good.connected).toBe(true);
  });
});

describe('deleting a device its gateway still reports (15.3)', () => {
  it('stops storing it at once and refuses it per reading; the gateway’s other device and another company’s reports are stored', async () => {
    const companyA = await server.createCompany('Delete A');
    const companyB = await server.createCompany('Delete B');
    const a = await gateway('GWDELA0001', companyA);
    const b = await gateway('GWDELB0001', companyB);
    const t0 = Date.now() - 120_000;
    const reportA = (seq: number, ts: number) =>
      report(seq, ts, [device('DLMTR00001', 'sunspec-meter-3p'), device('DLINV00001', 'sunspec-inverter-3p')]);
    const reportB = (seq: number, ts: number) => report(seq, ts, [device('DLINV00002', 'sunspec-inverter-3p')]);
    await Promise.all([publish(a, 'GWDELA0001', reportA(1, t0)), publish(b, 'GWDELB0001', reportB(1, t0))]);
    expect(await storedFor(['DLMTR00001', 'DLINV00001', 'DLINV00002'])).toBe(3);
    const meterId = await deviceId('DLMTR00001');
    const { access_token } = await signIn(server.app, ADMIN.account, ADMIN.password);
    const deleted = await call<{ deleted: string[] }>(server.app, 'POST', `/api/v1/meter/${meterId}/delete`, {
      token: access_token,
      json: {},
    });
    expect(deleted.body.data.deleted).toEqual(['DLMTR00001']);
    const before = server.telemetry.pipeline.stats.rejected.deleted_device ?? 0;
    // The gateway keeps reporting the meter, in the same batch windows as the other company's gateway.
    for (let i = 2; i <= 4; i++)
      await Promise.all([publish(a, 'GWDELA0001', reportA(i, t0 + i * 1000)), publish(b, 'GWDELB0001', reportB(i, t0 + i * 1000))]);
    expect(await storedFor(['DLINV00001'])).toBe(4);
    expect(await storedFor(['DLINV00002'])).toBe(4);
    expect((server.telemetry.pipeline.stats.rejected.deleted_device ?? 0) - before).toBe(3);
    // Deleted stays deleted: not discovered again.
    expect(await deviceId('DLMTR00001')).toBeUndefined();
    expect(a.connected && b.connected).toBe(true);
  });
});

describe('a delete the pipeline has not heard of (another server process, 15.3)', () => {
  it('fails no batch on the foreign key: the deleted device’s readings are refused, the rest stored', async () => {
    const a = await gateway('GWRACE0001');
    const b = await gateway('GWRACE0002');
    const t0 = Date.now() - 100_000;
    const reportA = (seq: number) =>
      report(seq, t0 + seq * 1000, [device('RCMTR00001', 'sunspec-meter-3p'), device('RCINV00001', 'sunspec-inverter-3p')]);
    const reportB = (seq: number) => report(seq, t0 + seq * 1000, [device('RCINV00002', 'sunspec-inverter-3p')]);
    await Promise.all([publish(a, 'GWRACE0001', reportA(1)), publish(b, 'GWRACE0002', reportB(1))]);
    // Deleted in the database only: this pipeline's cache still holds the meter, as when the delete
    // commits between decoding a report and writing its batch.
    const meterId = await deviceId('RCMTR00001');
    if (meterId === undefined) throw new Error('meter not discovered');
    await createDevicesRepository(server.database.db).remove([meterId]);
    const before = server.telemetry.pipeline.stats.rejected.deleted_device ?? 0;
    await Promise.all([publish(a, 'GWRACE0001', reportA(2)), publish(b, 'GWRACE0002', reportB(2))]);
    expect(await storedFor(['RCINV00001'])).toBe(2);
    expect(await storedFor(['RCINV00002'])).toBe(2);
    expect((server.telemetry.pipeline.stats.rejected.deleted_device ?? 0) - before).toBe(1);
    await publish(a, 'GWRACE0001', reportA(3));
    expect(await deviceId('RCMTR00001')).toBeUndefined();
    expect(await storedFor(['RCINV00001'])).toBe(3);
  });
});

describe('a new gateway’s first reports (16.3)', () => {
  it('stores all 1,000 readings of 100 reports for 10 new devices sent at once, registering each device once', async () => {
    const client = await gateway('GWBURST001');
    const protos = ['sunspec-inverter-3p', 'sunspec-meter-3p', 'sunspec-hybrid-lv', 'sunspec-battery-bms', 'sunspec-inverter-1p'];
    const sns = Array.from({ length: 10 }, (_, i) => `BURST${String(i).padStart(5, '0')}`);
    const list = sns.map((sn, i) => device(sn, protos[i % protos.length] ?? 'sunspec-inverter-3p'));
    const t0 = Date.now() - 200_000;
    const before = { ...server.telemetry.pipeline.stats.rejected };
    await Promise.all(Array.from({ length: 100 }, (_, i) => publish(client, 'GWBURST001', report(i + 1, t0 + i * 1000, list))));
    // Every PUBACK came after its report was stored: nothing acknowledged and lost.
    expect(await storedFor(sns)).toBe(1000);
    expect(server.telemetry.pipeline.stats.rejected).toEqual(before);
    const [registered] = await server.database.db.select({ n: count() }).from(devices).where(inArray(devices.sn, sns));
    expect(Number(registered?.n)).toBe(10);
  });
});

describe('a packet larger than any report', () => {
  it('closes the connection at its header, before sign-in, and the broker keeps serving gateways', async () => {
    const { connect } = await import('node:net');
    const socket = connect(server.telemetry.mqttPort ?? 0, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    // A CONNECT that announces 200 MB (remaining length 0xff 0xff 0xff 0x5f); only 1 MB of it follows.
    socket.write(Buffer.from([0x10, 0xff, 0xff, 0xff, 0x5f]));
    socket.write(Buffer.alloc(1024 * 1024));
    await closed;
    const client = await gateway('GWBIG0001');
    expect(client.connected).toBe(true);
  });
});
