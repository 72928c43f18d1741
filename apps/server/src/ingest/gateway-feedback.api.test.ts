import {
  gatewayRefusedTopic,
  gatewayTopic,
  type ReplyRefusalPayload,
  ReplyRefusalPayloadSchema,
  type ReportRefusalPayload,
  ReportRefusalPayloadSchema,
} from '@sunward/contracts/gateway-protocol';
import { and, eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayConnectionLog } from '../db/schema.js';
import { startTestServer, type TestServer } from '../test/harness.js';

// Feedback to gateways (issue 25): a refused report or reply is answered on the gateway's own topic.
let server: TestServer;
let url: string;
const SN = 'GWFEEDBACK01';
const KEY = '0123456789abcdef';
const OTHER = 'GWFEEDBACK02';
const clients: MqttClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  url = `mqtt://127.0.0.1:${server.telemetry.mqttPort}`;
  await server.registerGateway(SN, KEY);
  await server.registerGateway(OTHER, 'fedcba9876543210');
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await server?.close();
});

async function connect(sn = SN, key = KEY): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, { clientId: sn, username: sn, password: key, reconnectPeriod: 0, clean: true });
  clients.push(client);
  return client;
}

/** Resolves with the next message on a topic that passes `accept`. */
function next<T>(client: MqttClient, topic: string, parse: (raw: unknown) => T, accept: (m: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nothing on ${topic}`)), 10_000);
    const onMessage = (t: string, payload: Buffer) => {
      if (t !== topic) return;
      const message = parse(JSON.parse(payload.toString('utf8')));
      if (!accept(message)) return;
      clearTimeout(timer);
      client.off('message', onMessage);
      resolve(message);
    };
    client.on('message', onMessage);
  });
}

const reportRefusal = (raw: unknown): ReportRefusalPayload => ReportRefusalPayloadSchema.parse(raw);
const replyRefusal = (raw: unknown): ReplyRefusalPayload => ReplyRefusalPayloadSchema.parse(raw);

describe('refusals answered to the gateway', () => {
  it('answers a report without blocks with its seq, the reason and the field', async () => {
    const client = await connect();
    await client.subscribeAsync(gatewayRefusedTopic(SN, 'report'), { qos: 1 });
    const answer = next(client, gatewayRefusedTopic(SN, 'report'), reportRefusal, (m) => m.seq === 41);
    const ts = Date.now();
    await client.publishAsync(
      gatewayTopic(SN, 'report'),
      JSON.stringify({ v: 1, seq: 41, ts, devices: [{ sn: 'IN41', proto: 'sunspec-inverter-3p' }] }),
      { qos: 1 },
    );
    const refusal = await answer;
    expect(refusal).toMatchObject({ v: 1, seq: 41, ts, reason: 'malformed_payload', field: 'devices.0.blocks' });
    expect(refusal.device).toBeUndefined();

    // One reading refused: the device is named.
    const second = next(client, gatewayRefusedTopic(SN, 'report'), reportRefusal, (m) => m.seq === 42);
    await client.publishAsync(
      gatewayTopic(SN, 'report'),
      JSON.stringify({ v: 1, seq: 42, ts, devices: [{ sn: 'IN42', proto: 'no-such-map', blocks: [] }] }),
      { qos: 1 },
    );
    expect(await second).toMatchObject({ seq: 42, reason: 'unknown_device', device: 'IN42' });

    // Not JSON: no seq to give.
    const third = next(client, gatewayRefusedTopic(SN, 'report'), reportRefusal, (m) => m.reason === 'malformed_json');
    await client.publishAsync(gatewayTopic(SN, 'report'), 'not json', { qos: 1 });
    expect(await third).toMatchObject({ seq: null, ts: null, reason: 'malformed_json' });
  });

  it('answers a reply missing its status with the field, and a corrected reply still completes the command', async () => {
    const client = await connect();
    await client.subscribeAsync([gatewayTopic(SN, 'cmd'), gatewayRefusedTopic(SN, 'reply')], { qos: 1 });
    client.on('message', (topic, payload) => {
      if (topic !== gatewayTopic(SN, 'cmd')) return;
      const command = JSON.parse(payload.toString('utf8')) as { id: string };
      // First a reply without `status`, then the right one once the server has said what is wrong.
      void client.publishAsync(gatewayTopic(SN, 'reply'), JSON.stringify({ v: 1, id: command.id, values: { W: 1 } }), { qos: 1 });
    });
    const refused = next(client, gatewayRefusedTopic(SN, 'reply'), replyRefusal);
    const settled = server.telemetry.commands.send(SN, { op: 'read', device: 'IN1', fc: 3, addr: 40000, count: 1 }, { timeoutMs: 10_000 });
    const refusal = await refused;
    expect(refusal).toMatchObject({ v: 1, reason: 'malformed_payload', field: 'status' });
    expect(refusal.id).toEqual(expect.any(String));
    await client.publishAsync(gatewayTopic(SN, 'reply'), JSON.stringify({ v: 1, id: refusal.id, status: 'ok', hex: '0001' }), { qos: 1 });
    expect(await settled).toMatchObject({ status: 'ok', hex: '0001' });
  });

  it("lets no gateway subscribe to another gateway's refusals", async () => {
    const client = await connect(OTHER, 'fedcba9876543210');
    const granted = await client
      .subscribeAsync(gatewayRefusedTopic(SN, 'report'), { qos: 1 })
      .catch((error: { granted?: unknown }) => error);
    expect(JSON.stringify(granted)).toMatch(/128/);
    const own = await client.subscribeAsync(gatewayRefusedTopic(OTHER, 'report'), { qos: 1 });
    expect(own[0]?.qos).toBe(1);
  });

  it("writes every refusal with its reason to the gateway's communication log", async () => {
    const expected = [/^malformed_payload: devices\.0\.blocks/, /^unknown_device$/, /^reply\.malformed_payload: status/];
    const until = Date.now() + 10_000;
    let reasons: string[] = [];
    while (Date.now() < until) {
      const rows = await server.database.db
        .select({ reason: gatewayConnectionLog.reason })
        .from(gatewayConnectionLog)
        .where(and(eq(gatewayConnectionLog.gatewaySn, SN), eq(gatewayConnectionLog.kind, 'refused')));
      reasons = rows.map((r) => r.reason ?? '');
      if (expected.every((re) => reasons.some((r) => re.test(r)))) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const re of expected)
      expect(
        reasons.some((r) => re.test(r)),
        `${re} in ${reasons.join(' | ')}`,
      ).toBe(true);
  });
});
