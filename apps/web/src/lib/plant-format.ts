import { addDays, localDayOf, localDayStart, zoneOffsetMs } from '@sunward/contracts/plant-energy';
import type { EnergyFlow } from '@sunward/contracts/plants';
import { formatNumber } from '@sunward/contracts/units';

/** What the power chart shows: one day's curve, several days' curves, days' bars, a month, a year, every year. */
export type ChartRange =
  | { mode: 'day'; date: string }
  | { mode: 'days'; count: 3 }
  | { mode: 'dayBars'; count: 7 | 30 | 60 }
  | { mode: 'month'; month: string }
  | { mode: 'year'; year: string }
  | { mode: 'total' };

export const QUICK_RANGES = ['today', 'yesterday', 'last3', 'last7', 'last30', 'last60'] as const;
export type QuickRange = (typeof QUICK_RANGES)[number];

export function quickRange(quick: QuickRange, today: string): ChartRange {
  switch (quick) {
    case 'today':
      return { mode: 'day', date: today };
    case 'yesterday':
      return { mode: 'day', date: addDays(today, -1) };
    case 'last3':
      return { mode: 'days', count: 3 };
    case 'last7':
      return { mode: 'dayBars', count: 7 };
    case 'last30':
      return { mode: 'dayBars', count: 30 };
    case 'last60':
      return { mode: 'dayBars', count: 60 };
  }
}

/** The quick range a chart range is, if it is one (to highlight its button). */
export function quickOf(range: ChartRange, today: string): QuickRange | undefined {
  if (range.mode === 'day') return range.date === today ? 'today' : range.date === addDays(today, -1) ? 'yesterday' : undefined;
  if (range.mode === 'days') return 'last3';
  if (range.mode === 'dayBars') return range.count === 7 ? 'last7' : range.count === 30 ? 'last30' : 'last60';
  return undefined;
}

/** The last `count` days up to today, oldest first. */
export function lastDays(today: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addDays(today, i - count + 1));
}

/** The months (YYYY-MM) the given days fall in, in order. */
export function monthsOf(days: readonly string[]): string[] {
  return [...new Set(days.map((d) => d.slice(0, 7)))];
}

/** Today in the plant's own time zone. */
export function plantToday(timeZone: string, now = Date.now()): string {
  return localDayOf(now, timeZone);
}

/** The latest calendar day among time zones (YYYY-MM-DD strings sort as dates); none gives UTC's. */
export function latestToday(timeZones: readonly string[], now = Date.now()): string {
  const days = timeZones.map((tz) => plantToday(tz, now));
  return days.length === 0 ? plantToday('UTC', now) : days.reduce((a, b) => (b > a ? b : a));
}

/** "14:05" at an instant in the plant's time zone (charts show plant time, not the browser's). */
export function clockInZone(instant: number, timeZone: string): string {
  const local = new Date(instant + zoneOffsetMs(instant, timeZone));
  return `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
}

/** "12 Mar 14:05" for multi-day curves, in the plant's time zone and the user's language. */
export function dayClockInZone(instant: number, timeZone: string, locale: string): string {
  const day = new Intl.DateTimeFormat(locale, { timeZone, day: 'numeric', month: 'short' }).format(new Date(instant));
  return `${day} ${clockInZone(instant, timeZone)}`;
}

/**
 * An x axis in plant time: positions are ms since the first day's local midnight, so ticks every 3 or
 * 12 hours fall on the plant's own clock (a time axis would place them on the browser's clock).
 */
export function plantTimeAxis(firstDay: string, dayCount: number, timeZone: string, locale: string) {
  const base = localDayStart(firstDay, timeZone);
  const end = localDayStart(addDays(firstDay, dayCount), timeZone);
  const label = (offset: number) =>
    dayCount === 1 ? clockInZone(base + offset, timeZone) : dayClockInZone(base + offset, timeZone, locale);
  return { base, span: end - base, interval: (dayCount === 1 ? 3 : 12) * 3_600_000, label };
}

/** A day key (YYYY-MM-DD) as "12 Mar", a month key (YYYY-MM) as "Mar", a year key as is. */
export function barLabel(key: string, locale: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(key))
    return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', day: 'numeric', month: 'short' }).format(new Date(`${key}T12:00:00Z`));
  if (/^\d{4}-\d{2}$/.test(key))
    return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'short' }).format(new Date(`${key}-15T12:00:00Z`));
  return key;
}

/** Money in the tariff's currency and the user's language; '--' without a value. */
export function formatMoney(value: number | null | undefined, currency: string | null, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value) || !currency) return '--';
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 2 }).format(value);
  } catch {
    return `${formatNumber(value, locale, 2)} ${currency}`;
  }
}

/** A mass in kg, shown in t from 1,000 kg. */
export function formatMass(kg: number, locale: string): { value: string; unit: 'kg' | 't' } {
  return kg >= 1000 ? { value: formatNumber(kg / 1000, locale, 2), unit: 't' } : { value: formatNumber(kg, locale, 1), unit: 'kg' };
}

/** A share 0..1 as a percentage, '--' without one. */
export function formatShare(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '--';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(value);
}

export type FlowLine = 'pv' | 'grid' | 'battery' | 'load';

/** Which way energy moves on each line of the diagram: toward the centre ('in'), away ('out'), or not at all. */
export type FlowDirection = 'in' | 'out' | 'none';

const MOVING_W = 10;

export function flowDirections(flow: EnergyFlow | undefined): Record<FlowLine, FlowDirection> {
  if (!flow) return { pv: 'none', grid: 'none', battery: 'none', load: 'none' };
  return {
    pv: (flow.pvW ?? 0) >= MOVING_W ? 'in' : 'none',
    grid: flow.gridState === 'buying' ? 'in' : flow.gridState === 'selling' ? 'out' : 'none',
    battery: flow.batteryState === 'discharging' ? 'in' : flow.batteryState === 'charging' ? 'out' : 'none',
    load: (flow.loadW ?? 0) >= MOVING_W ? 'out' : 'none',
  };
}

/** Seconds a dot takes along a line: faster with more power relative to the plant's size (0.6 s to 3 s). */
export function flowSeconds(powerW: number | null, capacityKwp: number): number {
  const share = capacityKwp > 0 && powerW !== null ? Math.min(1, Math.abs(powerW) / (capacityKwp * 1000)) : 0;
  return Math.round((3 - share * 2.4) * 10) / 10;
}
