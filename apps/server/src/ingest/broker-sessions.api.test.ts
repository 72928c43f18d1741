import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import { eq } from 'drizzle-orm';
import mqtt, { type IConnackPacket, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mqttOutgoing, mqttSubscriptions } from '../db/schema.js';
import { startTestServer, type TestServer } from '../test/harness.js';

// docs/gateway-protocol.md: a gateway connecting with clean session = false keeps its session across a
// reconnect, a server restart included: its command subscription and the QoS 1 commands it missed.
const SN = 'GWSESS0001';
const KEY = 'sessionkey1';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await server.registerGateway(SN, KEY);
});
afterAll(async () => server?.close());

interface Connected {
  client: MqttClient;
  connack: IConnackPacket;
  messages: { topic: string; payload: string }[];
}

function connect(clean: boolean, sn = SN, key = KEY): Promise<Connected> {
  return new Promise((resolve, reject) => {
    const messages: Connected['messages'] = [];
    const client = mqtt.connect(`mqtt://127.0.0.1:${server.telemetry.mqttPort}`, {
      clientId: sn,
      username: sn,
      password: key,
      clean,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    // Registered before CONNACK: a restored session delivers its queue right after it.
    client.on('message', (topic, payload) => messages.push({ topic, payload: payload.toString() }));
    client.once('connect', (connack) => resolve({ client, connack, messages }));
    client.once('error', reject);
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const queued = async () => (await server.database.db.select().from(mqttOutgoing).where(eq(mqttOutgoing.clientId, SN))).length;

describe('persistent gateway sessions on the embedded broker', () => {
  it('restores a clean = false session after a server restart: sessionPresent and the commands sent meanwhile', async () => {
    const first = await connect(false);
    expect(first.connack.sessionPresent).toBe(false);
    await first.client.subscribeAsync(gatewayTopic(SN, 'cmd'), { qos: 1 });
    await first.client.endAsync();

    // Commands while the gateway is away: queued for its session (nobody answers them here).
    const commands = ['cmd-while-away-1', 'cmd-while-away-2'];
    for (const id of commands)
      void server.telemetry.commands.send(SN, { op: 'boot', device: 'IN0000001' }, { id, timeoutMs: 5_000 }).catch(() => undefined);
    await until('the commands to be queued', async () => (await queued()) === 2);

    server = await server.restart();

    const again = await connect(false);
    try {
      expect(again.connack.sessionPresent).toBe(true);
      const received = await until('the queued commands', () => (again.messages.length >= 2 ? again.messages : undefined));
      expect(received.map((m) => m.topic)).toEqual([gatewayTopic(SN, 'cmd'), gatewayTopic(SN, 'cmd')]);
      expect(received.map((m) => (JSON.parse(m.payload) as { id: string }).id)).toEqual(commands);
      // Acknowledged (PUBACK): nothing stays queued.
      await until('the queue to empty', async () => (await queued()) === 0);

      // A command to the connected gateway is delivered at once, and forgotten once acknowledged.
      void server.telemetry.commands
        .send(SN, { op: 'boot', device: 'IN0000001' }, { id: 'cmd-online', timeoutMs: 5_000 })
        .catch(() => undefined);
      await until('the live command', () => again.messages.some((m) => m.payload.includes('cmd-online')));
      await until('the queue to empty', async () => (await queued()) === 0);
    } finally {
      await again.client.endAsync();
    }
  }, 60_000);

  it('forgets the session when the gateway connects with clean session = true', async () => {
    const clean = await connect(true);
    expect(clean.connack.sessionPresent).toBe(false);
    await clean.client.endAsync();
    await until('the stored subscriptions to go', async () => {
      const rows = await server.database.db.select().from(mqttSubscriptions).where(eq(mqttSubscriptions.clientId, SN));
      return rows.length === 0;
    });
    const after = await connect(false);
    expect(after.connack.sessionPresent).toBe(false);
    await after.client.endAsync();
  }, 30_000);

  it('holds a command for a gateway that has connected for the first time until it subscribes', async () => {
    await server.registerGateway('GWSESS0002', 'sessionkey2');
    const fresh = await connect(false, 'GWSESS0002', 'sessionkey2');
    try {
      // The server sees the gateway at CONNACK; its session has no subscription yet.
      const reply = server.telemetry.commands
        .send('GWSESS0002', { op: 'boot', device: 'IN0000002' }, { id: 'cmd-before-subscribe', timeoutMs: 5_000 })
        .catch(() => undefined);
      // The command is on its way before the SUBSCRIBE reaches the broker.
      await fresh.client.subscribeAsync(gatewayTopic('GWSESS0002', 'cmd'), { qos: 1 });
      await until('the held command', () => fresh.messages.some((m) => m.payload.includes('cmd-before-subscribe')));
      void reply;
    } finally {
      await fresh.client.endAsync();
    }
  }, 30_000);
});
