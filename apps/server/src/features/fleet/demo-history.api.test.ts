import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localDayOf } from '@sunward/contracts/plant-energy';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { roleIndex } from '@sunward/protocol/positions';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { call, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { provisionDemoFleet } from './demo-fleet.js';

// The demo's history through the real path: the simulator plays two demo gateways' last nine days (one
// reading every 30 minutes, the fleet's interval here) as store-and-forward reports over MQTT: the last week, then live, then the
// older days late. The server answers
// meanwhile; afterwards the day, month and year figures follow from the readings, and the history's
// fault and warning were raised and cleared by the pipeline from the maps' event bits.

const SIMULATOR = fileURLToPath(new URL('../../../../simulator/src/main.ts', import.meta.url));
// Nine days: the last seven go before live, the two before them follow late (the backfill).
const DAYS = 9;
const INTERVAL_S = 1800;
let server: TestServer;
let token: string;
let fleet: SimulatedFleet;
let simulator: ChildProcess;
const output: string[] = [];
let answeredDuringHistory: { at: number; code: number } | undefined;
let historyDoneAt = 0;

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`condition not met in time; simulator said:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const get = async <T>(path: string, query?: Record<string, string>) => {
  const result = await call<T>(server.app, 'GET', path, { token, ...(query ? { query } : {}) });
  if (result.body.code !== 0) throw new Error(`${path}: ${JSON.stringify(result.body)}`);
  return result.body.data;
};

beforeAll(async () => {
  server = await startTestServer();
  token = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  fleet = await provisionDemoFleet(server.database.db, {
    seed: 5,
    mqttUrl: `mqtt://127.0.0.1:${server.telemetry.mqttPort}`,
    // The fleet's interval, live and in the history (shorter than the demo's 5 minutes to keep this quick).
    intervalSeconds: INTERVAL_S,
    historyDays: DAYS,
  });
  await server.telemetry.pipeline.reloadDevices();
  const file = join(mkdtempSync(join(tmpdir(), 'sunward-history-')), 'fleet.json');
  writeFileSync(file, JSON.stringify(fleet));
  simulator = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      SIMULATOR,
      '--fleet',
      file,
      '--gateways',
      '2',
      '--fault-rate',
      '0',
      '--history-days',
      String(DAYS),
      // Small bursts: the history takes long enough here to ask the server something meanwhile.
      '--history-burst',
      '4',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  simulator.stdout?.on('data', (chunk: Buffer) => {
    output.push(chunk.toString());
    if (chunk.toString().includes('demo history: done')) historyDoneAt = Date.now();
  });
  simulator.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  // While the history flows in (readings stored, not done), the console's API answers.
  await waitFor(async () => {
    const [row] = await queryRows<{ n: number }>(server.database.db, sql`select count(*)::int as n from readings`);
    return (row?.n ?? 0) > 0 ? true : undefined;
  }, 60_000);
  const answer = await call(server.app, 'GET', '/api/v1/plants', { token, query: { page: '1', size: '20' } });
  answeredDuringHistory = { at: Date.now(), code: answer.body.code };
  await waitFor(() => (historyDoneAt > 0 ? true : undefined), 120_000);
  await server.telemetry.pipeline.drain();
}, 200_000);

afterAll(async () => {
  simulator?.kill('SIGTERM');
  await server?.close();
});

