import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { sampleValues } from '@sunward/protocol/sample-values';
import { count, inArray } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, readings } from '../db/schema.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { connectTestGateway } from '../test/test-gateway.js';

// Issue 26 part 7: offered far more than ingest's byte budget at once, the server stores every report, acknowledges
// each only once stored, never holds more payload bytes than the budget, and counts no sequence gap.

// 64 KB: about ten reports of 5 hybrid inverters (1.3 KB each) fit; the gateways below offer 25 times that at once.
const BUDGET_MB = 0.0625;
const BUDGET_BYTES = Math.round(BUDGET_MB * 1024 * 1024);
const GATEWAYS = 4;
const REPORTS = 60;
const DEVICES = 5;

let server: TestServer;
const clients: MqttClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ INGEST_PENDING_MB: String(BUDGET_MB) });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await server?.close();
});

async function gateway(sn: string): Promise<MqttClient> {
  const key = `${sn.toLowerCase()}-key`;
  await server.registerGateway(sn, key);
  const { client } = await connectTestGateway(server.telemetry.mqttPort, sn, key);
  clients.push(client);
  return client;
}

const protocol = protocolById('sunspec-hybrid-lv');
if (!protocol) throw new Error('no hybrid map');
const blocks = encodeValues(protocol, sampleValues(protocol)).map((b) => ({
  fc: b.functionCode,
  addr: b.address,
  hex: registersToHex(b.registers),
}));

describe('ingest under more load than its byte budget', () => {
  it('stores everything, holds at most the budget in payload bytes, acknowledges only what is stored, counts no gap', async () => {
    const sns = Array.from({ length: GATEWAYS }, (_, g) => `GWBUDGET${String(g).padStart(2, '0')}`);
    const deviceSns = sns.map((_, g) => Array.from({ length: DEVICES }, (_, d) => `BPINV${g}${String(d).padStart(4, '0')}`));
    const connected = await Promise.all(sns.map((sn) => gateway(sn)));
    const start = Date.now() - 3_600_000;
    const report = (g: number, seq: number) =>
      JSON.stringify({
        v: 1,
        seq,
        ts: start + seq * 1000,
        devices: (deviceSns[g] ?? []).map((sn) => ({ sn, proto: 'sunspec-hybrid-lv', blocks })),
      });
    // The first report of each gateway registers its devices (auto-discovery).
    await Promise.all(connected.map((c, g) => c.publishAsync(gatewayTopic(sns[g] ?? '', 'report'), report(g, 1), { qos: 1 })));
    const pipeline = server.telemetry.pipeline;
    const gapsBefore = pipeline.stats.gaps;
    const offered = (REPORTS - 1) * GATEWAYS * Buffer.byteLength(report(0, 2));
    expect(offered).toBeGreaterThan(20 * BUDGET_BYTES);

    // Every report of every gateway at once; a PUBACK (the publish resolving) must mean stored.
    let mostPending = 0;
    let mostWaiting = 0;
    let mostParked = 0;
    let storedAtAck = true;
    const sampler = setInterval(() => {
      const p = pipeline.pending();
      mostPending = Math.max(mostPending, p.bytes);
      mostWaiting = Math.max(mostWaiting, p.waiting);
      mostParked = Math.max(mostParked, p.parkedSockets);
    }, 1);
    const reportsBefore = pipeline.stats.reportsStored;
    let acked = 0;
    await Promise.all(
      connected.flatMap((c, g) =>
        Array.from({ length: REPORTS - 1 }, (_, i) =>
          c.publishAsync(gatewayTopic(sns[g] ?? '', 'report'), report(g, i + 2), { qos: 1 }).then(() => {
            // Never more reports acknowledged than committed (the counter moves at commit, before the PUBACK).
            acked++;
            if (pipeline.stats.reportsStored - reportsBefore < acked) storedAtAck = false;
          }),
        ),
      ),
    );
    clearInterval(sampler);

    const state = pipeline.pending();
    expect(state.limitBytes).toBe(BUDGET_BYTES);
    // Never more than the budget accepted and uncommitted (the budget's own high-water mark, and sampled).
    expect(state.peakBytes).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(mostPending).toBeLessThanOrEqual(BUDGET_BYTES);
    // The budget did hold reports back, and let them all in once room came.
    expect(mostWaiting).toBeGreaterThan(0);
    // …and the broker stopped reading gateways' sockets meanwhile (read-gate.ts).
    expect(mostParked).toBeGreaterThan(0);
    expect(state.parkedSockets).toBe(0);
    expect(state).toMatchObject({ bytes: 0, waiting: 0, socketBytes: 0 });
    expect(storedAtAck).toBe(true);

    // Nothing lost, nothing twice, no gap counted.
    const ids = (await server.database.db.select({ id: devices.id }).from(devices).where(inArray(devices.sn, deviceSns.flat()))).map(
      (d) => d.id,
    );
    expect(ids).toHaveLength(GATEWAYS * DEVICES);
    const [stored] = await server.database.db.select({ n: count() }).from(readings).where(inArray(readings.deviceId, ids));
    expect(Number(stored?.n)).toBe(GATEWAYS * DEVICES * REPORTS);
    expect(pipeline.stats.gaps - gapsBefore).toBe(0);
    expect(pipeline.stats.rejected).toEqual({});
  });
});
