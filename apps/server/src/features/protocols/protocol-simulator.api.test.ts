import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandResult, SettingsDeviceRow, WritableParam } from '@sunward/contracts/commands';
import type { ProtocolFile, ProtocolSave } from '@sunward/contracts/protocols';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceRealtime, devices } from '../../db/schema.js';
import { apiClient, createPlant } from '../../test/api.js';
import { signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';

// Issue 19, Done when: a new brand exists only as a protocol made through the console's API; the real
// simulator plays a device of it from the exported file (--protocol), the server decodes its reports live
// with the stored map, and the brand's settings group writes a parameter the device confirms and reports.
const SIMULATOR = fileURLToPath(new URL('../../../../simulator/src/main.ts', import.meta.url));
const SN = 'ZENSIM0001';
let server: TestServer;
let token: string;
let simulator: ChildProcess | undefined;
let dir: string;
const output: string[] = [];
const { get, post } = apiClient(
  () => server.app,
  () => token,
);

/** Where the sun is high now (the simulator's physics follows the real sun). */
function noonLongitude(): number {
  const now = new Date();
  const lon = (12 - now.getUTCHours() - now.getUTCMinutes() / 60) * 15;
  return Math.round((lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon) * 1000) / 1000;
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`condition not met in time; simulator said:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const point = (id: string, address: number, extra: Record<string, unknown>) => ({
  id,
  label: { en: id === 'PLim' ? 'Export limit' : id, zh: id },
  functionCode: 3 as const,
  address,
  count: 1,
  type: 'u16' as const,
  operation: 'r' as const,
  ...extra,
});

const ZENIT: ProtocolSave = {
  identifier: 'zenit-sim',
  code: 'ZENIT-SIM',
  name: 'ZENIT sim',
  manufacturer: 'Zenit Energy',
  family: 'inverter',
  protocolVersion: '1.0',
  configurationVersion: '1',
  content: {
    title: { en: 'Zenit string inverter', zh: 'Zenit 组串逆变器' },
    source: 'Zenit Modbus manual',
    points: [
      point('Pac', 0, { count: 2, type: 'u32', unit: 'W', role: 'power', required: true }),
      point('Etot', 2, { count: 2, type: 'u32', unit: 'Wh', role: 'energy_total' }),
      point('PLim', 10, { operation: 'rw', unit: '%', min: 0, max: 100 }),
    ],
    events: [],
    settingsFamilies: { asw: ['PLim'] },
  },
};

beforeAll(async () => {
  server = await startTestServer();
  token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const created = await post<{ id: number }>('/api/v1/protocols', ZENIT);
  expect(created.code, JSON.stringify(created)).toBe(0);
  const exported = await get<{ fileName: string; file: ProtocolFile }>(`/api/v1/protocols/${created.data.id}/export`);
  expect(exported.code).toBe(0);
  const longitude = noonLongitude();
  const plant = await createPlant(server, token, { latitude: 5, longitude, timezone: 'UTC', capacityKwp: 6 });
  dir = mkdtempSync(join(tmpdir(), 'sunward-brand-'));
  const fleet: SimulatedFleet = {
    seed: 19,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    gateways: [
      {
        sn: plant.gateway.sn,
        key: plant.gateway.key,
        intervalSeconds: 2,
        plant: { name: 'Zenit Home', latitude: 5, longitude, timezone: 'UTC', capacityKwp: 6, plantType: 1, load: 'household' },
        devices: [{ sn: SN, protocolId: 'zenit-sim', family: 'inverter', ratedPowerW: 6000 }],
      },
    ],
  };
  writeFileSync(join(dir, 'fleet.json'), JSON.stringify(fleet));
  // The file exactly as the console's export button saves it.
  writeFileSync(join(dir, exported.data.fileName), JSON.stringify(exported.data.file));
  simulator = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      SIMULATOR,
      '--fleet',
      join(dir, 'fleet.json'),
      '--protocol',
      join(dir, exported.data.fileName),
      '--fault-rate',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  simulator.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  simulator.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
}, 60_000);

afterAll(async () => {
  simulator?.kill('SIGTERM');
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a simulated device of a brand made in the console', () => {
  it('is discovered on the stored protocol and its reports are decoded live with it', async () => {
    const realtime = await waitFor(async () => {
      const [device] = await server.database.db.select().from(devices).where(eq(devices.sn, SN));
      if (!device) return undefined;
      const [row] = await server.database.db.select().from(deviceRealtime).where(eq(deviceRealtime.deviceId, device.id));
      return row ? { device, row } : undefined;
    }, 45_000);
    expect(output.join('')).toContain('console protocols zenit-sim');
    expect(realtime.device).toMatchObject({ protocolId: 'zenit-sim', protocolVersion: 1 });
    // The brand's own point names carry the physics: its power (the sun is high at the plant) and counter.
    expect(realtime.row.powerW).toBeGreaterThan(0);
    expect(realtime.row.energyTotalWh).not.toBeNull();
  }, 60_000);

  it('takes a write of its settings group over the gateway protocol, confirms it and reports the new value', async () => {
    const list = await get<{ infos: SettingsDeviceRow[] }>(`/api/v1/settings/devices?scope=device&keyword=${SN}`);
    expect(list.data.infos.map((d) => [d.sn, d.groups.map((g) => g.family)])).toEqual([[SN, ['asw']]]);
    const written = await post<CommandResult>('/api/v1/asw', {
      sn: SN,
      values: { PLim: 40 },
      idempotencyKey: `zenit-${Date.now()}`,
      password: ADMIN.password,
    });
    expect(written, output.join('')).toMatchObject({ code: 0, data: { status: 'ok', values: { PLim: 40 }, message: null } });
    // The device's next reports carry the value it took.
    await waitFor(async () => {
      const form = await get<WritableParam[]>(`/api/v1/asw?sn=${SN}`);
      return form.data.find((p) => p.id === 'PLim')?.value === 40 ? true : undefined;
    });
  }, 60_000);
});