describe('demo history', () => {
  it('lets the server answer while the history is still filling', () => {
    expect(answeredDuringHistory?.code).toBe(0);
    expect(answeredDuringHistory?.at ?? Number.POSITIVE_INFINITY).toBeLessThan(historyDoneAt);
    expect(output.join('')).toMatch(/demo history: every plant reports live after its last 7 days/);
    expect(output.join('')).toMatch(/demo history: done, 9 days of 2 plants/);
  });

  it('stores a reading every interval of the history for every device, the late batch included', async () => {
    const rows = await queryRows<{ sn: string; n: number; first: string }>(
      server.database.db,
      sql`select d.sn, count(*)::int as n, min(r.ts)::text as first from readings r join devices d on d.id = r.device_id group by d.sn`,
    );
    const played = fleet.gateways.slice(0, 2).flatMap((g) => g.devices.map((d) => d.sn));
    expect(rows.map((r) => r.sn).sort()).toEqual([...played].sort());
    for (const row of rows) {
      expect(row.n, row.sn).toBeGreaterThanOrEqual((DAYS * 86_400) / INTERVAL_S);
      expect(Date.now() - Date.parse(row.first)).toBeGreaterThan((DAYS - 0.1) * 86_400_000);
    }
  });

  it('has the history at the interval the gateways report at live', async () => {
    const rows = await queryRows<{ sn: string; interval: number; steps: number[] }>(
      server.database.db,
      sql`select g.sn, g.report_interval_s as interval,
                 array(select distinct (extract(epoch from s.ts - s.prev))::int from (
                   select r.ts, lag(r.ts) over (order by r.ts) as prev from readings r where r.device_id = d.id
                 ) s where s.prev is not null and s.ts < now() - interval '1 hour') as steps
          from gateways g join devices d on d.gateway_id = g.id
          where g.sn in ${fleet.gateways.slice(0, 2).map((g) => g.sn)}`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.interval, row.sn).toBe(INTERVAL_S);
      expect(row.steps, row.sn).toEqual([INTERVAL_S]);
    }
  });

  it('gives days that are the sum of the counter steps, months the sum of days, lifetime the sum of all', async () => {
    for (const gateway of fleet.gateways.slice(0, 2)) {
      const zone = gateway.plant.timezone;
      for (const device of gateway.devices.filter((d) => d.family === 'inverter' || d.family === 'hybrid_inverter')) {
        const index = roleIndex(device.protocolId, 'energy_total') ?? 0;
        const raw = await queryRows<{ ts: string; v: number | null }>(
          server.database.db,
          sql`select r.ts::text as ts, r.values[${index}]::float8 as v from readings r join devices d on d.id = r.device_id
              where d.sn = ${device.sn} order by r.ts`,
        );
        // Σ of the counter's rises, each in the plant-local day of the later reading.
        const byDay = new Map<string, number>();
        let previous: number | undefined;
        let falls = 0;
        let largestRise = 0;
        for (const r of raw) {
          if (r.v === null || Number.isNaN(Number(r.v))) continue;
          const v = Number(r.v);
          if (previous !== undefined && v < previous) falls++;
          if (previous !== undefined && v > previous) {
            largestRise = Math.max(largestRise, v - previous);
            const day = localDayOf(Date.parse(r.ts), zone);
            byDay.set(day, (byDay.get(day) ?? 0) + (v - previous));
          }
          previous = v;
        }
        const total = [...byDay.values()].reduce((a, b) => a + b, 0);
        // The first plant's first inverter had its counters replaced in the older days (they restart from zero).
        const replaced = fleet.gateways[0]?.devices.find((d) => d.family === 'inverter')?.sn === device.sn;
        expect(falls, device.sn).toBe(replaced ? 1 : 0);
        expect(total, device.sn).toBeGreaterThan(0);
        const months = [...new Set([...byDay.keys()].map((d) => d.slice(0, 7)))];
        let yearSum = 0;
        for (const month of months) {
          const bars = await get<{ labels: string[]; series: { key: string; values: (number | null)[] }[] }>(
            `/api/v1/inverter/${device.sn}/month`,
            {
              date: month,
            },
          );
          const days = bars.series.find((x) => x.key === 'WH')?.values ?? [];
          for (const [day, wh] of byDay) if (day.startsWith(month)) expect(days[bars.labels.indexOf(day)], `${device.sn} ${day}`).toBe(wh);
          const monthSum = days.reduce<number>((a, b) => a + (b ?? 0), 0);
          const year = await get<{ labels: string[]; series: { key: string; values: (number | null)[] }[] }>(
            `/api/v1/inverter/${device.sn}/year`,
            {
              date: month.slice(0, 4),
            },
          );
          expect(year.series.find((x) => x.key === 'WH')?.values[year.labels.indexOf(month)], `${device.sn} ${month}`).toBe(monthSum);
          yearSum += monthSum;
        }
        expect(yearSum, device.sn).toBe(total);
        // Lifetime: the counters started at zero when the plant went on the grid, so lifetime is its history
        // (the first counter read plus every day), also across the first plant's counter replacement.
        // The first reading comes one interval after the start: at most one interval's energy (its largest rise; in
        // daylight that can be well over 1 % of a 9-day total).
        const first = Number(raw.find((r) => r.v !== null && !Number.isNaN(Number(r.v)))?.v ?? 0);
        expect(first, device.sn).toBeLessThanOrEqual(largestRise * 1.1 + 1000);
        const list = await get<{ infos: { sn: string; energyTotalWh: number | null }[] }>('/api/v1/inverters', {
          page: '1',
          size: '20',
          keyword: device.sn,
        });
        expect(list.infos.find((r) => r.sn === device.sn)?.energyTotalWh, device.sn).toBe(first + total);
      }
    }
  });

  it('raised and cleared the history’s fault and warning through the event bits, at reading times', async () => {
    const rows = await queryRows<{ sn: string; level: string; opened: string; cleared: string | null }>(
      server.database.db,
      sql`select d.sn, e.level, e.opened_at::text as opened, e.cleared_at::text as cleared
          from device_events e join devices d on d.id = e.device_id order by e.opened_at`,
    );
    expect(rows.map((r) => r.level)).toEqual(expect.arrayContaining(['fault', 'warning']));
    for (const e of rows) {
      expect(e.cleared, `${e.sn} ${e.level}`).not.toBeNull();
      const opened = Date.parse(e.opened);
      const cleared = Date.parse(e.cleared ?? '');
      expect(cleared).toBeGreaterThan(opened);
      // Within the history, opened and cleared on the readings' half-hour grid.
      expect(Date.now() - opened).toBeLessThan(DAYS * 86_400_000);
      expect(opened % (INTERVAL_S * 1000)).toBe(0);
      expect(cleared % (INTERVAL_S * 1000)).toBe(0);
    }
  });

  it('puts the demo plants’ AC switches in the switch registry, with the smart switch and rule apps on for the company', async () => {
    const switchSns = fleet.gateways.flatMap((g) => g.devices.filter((d) => d.family === 'ac_switch').map((d) => d.sn));
    expect(switchSns.length).toBeGreaterThan(0);
    const page = await get<{ infos: { sn: string; plantName: string | null; companyId: number | null }[] }>(
      '/api/v1/acSwitch/getPageBySys',
      {
        size: '100',
      },
    );
    expect(page.infos.map((r) => r.sn).sort()).toEqual([...switchSns].sort());
    expect(page.infos.every((r) => r.plantName !== null && r.companyId !== null)).toBe(true);
    const apps = await queryRows<{ app: string; enabled: boolean }>(
      server.database.db,
      sql`select a.app, a.enabled from company_apps a join companies c on c.id = a.company_id where c.name = 'Sunward Demo Solar' order by a.app`,
    );
    expect(apps).toEqual([
      { app: 'smart_rule', enabled: true },
      { app: 'smart_switch', enabled: true },
    ]);
  });
});
