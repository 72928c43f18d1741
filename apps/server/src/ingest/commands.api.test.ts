import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { decodeBlocks, registersFromHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceRealtime, devices } from '../db/schema.js';
import { CommandTimeoutError } from '../features/commands/command-channel.js';
import { provisionDemoFleet } from '../features/fleet/demo-fleet.js';
import { startTestServer, type TestServer } from '../test/harness.js';

// The simulator as its own process, driven through the server's broker over the real protocol.
const SIMULATOR = fileURLToPath(new URL('../../../simulator/src/main.ts', import.meta.url));
let server: TestServer;
let fleet: SimulatedFleet;
let simulator: ChildProcess;
let files: Server;
const image = Buffer.from('SUNWARD-FIRMWARE-IMAGE-'.repeat(100));
let filesUrl = '';

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  server = await startTestServer();
  fleet = await provisionDemoFleet(server.database.db, {
    seed: 11,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    intervalSeconds: 1,
  });
  // Two gateways are enough; the fleet file is what npm start hands the simulator.
  const file = join(mkdtempSync(join(tmpdir(), 'sunward-sim-')), 'fleet.json');
  writeFileSync(file, JSON.stringify({ ...fleet, gateways: fleet.gateways.slice(0, 2) }));
  simulator = spawn(
    process.execPath,
    ['--import', 'tsx', SIMULATOR, '--fleet', file, '--interval', '1', '--fault-rate', '0', '--upgrade-step-ms', '100'],
    { stdio: 'ignore' },
  );
  files = createServer((_req, res) => res.end(image));
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const address = files.address();
  filesUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/fw.bin`;
});
afterAll(async () => {
  simulator?.kill('SIGTERM');
  files?.close();
  await server?.close();
});

function inverterOf(index: number) {
  const g = fleet.gateways[index];
  const d = g?.devices.find((x) => x.family === 'inverter');
  if (!g || !d) throw new Error('no inverter');
  return { gateway: g.sn, device: d.sn, protocolId: d.protocolId };
}

async function realtime(sn: string) {
  const [row] = await server.database.db
    .select({ ts: deviceRealtime.ts, powerW: deviceRealtime.powerW })
    .from(deviceRealtime)
    .innerJoin(devices, eq(devices.id, deviceRealtime.deviceId))
    .where(eq(devices.sn, sn));
  return row;
}

describe('commands through the gateway protocol', () => {
  it('shuts an inverter down (power goes to 0 in its next report) and boots it again', async () => {
    const { gateway, device } = inverterOf(0);
    await waitFor(async () => (await realtime(device)) ?? undefined, 20_000);
    const off = await server.telemetry.commands.send(gateway, { op: 'shutdown', device });
    expect(off.status).toBe('ok');
    const sentAt = Date.now();
    await waitFor(async () => {
      const r = await realtime(device);
      return r && r.ts.getTime() > sentAt && r.powerW === 0 ? r : undefined;
    });
    const on = await server.telemetry.commands.send(gateway, { op: 'boot', device });
    expect(on.status).toBe('ok');
  });

  it('refuses a parameter outside its range and a read-only point, and applies a valid one', async () => {
    const { gateway, device } = inverterOf(0);
    expect(await server.telemetry.commands.send(gateway, { op: 'set', device, params: { WMaxLimPct: 150 } })).toMatchObject({
      status: 'error',
      error: 'out_of_range',
    });
    expect(await server.telemetry.commands.send(gateway, { op: 'set', device, params: { W: 10 } })).toMatchObject({
      status: 'error',
      error: 'unsupported',
    });
    expect(await server.telemetry.commands.send(gateway, { op: 'set', device, params: { WMaxLimPct: 60 } })).toMatchObject({
      status: 'ok',
      values: { WMaxLimPct: 60 },
    });
  });

  it('reads raw registers that decode with the device’s map', async () => {
    const { gateway, device, protocolId } = inverterOf(0);
    const protocol = protocolById(protocolId);
    const point = protocol?.points.find((p) => p.id === 'WMaxLimPct');
    if (!protocol || !point) throw new Error('map');
    // WMaxLimPct and its scale factor sit in model 123; read the whole model.
    const sf = protocol.points.find((p) => p.id === point.scaleFactorPoint);
    const from = Math.min(point.address, sf?.address ?? point.address);
    const to = Math.max(point.address, sf?.address ?? point.address) + 1;
    await new Promise((r) => setTimeout(r, 1500));
    const reply = await server.telemetry.commands.send(gateway, { op: 'read', device, fc: 3, addr: from, count: to - from });
    expect(reply.status).toBe('ok');
    const decoded = decodeBlocks(protocol, [{ functionCode: 3, address: from, registers: registersFromHex(reply.hex ?? '') ?? [] }]);
    expect(decoded.values.WMaxLimPct).toBe(60);
  });

  it('upgrades firmware with progress after checking the image hash, refusing commands meanwhile', async () => {
    // Madrid's hybrid inverter (the second gateway has no string inverter).
    const gateway = fleet.gateways[1]?.sn ?? '';
    const device = fleet.gateways[1]?.devices.find((d) => d.family === 'hybrid_inverter')?.sn ?? '';
    const sha256 = createHash('sha256').update(image).digest('hex');
    const bad = await server.telemetry.commands.send(gateway, {
      op: 'upgrade',
      device,
      firmware: { url: filesUrl, version: '9.9.9', size: image.length, sha256: '0'.repeat(64) },
    });
    expect(bad).toMatchObject({ status: 'error', error: 'hash_mismatch' });
    const progress: number[] = [];
    const upgrade = server.telemetry.commands.send(
      gateway,
      { op: 'upgrade', device, firmware: { url: filesUrl, version: '3.1.0', size: image.length, sha256 } },
      { onProgress: (p) => progress.push(p) },
    );
    await waitFor(async () => (progress.length > 0 ? true : undefined));
    expect(await server.telemetry.commands.send(gateway, { op: 'shutdown', device })).toMatchObject({
      status: 'error',
      error: 'device_upgrading',
    });
    expect(await upgrade).toMatchObject({ status: 'ok', version: '3.1.0' });
    expect(progress.at(-1)).toBeGreaterThanOrEqual(90);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('answers bad requests, and times out for a gateway that is not connected', async () => {
    const { gateway } = inverterOf(0);
    expect(await server.telemetry.commands.send(gateway, { op: 'boot', device: 'NOSUCHDEV' })).toMatchObject({
      status: 'error',
      error: 'bad_request',
    });
    const offline = fleet.gateways[5]?.sn ?? '';
    await expect(server.telemetry.commands.send(offline, { op: 'boot', device: 'X1' }, { timeoutMs: 500 })).rejects.toBeInstanceOf(
      CommandTimeoutError,
    );
  });
});
