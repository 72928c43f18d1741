import { QUICK_RANGES, type QuickRange } from '../../../lib/plant-format';

export { QUICK_RANGES, type QuickRange };

export const DEFAULT_QUICK: QuickRange = 'last7';

const QUICK_DAYS: Record<QuickRange, { back: number; days: number }> = {
  today: { back: 0, days: 1 },
  yesterday: { back: 1, days: 1 },
  last3: { back: 2, days: 3 },
  last7: { back: 6, days: 7 },
  last30: { back: 29, days: 30 },
  last60: { back: 59, days: 60 },
};

export function isQuickRange(value: string | null): value is QuickRange {
  return value !== null && (QUICK_RANGES as readonly string[]).includes(value);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** YYYY-MM-DD of a moment in the browser's time zone. */
export function localDay(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** Local midnight starting a YYYY-MM-DD day, shifted by whole days (daylight saving safe). */
function dayStart(day: string, shift = 0): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + shift);
}

export interface Period {
  /** The quick range in use, undefined for a picked range. */
  quick?: QuickRange;
  /** First and last local day (YYYY-MM-DD), both included. */
  fromDay: string;
  toDay: string;
  /** The bounds the server takes: local midnights as ISO instants, `to` exclusive. */
  from: string;
  to: string;
}

/**
 * The period the address asks for: a quick range (spec 02 §9) counted in the browser's days, or a
 * picked range of days (from/to), else the last 7 days. Days are the user's own, so the bounds go to
 * the server as instants.
 */
export function periodOf(params: { quick: string | null; from: string | null; to: string | null }, now: Date): Period {
  const today = localDay(now);
  if (params.from && params.to && DAY.test(params.from) && DAY.test(params.to) && params.from <= params.to)
    return {
      fromDay: params.from,
      toDay: params.to,
      from: dayStart(params.from).toISOString(),
      to: dayStart(params.to, 1).toISOString(),
    };
  const quick = isQuickRange(params.quick) ? params.quick : DEFAULT_QUICK;
  const { back, days } = QUICK_DAYS[quick];
  const fromDay = localDay(dayStart(today, -back));
  const toDay = localDay(dayStart(today, -back + days - 1));
  return { quick, fromDay, toDay, from: dayStart(fromDay).toISOString(), to: dayStart(toDay, 1).toISOString() };
}

/** How long an event lasted (or has lasted, while open), as days, hours and minutes. */
export function durationParts(openedAt: string, clearedAt: string | null, now: number): { d: number; h: number; m: number } {
  const minutes = Math.max(0, Math.floor(((clearedAt === null ? now : Date.parse(clearedAt)) - Date.parse(openedAt)) / 60_000));
  return { d: Math.floor(minutes / 1440), h: Math.floor((minutes % 1440) / 60), m: minutes % 60 };
}
