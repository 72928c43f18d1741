import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SimulatedFleet, SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { provisionDemoFleet } from '../features/fleet/demo-fleet.js';
import { signIn } from './client.js';
import { ADMIN, startTestServer, type TestServer } from './harness.js';

const SIMULATOR = fileURLToPath(new URL('../../../simulator/src/main.ts', import.meta.url));

/**
 * A test server with the seeded demo fleet provisioned (reporting every second) and the platform
 * administrator signed in: the start of every suite that drives simulated gateways.
 */
export async function startFleetServer(
  seed: number,
  env: Record<string, string> = {},
): Promise<{ server: TestServer; fleet: SimulatedFleet; adminToken: string }> {
  const server = await startTestServer(env);
  const adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const fleet = await provisionDemoFleet(server.database.db, {
    seed,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    intervalSeconds: 1,
  });
  await server.telemetry.pipeline.reloadDevices();
  return { server, fleet, adminToken };
}

/**
 * Plays these gateways of the fleet with the real simulator (a report a second, no faults; upgrades in
 * steps of `upgradeStepMs`, images checked against `firmwareKey` when given). Kill it in afterAll.
 */
export function spawnSimulator(
  fleet: SimulatedFleet,
  gateways: readonly SimulatedGateway[],
  options: { upgradeStepMs?: number; firmwareKey?: string } = {},
): ChildProcess {
  const file = join(mkdtempSync(join(tmpdir(), 'sunward-sim-')), 'fleet.json');
  writeFileSync(file, JSON.stringify({ ...fleet, gateways }));
  const args = ['--fleet', file, '--interval', '1', '--fault-rate', '0', '--upgrade-step-ms', String(options.upgradeStepMs ?? 100)];
  if (options.firmwareKey) args.push('--firmware-key', options.firmwareKey);
  return spawn(process.execPath, ['--import', 'tsx', SIMULATOR, ...args], { stdio: 'ignore' });
}

/** A port free right now, for a test that must start a server (or a broker) again on the same one after a restart. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A hand-made report of a gateway's first device (power and a counter that move with `seq`), as JSON. */
export function reportOf(gateway: SimulatedGateway, seq: number, ts: number): string {
  const device = gateway.devices[0];
  const protocol = device ? protocolById(device.protocolId) : undefined;
  if (!device || !protocol) throw new Error('no device');
  const blocks = encodeValues(protocol, { W: 1000 + seq, WH: 100_000 + seq * 10 }).map((b) => ({
    fc: b.functionCode as 3 | 4,
    addr: b.address,
    hex: registersToHex(b.registers),
  }));
  return JSON.stringify({ v: 1, seq, ts, devices: [{ sn: device.sn, proto: device.protocolId, blocks }] });
}
