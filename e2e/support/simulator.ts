import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';

const SIMULATOR_MAIN = fileURLToPath(new URL('../../apps/simulator/src/main.ts', import.meta.url));

/**
 * Where the sun is high right now: the simulator's physics follows the real sun, so test plants sit on
 * the meridian of local noon (near the equator) and produce whenever the test runs.
 */
export function noonLongitude(now = new Date()): number {
  const hours = now.getUTCHours() + now.getUTCMinutes() / 60;
  const lon = (12 - hours) * 15;
  return Math.round((lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon) * 1000) / 1000;
}

/** The real simulator process playing `fleet` over MQTT (no faults), until stop(). */
export function runSimulator(
  fleet: SimulatedFleet,
  options: { upgradeStepMs?: number /** PEM: the devices verify firmware signatures with it. */; firmwareKey?: string } = {},
): { process: ChildProcess; stop(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'sunward-fleet-'));
  const file = join(dir, 'fleet.json');
  writeFileSync(file, JSON.stringify(fleet));
  const extra = options.upgradeStepMs ? ['--upgrade-step-ms', String(options.upgradeStepMs)] : [];
  if (options.firmwareKey) {
    writeFileSync(join(dir, 'firmware-key.pem'), options.firmwareKey);
    extra.push('--firmware-key', join(dir, 'firmware-key.pem'));
  }
  const child = spawn(process.execPath, ['--import', 'tsx', SIMULATOR_MAIN, '--fleet', file, '--fault-rate', '0', ...extra], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return {
    process: child,
    stop() {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
