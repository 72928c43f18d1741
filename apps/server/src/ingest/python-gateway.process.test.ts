import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { GatewayRegisterResult, GatewaySettings } from '@sunward/contracts/gateways';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deviceRealtime, devices, gateways, readings } from '../db/schema.js';
import { apiClient, signedInCast } from '../test/api.js';
import { startTestServer, type TestServer } from '../test/harness.js';

/*
 * Issue 25: the example gateway in Python (examples/python-gateway/gateway.py, paho-mqtt), built only from
 * docs/gateway-protocol.md, against the product: registered over JSON, it reports an inverter whose
 * readings are stored, and confirms a setting the console applies over the protocol.
 */
const GATEWAY = fileURLToPath(new URL('../../../../examples/python-gateway/gateway.py', import.meta.url));

/** The first Python 3 that has paho-mqtt (a pyenv python3 may shadow Debian's, which has the package). */
function pythonWithPaho(): string | undefined {
  const candidates = [process.env.PYTHON, 'python3', '/usr/bin/python3'].filter((c): c is string => !!c);
  return candidates.find((python) => spawnSync(python, ['-c', 'import paho.mqtt.client'], { stdio: 'ignore' }).status === 0);
}

const python = pythonWithPaho();
if (!python)
  console.warn(
    'python-gateway.process.test: skipped: no python3 with paho-mqtt (apt-get install -y python3-paho-mqtt; .ci/run installs it)',
  );

let server: TestServer;
let cast: Awaited<ReturnType<typeof signedInCast>>;
let gateway: ChildProcess | undefined;
const output: string[] = [];
const { post } = apiClient(() => server.app);
const DEVICE = 'INPY000001';

describe.runIf(python)('the example Python gateway against the product', () => {
  beforeAll(async () => {
    server = await startTestServer();
    cast = await signedInCast(server, 'Python Gateways Ltd');
  }, 120_000);
  afterAll(async () => {
    if (gateway && gateway.exitCode === null) {
      gateway.kill('SIGKILL');
    }
    await server?.close();
  });

  it('registers over JSON, reports readings that are stored, and confirms a setting', async () => {
    const registered = await post<GatewayRegisterResult>(
      '/api/v1/gateways',
      { sn: 'GWPY000001', alias: 'Python example' },
      cast.companyAdmin,
    );
    expect(registered.code).toBe(0);
    const entry = registered.data.registered[0];
    if (!entry) throw new Error('not registered');

    gateway = spawn(
      python ?? 'python3',
      [
        GATEWAY,
        '--host',
        '127.0.0.1',
        '--port',
        String(server.telemetry.mqttPort),
        '--sn',
        entry.sn,
        '--key',
        entry.key,
        '--device',
        DEVICE,
        '--interval',
        '1',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    gateway.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    gateway.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));

    // The inverter is discovered from its first reading; then readings pile up and the realtime shows its power.
    await vi.waitFor(
      async () => {
        const [device] = await server.database.db.select({ id: devices.id }).from(devices).where(eq(devices.sn, DEVICE));
        if (!device) throw new Error(`no device yet: ${output.join('')}`);
        const [stored] = await server.database.db.select({ n: count() }).from(readings).where(eq(readings.deviceId, device.id));
        const [live] = await server.database.db
          .select({ powerW: deviceRealtime.powerW })
          .from(deviceRealtime)
          .where(eq(deviceRealtime.deviceId, device.id));
        if ((stored?.n ?? 0) < 3 || !live?.powerW) throw new Error(`readings: ${stored?.n}, power ${live?.powerW}`);
      },
      { timeout: 60_000, interval: 250 },
    );
    const [row] = await server.database.db
      .select({ online: gateways.online, fw: gateways.fwVersion })
      .from(gateways)
      .where(eq(gateways.id, entry.id));
    expect(row).toMatchObject({ online: true, fw: 'py-1.0.0' });

    // A setting applied over the protocol: stored only once the Python gateway confirmed it.
    const applied = await post<GatewaySettings>(
      `/api/v1/gateway/${entry.id}/serverAddress`,
      { host: 'iot.example.com', port: 1883 },
      cast.companyAdmin,
    );
    expect(applied.code, output.join('')).toBe(0);
    expect(applied.data.serverAddress).toBe('iot.example.com:1883');
    expect(output.join('')).toMatch(/"event": "replied".*"status": "ok"/);
    // A device command: the power limit, answered with the values the inverter now has.
    const limited = await server.telemetry.commands.send(entry.sn, {
      op: 'set',
      device: DEVICE,
      params: { WMaxLim_Ena: 1, WMaxLimPct: 50 },
    });
    expect(limited).toMatchObject({ status: 'ok', values: { WMaxLimPct: 50 } });
    const refused = await server.telemetry.commands.send(entry.sn, { op: 'set', device: DEVICE, params: { WMaxLimPct: 150 } });
    expect(refused).toMatchObject({ status: 'error', error: 'out_of_range' });
    // Nothing it sent was refused.
    expect(output.join('')).not.toMatch(/_refused/);

    gateway.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => gateway?.once('exit', resolve));
    expect(code).toBe(0);
    await vi.waitFor(
      async () => {
        const [after] = await server.database.db.select({ online: gateways.online }).from(gateways).where(eq(gateways.id, entry.id));
        if (after?.online !== false) throw new Error('still online');
      },
      { timeout: 15_000, interval: 200 },
    );
  }, 180_000);
});
