import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gatewayRefusedTopic, gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { count, eq } from 'drizzle-orm';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, readings } from '../db/schema.js';
import { provisionDemoFleet } from '../features/fleet/demo-fleet.js';
import { freePort, reportOf } from '../test/fleet.js';
import { startTestServer, type TestServer } from '../test/harness.js';

// docs/mosquitto.conf and docs/mosquitto.acl as shipped, run by the machine's Mosquitto on a port and in a
// directory of their own (only the listener, the file paths and the user are rewritten), with the server
// (MQTT_URL, default share group) and gateways logging in through the password file.
const DOCS = fileURLToPath(new URL('../../../../docs/', import.meta.url));
const hasMosquitto = spawnSync('sh', ['-c', 'command -v mosquitto && command -v mosquitto_passwd'], { env: withSbin() }).status === 0;
const SERVER_PASSWORD = 'server-broker-password';

function withSbin(): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/usr/local/sbin` };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function passwd(file: string, user: string, password: string, create = false): void {
  const result = spawnSync('mosquitto_passwd', [...(create ? ['-c'] : []), '-b', file, user, password], { env: withSbin() });
  if (result.status !== 0) throw new Error(`mosquitto_passwd: ${result.stderr.toString()}`);
}

describe.runIf(hasMosquitto)('docs/mosquitto.conf with the machine’s Mosquitto', () => {
  let dir = '';
  let port = 0;
  let broker: ChildProcess | undefined;
  let brokerLog = '';
  let server: TestServer;
  let fleet: SimulatedFleet;
  const clients: MqttClient[] = [];

  const url = () => `mqtt://127.0.0.1:${port}`;
  function connect(options: IClientOptions): Promise<MqttClient> {
    return new Promise((resolve, reject) => {
      // MQTT 3.1.1 like the gateways (the simulator's default); the server's own connections use MQTT 5.
      const client = mqtt.connect(url(), { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000, ...options });
      clients.push(client);
      client.once('connect', () => {
        // Later errors (a session taken over by the next test's client) end the client; the test's waits say what failed.
        client.on('error', () => undefined);
        resolve(client);
      });
      client.once('error', reject);
    });
  }
  async function stored(deviceSn: string): Promise<number> {
    const { db } = server.database;
    const [device] = await db.select({ id: devices.id }).from(devices).where(eq(devices.sn, deviceSn));
    const [row] = await db
      .select({ n: count() })
      .from(readings)
      .where(eq(readings.deviceId, device?.id ?? -1));
    return Number(row?.n ?? 0);
  }
  async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > until) throw new Error(`condition not met in time; broker log:\n${brokerLog}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sunward-mosquitto-'));
    port = await freePort();
    const passwordFile = join(dir, 'passwd');
    passwd(passwordFile, 'sunward-server', SERVER_PASSWORD, true);
    const conf = readFileSync(join(DOCS, 'mosquitto.conf'), 'utf8')
      .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
      .replace(/^password_file .*$/m, `password_file ${passwordFile}`)
      .replace(/^acl_file .*$/m, `acl_file ${join(DOCS, 'mosquitto.acl')}`)
      .replace(/^persistence_location .*$/m, `persistence_location ${dir}/`);
    expect(conf).toContain(`listener ${port} 127.0.0.1`);
    // Mosquitto started as root drops to the user `mosquitto` unless told otherwise.
    writeFileSync(join(dir, 'mosquitto.conf'), `${conf}\nuser ${userInfo().username}\nlog_dest stderr\n`);
    broker = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { env: withSbin(), stdio: ['ignore', 'pipe', 'pipe'] });
    broker.stderr?.on('data', (chunk: Buffer) => {
      brokerLog += chunk.toString();
    });
    const until = Date.now() + 10_000;
    while (!(await canConnect(port))) {
      if (Date.now() > until || broker.exitCode !== null) throw new Error(`mosquitto did not start:\n${brokerLog}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    server = await startTestServer({
      MQTT_URL: `mqtt://sunward-server:${SERVER_PASSWORD}@127.0.0.1:${port}`,
      MQTT_CONSUMERS: '2',
      MQTT_CONSUMER_ID: `mosq-${process.pid}`,
      MQTT_SESSION_EXPIRY_S: '0',
    });
    fleet = await provisionDemoFleet(server.database.db, { seed: 7, mqttUrl: url(), intervalSeconds: 60 });
    // The operator adds each gateway's key when registering it; Mosquitto rereads the file on SIGHUP.
    for (const gateway of fleet.gateways.slice(0, 2)) passwd(passwordFile, gateway.sn, gateway.key);
    broker.kill('SIGHUP');
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await server?.close();
    if (process.env.DEBUG_MOSQUITTO) process.stderr.write(brokerLog);
    broker?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lets the server read every gateway’s reports, statuses and replies and write their commands', async () => {
    const probe = await connect({
      clientId: `probe-${process.pid}`,
      username: 'sunward-server',
      password: SERVER_PASSWORD,
      protocolVersion: 5,
    });
    const granted = await probe.subscribeAsync(
      ['$share/sunward-ingest/sunward/v1/gw/+/report', '$share/sunward-ingest/sunward/v1/gw/+/status', 'sunward/v1/gw/+/reply'],
      { qos: 1 },
    );
    expect(granted.map((g) => g.qos)).toEqual([1, 1, 1]);
    await probe.publishAsync(gatewayTopic('GW00000001', 'cmd'), '{}', { qos: 1 });
    await probe.endAsync();
  });

  it('stores a gateway’s reports sent through Mosquitto, and refuses a wrong key', async () => {
    const gateway = fleet.gateways[0];
    const deviceSn = gateway?.devices[0]?.sn;
    if (!gateway || !deviceSn) throw new Error('no gateway');
    await waitFor(async () => {
      // Until Mosquitto has reread the password file, the gateway's key is unknown to it.
      const client = await connect({ clientId: gateway.sn, username: gateway.sn, password: gateway.key }).catch(() => undefined);
      if (!client) return false;
      const now = Date.now();
      for (let seq = 1; seq <= 3; seq++)
        await client.publishAsync(gatewayTopic(gateway.sn, 'report'), reportOf(gateway, seq, now - 10_000 + seq * 1000), { qos: 1 });
      return true;
    }, 10_000);
    await waitFor(async () => (await stored(deviceSn)) === 3, 15_000);
    await Promise.all(clients.splice(0).map((c) => c.endAsync()));
    await expect(connect({ clientId: gateway.sn, username: gateway.sn, password: 'wrong-key' })).rejects.toThrow(/authori|password/i);
  });

  it('refuses a gateway on another gateway’s topics', async () => {
    const [own, other] = fleet.gateways;
    const otherDevice = other?.devices[0]?.sn;
    if (!own || !other || !otherDevice) throw new Error('no gateways');
    const client = await connect({ clientId: own.sn, username: own.sn, password: own.key });
    // Publishing as the other gateway: Mosquitto acknowledges (MQTT 3.1.1 has no refusal code) and drops it.
    await client.publishAsync(gatewayTopic(other.sn, 'report'), reportOf(other, 1, Date.now() - 5000), { qos: 1 });
    // Commands: Mosquitto accepts the subscription to another's command topic but delivers nothing on it.
    // Messages from one publisher arrive in order, so once the gateway has its own second command, the
    // other's first one was withheld.
    const received: string[] = [];
    client.on('message', (topic) => received.push(topic));
    await client.subscribeAsync([gatewayTopic(other.sn, 'cmd'), gatewayTopic(own.sn, 'cmd')], { qos: 1 });
    const victim = await connect({ clientId: other.sn, username: other.sn, password: other.key });
    const victimReceived: string[] = [];
    victim.on('message', (topic) => victimReceived.push(topic));
    await victim.subscribeAsync(gatewayTopic(other.sn, 'cmd'), { qos: 1 });
    const platform = await connect({ clientId: `platform-${process.pid}`, username: 'sunward-server', password: SERVER_PASSWORD });
    await platform.publishAsync(gatewayTopic(other.sn, 'cmd'), '{"id":"for-the-other"}', { qos: 1 });
    await platform.publishAsync(gatewayTopic(own.sn, 'cmd'), '{"id":"for-me"}', { qos: 1 });
    await waitFor(async () => received.length > 0 && victimReceived.length > 0, 10_000);
    expect(received).toEqual([gatewayTopic(own.sn, 'cmd')]);
    expect(victimReceived).toEqual([gatewayTopic(other.sn, 'cmd')]);
    // Its own topic still works, and after it is stored the other gateway's device still has nothing.
    const before = await stored(own.devices[0]?.sn ?? '');
    await client.publishAsync(gatewayTopic(own.sn, 'report'), reportOf(own, 100, Date.now() - 1000), { qos: 1 });
    await waitFor(async () => (await stored(own.devices[0]?.sn ?? '')) === before + 1, 15_000);
    expect(await stored(otherDevice)).toBe(0);
  });

  it('lets the server answer a refused report on the gateway’s own report/refused topic, and only there (issue 25)', async () => {
    const [own, other] = fleet.gateways;
    if (!own || !other) throw new Error('no gateways');
    const client = await connect({ clientId: `${own.sn}`, username: own.sn, password: own.key });
    const received: { topic: string; body: Record<string, unknown> }[] = [];
    client.on('message', (topic, payload) =>
      received.push({ topic, body: JSON.parse(payload.toString('utf8')) as Record<string, unknown> }),
    );
    await client.subscribeAsync([gatewayRefusedTopic(other.sn, 'report'), gatewayRefusedTopic(own.sn, 'report')], { qos: 1 });
    const victim = await connect({ clientId: other.sn, username: other.sn, password: other.key });
    const victimReceived: string[] = [];
    victim.on('message', (topic) => victimReceived.push(topic));
    await victim.subscribeAsync(gatewayRefusedTopic(other.sn, 'report'), { qos: 1 });
    await victim.publishAsync(gatewayTopic(other.sn, 'report'), JSON.stringify({ v: 1, seq: 5, ts: Date.now(), devices: [] }), { qos: 1 });
    await client.publishAsync(gatewayTopic(own.sn, 'report'), JSON.stringify({ v: 1, seq: 9, ts: Date.now(), devices: [] }), { qos: 1 });
    await waitFor(async () => received.length > 0, 10_000);
    expect(received).toEqual([
      { topic: gatewayRefusedTopic(own.sn, 'report'), body: expect.objectContaining({ seq: 9, reason: 'malformed_payload' }) },
    ]);
  });
});
