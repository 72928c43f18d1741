import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { eq, inArray } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deviceCommands, devices } from '../../db/schema.js';
import { createScratchDatabase } from '../../db/scratch-database.js';
import { call, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, TEST_POSTGRES_URL, type TestServer } from '../../test/harness.js';
import { provisionDemoFleet } from '../fleet/demo-fleet.js';

// Issue 26 part 2: two server processes on one PostgreSQL and the machine's Mosquitto, replies on a shared
// subscription. A command sent through A is confirmed whichever process hears the device's reply; a reply to
// a command whose process stopped is recorded as late once, by whichever process hears it.
const MOSQUITTO_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const run = `${process.pid}${Date.now() % 100000}`;

describe.runIf(process.env.TEST_DATABASE === 'postgres')('commands across two server processes', () => {
  let a: TestServer;
  let b: TestServer;
  let fleet: SimulatedFleet;
  let gateway: MqttClient;
  let drop: () => Promise<void>;
  let gatewaySn = '';
  let inverterSn = '';
  /** Replies the simulated gateway sends to each command: none while `silent`. */
  const silent = false;

  beforeAll(async () => {
    const scratch = await createScratchDatabase(TEST_POSTGRES_URL, 'sunward_cmdcl', inject('postgresTemplate'));
    drop = scratch.drop;
    const env = (id: string) => ({
      DATABASE_URL: scratch.url,
      MQTT_URL: MOSQUITTO_URL,
      MQTT_CONSUMER_ID: `${id}${run}`,
      MQTT_SHARE_GROUP: `cmd-${run}`,
      MQTT_CONSUMERS: '1',
      MQTT_SESSION_EXPIRY_S: '0',
      COMMAND_TIMEOUT_S: '20',
    });
    a = await startTestServer(env('a'));
    b = await startTestServer(env('b'));
    fleet = await provisionDemoFleet(a.database.db, { seed: Number(run) % 90000, mqttUrl: MOSQUITTO_URL, intervalSeconds: 60 });
    const g = fleet.gateways.find((x) => !x.spare && x.devices.some((d) => d.family === 'inverter'));
    const inverter = g?.devices.find((d) => d.family === 'inverter');
    if (!g || !inverter) throw new Error('no inverter');
    gatewaySn = g.sn;
    inverterSn = inverter.sn;
    await a.database.db.update(devices).set({ status: 1 }).where(eq(devices.sn, inverterSn));
    // The gateway: answers every command on its reply topic, which the two servers share.
    gateway = await mqtt.connectAsync(MOSQUITTO_URL, { clientId: `${gatewaySn}-${run}`, reconnectPeriod: 0 });
    await gateway.subscribeAsync(gatewayTopic(gatewaySn, 'cmd'), { qos: 1 });
    gateway.on('message', (_topic, payload) => {
      if (silent) return;
      const command = JSON.parse(payload.toString()) as { id: string };
      void gateway.publishAsync(gatewayTopic(gatewaySn, 'reply'), JSON.stringify({ v: 1, id: command.id, status: 'ok' }), { qos: 1 });
    });
  });
  afterAll(async () => {
    await gateway?.endAsync(true);
    await a?.close();
    await b?.close();
    await drop?.();
  });

  it('a command sent through A is confirmed when its reply lands on B', async () => {
    const token = (await signIn(a.app, ADMIN.account, ADMIN.password)).access_token;
    const ids: number[] = [];
    // The broker hands the shared replies out in turn: of eight, some land on B.
    for (let i = 0; i < 8; i++) {
      const boot = await call<{ commandId: number; status: string }>(a.app, 'POST', `/api/v1/inverter/${inverterSn}/boot`, {
        token,
        json: {},
      });
      expect(boot.body.code).toBe(0);
      expect(boot.body.data.status).toBe('ok');
      ids.push(boot.body.data.commandId);
    }
    expect(b.telemetry.commands.stats.relayed).toBeGreaterThan(0);
    expect(a.telemetry.commands.stats.taken).toBe(b.telemetry.commands.stats.relayed);
    // Each recorded once, by its sender, with no late reply.
    const rows = await a.database.db
      .select({ status: deviceCommands.status, late: deviceCommands.lateReplyAt })
      .from(deviceCommands)
      .where(inArray(deviceCommands.id, ids));
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => r.status === 'ok' && r.late === null)).toBe(true);
    expect(a.telemetry.commands.stats.failures + b.telemetry.commands.stats.failures).toBe(0);
  });

  it('a reply to a command whose process stopped is recorded once, as late', async () => {
    // A command a stopped process sent: pending, and nobody waits for it.
    const [row] = await a.database.db
      .insert(deviceCommands)
      .values({ account: 'stopped@test.local', deviceSn: inverterSn, gatewaySn, op: 'boot', status: 'pending', request: {} })
      .returning({ id: deviceCommands.id });
    if (!row) throw new Error('not inserted');
    const before = a.telemetry.commands.stats.late + b.telemetry.commands.stats.late;
    await gateway.publishAsync(gatewayTopic(gatewaySn, 'reply'), JSON.stringify({ v: 1, id: `cmd-${row.id}`, status: 'ok' }), { qos: 1 });
    await expect
      .poll(
        async () => {
          const [found] = await a.database.db
            .select({ status: deviceCommands.status, late: deviceCommands.lateReplyAt })
            .from(deviceCommands)
            .where(eq(deviceCommands.id, row.id));
          return found?.status === 'ok' && found.late !== null;
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe(true);
    expect(a.telemetry.commands.stats.late + b.telemetry.commands.stats.late).toBe(before + 1);
  });
});
