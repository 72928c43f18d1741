import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { demoHistoryIngestSettings } from './demo-history.js';
import { simulatorArguments } from './demo-runner.js';

const DAY_MS = 86_400_000;
const base = { DATA_DIR: mkdtempSync(join(tmpdir(), 'sunward-age-')) };
const maxAgeDays = (env: Record<string, string>) => (demoHistoryIngestSettings(loadConfig({ ...base, ...env })).maxAgeMs ?? 0) / DAY_MS;

describe('MAX_REPORT_AGE_DAYS', () => {
  it('is 31 days by default, whether or not the simulator runs with a short history', () => {
    expect(maxAgeDays({ SIMULATOR: 'off' })).toBe(31);
    expect(maxAgeDays({ SIMULATOR: 'off', SIMULATOR_HISTORY_DAYS: '90' })).toBe(31);
    expect(maxAgeDays({ SIMULATOR: 'on', SIMULATOR_HISTORY_DAYS: '0' })).toBe(31);
    expect(maxAgeDays({ SIMULATOR: 'on', SIMULATOR_HISTORY_DAYS: '20' })).toBe(31);
  });

  it('covers the demo history (its days + 2) when not given', () => {
    expect(maxAgeDays({ SIMULATOR: 'on' })).toBe(62);
    expect(maxAgeDays({ SIMULATOR: 'on', SIMULATOR_HISTORY_DAYS: '120' })).toBe(122);
  });

  it('is what the operator sets, demo or not', () => {
    expect(maxAgeDays({ SIMULATOR: 'off', MAX_REPORT_AGE_DAYS: '7' })).toBe(7);
    expect(maxAgeDays({ SIMULATOR: 'on', MAX_REPORT_AGE_DAYS: '400' })).toBe(400);
    expect(maxAgeDays({ SIMULATOR: 'on', SIMULATOR_HISTORY_DAYS: '60', MAX_REPORT_AGE_DAYS: '10' })).toBe(10);
  });

  it('refuses a value that is not a whole number of days', () => {
    for (const bad of ['0', '-1', '1.5', 'week']) expect(() => loadConfig({ ...base, MAX_REPORT_AGE_DAYS: bad })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, MAX_REPORT_AGE_DAYS: 'week' })).toThrow(/MAX_REPORT_AGE_DAYS/);
  });
});

describe('the demo fleet’s interval', () => {
  it('is 5 minutes by default, live and in the history alike (no separate history interval)', () => {
    const simulator = loadConfig({ ...base, SIMULATOR_HISTORY_INTERVAL: '60' }).simulator;
    expect(simulator).toEqual({ seed: 42, intervalSeconds: 300, historyDays: 60 });
    expect(loadConfig({ ...base, SIMULATOR_INTERVAL: '60' }).simulator?.intervalSeconds).toBe(60);
  });

  it('reaches the simulator only through the fleet file, so its history and live reports share it', () => {
    const args = simulatorArguments({ fleetFile: 'f.json', mqttUrl: 'mqtt://127.0.0.1:1', seed: 42, keyFile: 'k.pem', historyDays: 60 });
    expect(args).toEqual([
      '--fleet',
      'f.json',
      '--url',
      'mqtt://127.0.0.1:1',
      '--seed',
      '42',
      '--firmware-key',
      'k.pem',
      '--history-days',
      '60',
    ]);
    expect(args.some((a) => a.includes('interval'))).toBe(false);
    expect(simulatorArguments({ fleetFile: 'f.json', mqttUrl: 'mqtt://x', seed: 1, keyFile: 'k', historyDays: 0 })).not.toContain(
      '--history-days',
    );
    // The demo's cameras, when their file was written (issue 23).
    expect(
      simulatorArguments({ fleetFile: 'f.json', mqttUrl: 'mqtt://x', seed: 1, keyFile: 'k', historyDays: 0, camerasFile: 'c.json' }).slice(
        -2,
      ),
    ).toEqual(['--cameras', 'c.json']);
  });
});
