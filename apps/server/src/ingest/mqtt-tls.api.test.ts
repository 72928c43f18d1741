import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { devices, readings } from '../db/schema.js';
import { provisionDemoFleet } from '../features/fleet/demo-fleet.js';
import { startTestServer, type TestServer } from '../test/harness.js';

// A self-signed certificate for localhost and 127.0.0.1, made for these tests only (openssl, 100 years).
const FIXTURES = join(import.meta.dirname, '../test/fixtures');
const CERT_FILE = join(FIXTURES, 'mqtt-tls-cert.pem');
const KEY_FILE = join(FIXTURES, 'mqtt-tls-key.pem');

let server: TestServer;
let fleet: SimulatedFleet;
const clients: MqttClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ MQTT_TLS_CERT_FILE: CERT_FILE, MQTT_TLS_KEY_FILE: KEY_FILE, MQTT_TLS_PORT: '0' });
  fleet = await provisionDemoFleet(server.database.db, {
    seed: 11,
    mqttUrl: `mqtts://127.0.0.1:${server.telemetry.mqttTlsPort}`,
    intervalSeconds: 60,
  });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await server?.close();
});

function connectTls(sn: string, key: string): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(`mqtts://127.0.0.1:${server.telemetry.mqttTlsPort}`, {
      clientId: sn,
      username: sn,
      password: key,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ca: readFileSync(CERT_FILE),
      servername: 'localhost',
    });
    clients.push(client);
    client.once('connect', () => resolve(client));
    client.once('error', reject);
  });
}

describe('MQTT over TLS on the embedded broker', () => {
  it('stores a report sent over TLS, acknowledged once stored, and refuses a wrong key there too', async () => {
    expect(server.telemetry.mqttTlsPort).toBeGreaterThan(0);
    const gateway = fleet.gateways[0];
    const device = gateway?.devices[0];
    const protocol = device && protocolById(device.protocolId);
    if (!gateway || !device || !protocol) throw new Error('no demo gateway');
    await expect(connectTls(gateway.sn, 'wrong-key')).rejects.toThrow(/Bad username or password|Not authorized/i);

    const client = await connectTls(gateway.sn, gateway.key);
    const blocks = encodeValues(protocol, { W: 3100, WH: 42_000, St: 4 }).map((b) => ({
      fc: b.functionCode,
      addr: b.address,
      hex: registersToHex(b.registers),
    }));
    await client.publishAsync(
      gatewayTopic(gateway.sn, 'report'),
      JSON.stringify({ v: 1, seq: 1, ts: Date.now(), devices: [{ sn: device.sn, proto: device.protocolId, blocks }] }),
      { qos: 1 },
    );
    const [row] = await server.database.db.select({ id: devices.id }).from(devices).where(eq(devices.sn, device.sn));
    const stored = await server.database.db
      .select()
      .from(readings)
      .where(eq(readings.deviceId, row?.id ?? -1));
    expect(stored).toHaveLength(1);
  });

  it('refuses a certificate without its key, and files it cannot read, naming the setting', () => {
    const base = { DATA_DIR: FIXTURES };
    expect(() => loadConfig({ ...base, MQTT_TLS_CERT_FILE: CERT_FILE })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, MQTT_TLS_CERT_FILE: CERT_FILE })).toThrow(/MQTT_TLS_KEY_FILE/);
    expect(() => loadConfig({ ...base, MQTT_TLS_CERT_FILE: CERT_FILE, MQTT_TLS_KEY_FILE: '/nonexistent/key.pem' })).toThrow(
      /MQTT_TLS_KEY_FILE is invalid: cannot read/,
    );
    expect(() => loadConfig({ ...base, MQTT_TLS_CERT_FILE: KEY_FILE, MQTT_TLS_KEY_FILE: KEY_FILE })).toThrow(
      /MQTT_TLS_CERT_FILE is invalid: not a PEM certificate/,
    );
    expect(loadConfig({ ...base }).mqtt.tls).toBeUndefined();
  });
});
