import { type DeviceKind, inverterTypeLabel, type SectionKey } from '@sunward/contracts/devices';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { formatEnergy, formatPower } from '@sunward/contracts/units';

/** An inverter type's name, from the shared catalogue (the server's device export uses the same texts). */
export function inverterTypeName(language: Language, code: number | null | undefined): string {
  return translate(language, `devices.type.${inverterTypeLabel(code)}`);
}

/** The order sections appear on a detail page: what flows in, what flows out, then the rest. */
export const SECTION_ORDER: readonly SectionKey[] = [
  'operation',
  'input',
  'strings',
  'output',
  'grid',
  'meter',
  'battery',
  'cells',
  'eps',
  'load',
  'environment',
  'status',
  'settings',
  'other',
];

export function orderSections<T extends { key: SectionKey }>(sections: readonly T[]): T[] {
  return [...sections].sort((a, b) => SECTION_ORDER.indexOf(a.key) - SECTION_ORDER.indexOf(b.key));
}

/** Kinds shown on the "other devices" page, in its switcher's order. */
export const OTHER_KINDS = ['meter', 'optimizer', 'weather_station', 'combiner_box', 'heat_pump'] as const satisfies readonly DeviceKind[];

export function isDeviceKind(value: string | undefined): value is DeviceKind {
  return (
    value !== undefined &&
    ['inverter', 'battery', 'meter', 'optimizer', 'weather_station', 'combiner_box', 'heat_pump', 'ac_switch'].includes(value)
  );
}

/** The list a detail page goes back to. */
export function listPathOf(kind: DeviceKind): string {
  if (kind === 'inverter') return '/device/inverter';
  if (kind === 'battery') return '/device/battery';
  if (kind === 'ac_switch') return '/device/acSwitch';
  return `/device/other?kind=${kind}`;
}

export function detailPathOf(kind: DeviceKind, sn: string): string {
  return `/device/detail/${kind}/${encodeURIComponent(sn)}`;
}

export interface CellStats {
  min: number;
  max: number;
  spread: number;
  minIndex: number;
  maxIndex: number;
}

/** Lowest, highest and their spread among cell readings (nulls ignored); undefined with none. */
export function cellStats(values: readonly (number | null)[]): CellStats | undefined {
  let stats: CellStats | undefined;
  values.forEach((v, i) => {
    if (v === null) return;
    if (!stats) stats = { min: v, max: v, spread: 0, minIndex: i, maxIndex: i };
    if (v < stats.min) Object.assign(stats, { min: v, minIndex: i });
    if (v > stats.max) Object.assign(stats, { max: v, maxIndex: i });
  });
  if (stats) stats.spread = stats.max - stats.min;
  return stats;
}

/**
 * String currents that stand out from the others of a combiner box: below 70 % or above 130 % of the
 * median of the strings that carry current (a shaded, soiled or broken string). Idle boxes (median
 * under 0.5 A, night) flag nothing.
 */
export function stringOutliers(currents: readonly (number | null)[]): Set<number> {
  const present = currents.filter((c): c is number => c !== null).sort((a, b) => a - b);
  const out = new Set<number>();
  if (present.length < 3) return out;
  const mid = Math.floor(present.length / 2);
  const median = present.length % 2 ? (present[mid] ?? 0) : ((present[mid - 1] ?? 0) + (present[mid] ?? 0)) / 2;
  if (median < 0.5) return out;
  currents.forEach((c, i) => {
    if (c !== null && (c < median * 0.7 || c > median * 1.3)) out.add(i);
  });
  return out;
}

/**
 * The cell limits of the batteries the console knows (LFP cells, the simulator's and the sample maps'
 * chemistry): inside the warning band a cell is normal, between it and the limit it is near the limit, past the
 * limit it is in alarm. Absolute values, so an 11 mV spread between healthy cells paints nothing (issue 18);
 * the spread itself has its own limits (a cell drifting from its neighbours needs balancing).
 */
export const CELL_LIMITS = {
  voltage: { alarmLow: 2.5, warnLow: 2.9, warnHigh: 3.6, alarmHigh: 3.65, spreadWarn: 0.05, spreadAlarm: 0.1 },
  temperature: { alarmLow: 0, warnLow: 5, warnHigh: 45, alarmHigh: 55, spreadWarn: 5, spreadAlarm: 10 },
} as const;

export type CellLevel = 'normal' | 'warning' | 'alarm';

export function cellLevel(value: number, limits: (typeof CELL_LIMITS)[keyof typeof CELL_LIMITS]): CellLevel {
  if (value <= limits.alarmLow || value >= limits.alarmHigh) return 'alarm';
  if (value <= limits.warnLow || value >= limits.warnHigh) return 'warning';
  return 'normal';
}

export function spreadLevel(spread: number, limits: (typeof CELL_LIMITS)[keyof typeof CELL_LIMITS]): CellLevel {
  return spread >= limits.spreadAlarm ? 'alarm' : spread >= limits.spreadWarn ? 'warning' : 'normal';
}

/**
 * A point's value for display: power and energy scaled (kW, MWh...) with their unit, other numbers in
 * the locale with at most 2 decimals (the caller adds the unit), text as is.
 */
export function formatPointValue(value: number | null, text: string | null, locale: string, unit?: string | null): string {
  if (text !== null) return text;
  if (value === null) return '--';
  if (unit === 'W') return formatPower(value, locale);
  if (unit === 'Wh') return formatEnergy(value, locale);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: Math.abs(value) >= 100 ? 1 : 2 }).format(value);
}
