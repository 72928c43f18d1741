import type { EnergyFlow } from '@sunward/contracts/plants';
import { describe, expect, it } from 'vitest';
import {
  barLabel,
  clockInZone,
  flowDirections,
  flowSeconds,
  formatMass,
  formatMoney,
  formatShare,
  lastDays,
  latestToday,
  monthsOf,
  quickOf,
  quickRange,
} from './plant-format';

const flow = (over: Partial<EnergyFlow>): EnergyFlow => ({
  ts: null,
  pvW: 0,
  loadW: 0,
  gridW: 0,
  batteryW: 0,
  soc: 50,
  gridState: 'idle',
  batteryState: 'idle',
  hasBattery: true,
  hasMeter: true,
  ...over,
});

describe('chart ranges', () => {
  it('turns quick ranges into chart ranges and back', () => {
    expect(quickRange('yesterday', '2024-03-01')).toEqual({ mode: 'day', date: '2024-02-29' });
    expect(quickRange('last30', '2024-03-01')).toEqual({ mode: 'dayBars', count: 30 });
    expect(quickOf({ mode: 'day', date: '2024-03-01' }, '2024-03-01')).toBe('today');
    expect(quickOf({ mode: 'month', month: '2024-03' }, '2024-03-01')).toBeUndefined();
  });

  it('lists the last days and the months they span', () => {
    expect(lastDays('2024-03-02', 3)).toEqual(['2024-02-29', '2024-03-01', '2024-03-02']);
    expect(monthsOf(lastDays('2024-03-02', 60))).toEqual(['2024-01', '2024-02', '2024-03']);
  });
});

describe('formatting', () => {
  it('shows plant time, money, masses and shares', () => {
    expect(clockInZone(Date.parse('2024-07-01T10:05:00Z'), 'Europe/Berlin')).toBe('12:05');
    expect(barLabel('2024-03-12', 'en-GB')).toBe('12 Mar');
    expect(barLabel('2024-03', 'en-GB')).toBe('Mar');
    expect(formatMoney(1234.5, 'EUR', 'de-DE')).toMatch(/^1\.234,50\s€$/u);
    expect(formatMoney(null, 'EUR', 'de-DE')).toBe('--');
    expect(formatMass(2500, 'en')).toEqual({ value: '2.5', unit: 't' });
    expect(formatMass(12.34, 'en')).toEqual({ value: '12.3', unit: 'kg' });
    expect(formatShare(0.584, 'en')).toBe('58.4%');
  });
});

describe('energy flow lines', () => {
  it('moves energy in from PV and a discharging battery, out to the load and a grid it sells to', () => {
    expect(flowDirections(flow({ pvW: 3000, loadW: 1200, gridState: 'selling', batteryState: 'discharging' }))).toEqual({
      pv: 'in',
      grid: 'out',
      battery: 'in',
      load: 'out',
    });
    expect(flowDirections(flow({ gridState: 'buying', batteryState: 'charging', loadW: 500 }))).toEqual({
      pv: 'none',
      grid: 'in',
      battery: 'out',
      load: 'out',
    });
    expect(flowDirections(undefined).pv).toBe('none');
  });

  it('speeds dots up with power', () => {
    expect(flowSeconds(0, 10)).toBe(3);
    expect(flowSeconds(10_000, 10)).toBe(0.6);
    expect(flowSeconds(5000, 10)).toBe(1.8);
  });
});

describe('latestToday', () => {
  it('takes the latest of the plants’ own days, not the browser’s', () => {
    const lateUtc = Date.UTC(2026, 10, 24, 20, 0); // 04:00 on the 25th in Shanghai, 15:00 on the 24th in New York
    expect(latestToday(['America/New_York'], lateUtc)).toBe('2026-11-24');
    expect(latestToday(['America/New_York', 'Asia/Shanghai'], lateUtc)).toBe('2026-11-25');
    expect(latestToday([], lateUtc)).toBe('2026-11-24');
  });
});
