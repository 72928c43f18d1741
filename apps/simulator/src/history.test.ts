import type { SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { describe, expect, it } from 'vitest';
import { activeIncident, planHistory } from './history.js';
import { createRandom } from './physics/random.js';
import { createSlots, historyProgress } from './run-history.js';

const site = { latitude: 48.1, longitude: 11.6, timezone: 'Europe/Berlin', capacityKwp: 20, plantType: 1, load: 'household' as const };
const first: SimulatedGateway = {
  sn: 'GW1',
  key: 'k',
  intervalSeconds: 300,
  plant: { name: 'One', ...site },
  devices: [
    { sn: 'IN1', protocolId: 'sunspec-inverter-3p', family: 'inverter', ratedPowerW: 20000 },
    { sn: 'MT1', protocolId: 'sunspec-meter-3p', family: 'meter' },
  ],
};
const second: SimulatedGateway = {
  ...first,
  sn: 'GW2',
  devices: [
    { sn: 'HY2', protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter', ratedPowerW: 8000 },
    { sn: 'BT2', protocolId: 'sunspec-battery-bms', family: 'battery', capacityKwh: 10 },
  ],
};
const end = Date.parse('2026-11-26T12:00:00Z');
const DAY = 86_400_000;
const plan = (gateway: SimulatedGateway, index: number, days: number) =>
  planHistory(gateway, index, { days, end, random: createRandom(3).fork(gateway.sn) });

describe('demo history plan', () => {
  it('covers the days before the start on the interval grid, the same for a seed', () => {
    const p = plan(first, 0, 60);
    expect(p.start % 300_000).toBe(0);
    expect(end - p.start).toBeGreaterThan(60 * DAY - 300_000);
    expect(end - p.start).toBeLessThanOrEqual(60 * DAY);
    expect(plan(first, 0, 60)).toEqual(p);
  });

  it('has a reading every interval the gateway reports at live, whatever that is', () => {
    expect(plan(first, 0, 60).intervalMs).toBe(first.intervalSeconds * 1000);
    const minute = plan({ ...first, intervalSeconds: 60 }, 0, 9);
    expect(minute.intervalMs).toBe(60_000);
    expect(minute.start % 60_000).toBe(0);
  });

  it('gives the first plant an inverter fault and a counter replacement, the second a warning and a late batch', () => {
    const one = plan(first, 0, 60);
    expect(one.incidents).toHaveLength(1);
    expect(one.incidents[0]).toMatchObject({ deviceSn: 'IN1', level: 'fault' });
    expect(one.counterReplacement?.deviceSn).toBe('IN1');
    expect(one.lateBatch).toBeUndefined();
    const two = plan(second, 1, 60);
    expect(two.incidents[0]?.level).toBe('warning');
    expect(two.counterReplacement).toBeUndefined();
    const late = two.lateBatch;
    expect(late && late.to - late.from).toBe(4 * 3_600_000);
    expect(late?.sendAfter).toBeLessThan(end);
    // The last week goes first, before live: the incidents and the late batch lie in it.
    expect(end - one.recentFrom).toBeLessThanOrEqual(7 * DAY);
    expect(end - one.recentFrom).toBeGreaterThan(7 * DAY - 300_000);
    expect(late?.from).toBeGreaterThanOrEqual(two.recentFrom);
    for (const p of [one, two])
      for (const i of p.incidents) {
        expect(i.from).toBeGreaterThanOrEqual(p.recentFrom);
        expect(i.to).toBeLessThan(end);
        expect(activeIncident(p, i.deviceSn, i.from)).toBe(i);
        expect(activeIncident(p, i.deviceSn, i.to)).toBeUndefined();
      }
  });

  it('replaces no counter in a short history, and sends all of it before live', () => {
    expect(plan(first, 0, 3).counterReplacement).toBeUndefined();
    expect(plan(first, 0, 3).recentFrom).toBe(plan(first, 0, 3).start);
    expect(plan(first, 0, 3).incidents).toHaveLength(1);
  });
});

describe('history runner', () => {
  it('lets a limited number of gateways send at once, the others in turn', async () => {
    const slots = createSlots(2);
    const order: string[] = [];
    await slots.acquire();
    await slots.acquire();
    const third = slots.acquire().then(() => order.push('third'));
    order.push('released');
    slots.release();
    await third;
    expect(order).toEqual(['released', 'third']);
  });

  it('logs progress in plant-days and a last line when every plant is done', () => {
    const lines: string[] = [];
    let now = 0;
    const progress = historyProgress({ gateways: 2, days: 2, write: (l) => lines.push(l), everyMs: 10, now: () => now });
    progress.readings(100);
    now = 20;
    progress.day('GW1');
    expect(lines.at(-1)).toMatch(/^demo history: 1\/4 plant-days, 0\/2 plants done, 100 readings/);
    progress.done('GW1', 2);
    now = 40;
    progress.done('GW2', 2);
    expect(lines.at(-1)).toMatch(/^demo history: done, 2 days of 2 plants, 100 readings/);
  });
});
