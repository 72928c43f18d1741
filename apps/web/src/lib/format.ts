import { DeviceStatus } from '@sunward/contracts/device-status';
import { formatNumber } from '@sunward/contracts/units';

/** Status colours of the console: normal green, offline grey, warning orange, fault red. */
export const STATUS_STYLE = {
  [DeviceStatus.NORMAL]: { key: 'normal', label: 'plants.statusNormal', color: '#52c41a', tag: 'success' },
  [DeviceStatus.OFFLINE]: { key: 'offline', label: 'plants.statusOffline', color: '#8c8c8c', tag: 'default' },
  [DeviceStatus.WARNING]: { key: 'warning', label: 'plants.statusWarning', color: '#fa8c16', tag: 'warning' },
  [DeviceStatus.FAULT]: { key: 'fault', label: 'plants.statusFault', color: '#f5222d', tag: 'error' },
  [DeviceStatus.UPGRADING]: { key: 'upgrading', label: 'plants.statusUpgrading', color: '#1677ff', tag: 'processing' },
  [DeviceStatus.PROTECT]: { key: 'protect', label: 'plants.statusProtect', color: '#722ed1', tag: 'purple' },
} as const;

export type StatusStyle = (typeof STATUS_STYLE)[keyof typeof STATUS_STYLE];

const UNKNOWN_STATUS = { key: 'unknown', label: 'plants.statusUnknown', color: '#bfbfbf', tag: 'default' } as const;

export function statusStyle(status: number): StatusStyle | typeof UNKNOWN_STATUS {
  return STATUS_STYLE[status as keyof typeof STATUS_STYLE] ?? UNKNOWN_STATUS;
}

/** kWh per kWp with exactly two decimals, in the user's locale. */
export function formatSpecificYield(value: number | null | undefined, locale: string, withUnit = true): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '--';
  const number = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
  return withUnit ? `${number} kWh/kWp` : number;
}

export { formatNumber };

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 minutes ago" in the user's language; under ten seconds reads as "now". */
export function relativeTime(iso: string, now: number, locale: string): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (Math.abs(seconds) < 10) return format.format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(seconds, 'second');
}

/** The exact moment for the tooltip, in the browser's time zone. */
export function exactTime(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
}

/**
 * The dayjs pattern of a numeric date in a locale, as Intl writes it (de-DE "DD.MM.YYYY", en-GB
 * "DD/MM/YYYY", zh-CN "YYYY/MM/DD", cs-CZ "DD. MM. YYYY"): date pickers show and read dates the way the
 * rest of the page writes them. `month` drops the day (de-DE "MM.YYYY").
 */
export function datePattern(locale: string, picker: 'date' | 'month' = 'date'): string {
  const parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(
    new Date(Date.UTC(2026, 10, 26, 12)),
  );
  const date = parts
    .map((part) => {
      if (part.type === 'year') return 'YYYY';
      if (part.type === 'month') return 'MM';
      if (part.type === 'day') return 'DD';
      // Letters in a literal (a year suffix) stay text, not pattern tokens.
      return /[A-Za-z]/.test(part.value) ? `[${part.value}]` : part.value;
    })
    .join('')
    .trim();
  // A month: the same order and separators without the day.
  return picker === 'date' ? date : date.replace(/^DD[^A-Z[]*/, '').replace(/[^A-Z\]]*DD$/, '');
}
