import { localDayOf, zoneOffsetMs } from '@sunward/contracts/plant-energy';

/*
 * When a switch's timed task runs (issue 22 part 1): plant-local dates and times to instants, across
 * daylight-saving changes. Pure functions; the scheduler stores the next instant and moves it on after each run.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface TaskTiming {
  kind: 'single' | 'repeat' | 'selfcheck';
  /** single: YYYY-MM-DD (plant-local). */
  date: string | null;
  /** HH:MM (plant-local). */
  time: string;
  /** repeat: ISO weekdays as bits (bit 1 Monday … bit 7 Sunday). */
  weekdays: number;
  /** selfcheck: the day of the month. */
  monthDay: number | null;
}

const wallMsOf = (date: string, time: string): number => {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, hh ?? 0, mm ?? 0);
};

/**
 * The instant a plant-local date and time happens. A time the clocks skip (spring forward: 02:30 in Berlin on
 * the last Sunday of March) happens when the clocks have jumped, at the same distance past the jump (03:30); a
 * time that happens twice (autumn: 02:30 in Berlin on the last Sunday of October) happens the first time only.
 */
export function localInstant(date: string, time: string, timeZone: string): number {
  const wall = wallMsOf(date, time);
  // Within a day of the wall time a zone has at most two offsets: the one before and the one after a change.
  const before = zoneOffsetMs(wall - 12 * HOUR_MS - zoneOffsetMs(wall, timeZone), timeZone);
  const after = zoneOffsetMs(wall + 12 * HOUR_MS - zoneOffsetMs(wall, timeZone), timeZone);
  const fits = [wall - before, wall - after].filter((instant) => instant + zoneOffsetMs(instant, timeZone) === wall);
  if (fits.length > 0) return Math.min(...fits);
  // Skipped: read the wall time with the offset before the jump, which lands as far past the jump.
  return wall - before;
}

/** The next calendar day of YYYY-MM-DD. */
export function nextDay(date: string): string {
  return new Date(wallMsOf(date, '00:00') + DAY_MS).toISOString().slice(0, 10);
}

/** The ISO weekday of YYYY-MM-DD: 1 Monday … 7 Sunday. */
export function isoWeekday(date: string): number {
  const day = new Date(wallMsOf(date, '00:00')).getUTCDay();
  return day === 0 ? 7 : day;
}

/** Weekday numbers (1–7) to the stored bits and back. */
export const weekdayBits = (days: readonly number[]): number => days.reduce((bits, day) => bits | (1 << day), 0);
export const weekdaysOf = (bits: number): number[] => [1, 2, 3, 4, 5, 6, 7].filter((day) => (bits & (1 << day)) !== 0);

/**
 * The first occurrence of a task strictly after `afterMs`, or null when there is none (a single task whose time
 * has passed, a repeat task without weekdays).
 */
export function nextOccurrence(task: TaskTiming, afterMs: number, timeZone: string): number | null {
  if (task.kind === 'single') {
    if (!task.date) return null;
    const at = localInstant(task.date, task.time, timeZone);
    return at > afterMs ? at : null;
  }
  let day = localDayOf(afterMs, timeZone);
  // Eight days cover every weekday once past today; a month day up to 28 comes within 62 days.
  const horizon = task.kind === 'repeat' ? 8 : 62;
  for (let i = 0; i < horizon; i++, day = nextDay(day)) {
    const matches = task.kind === 'repeat' ? (task.weekdays & (1 << isoWeekday(day))) !== 0 : Number(day.slice(8, 10)) === task.monthDay;
    if (!matches) continue;
    const at = localInstant(day, task.time, timeZone);
    if (at > afterMs) return at;
  }
  return null;
}

/**
 * Whether two tasks of a switch could run at the same plant-local minute (spec: overlapping tasks are refused):
 * same time, and a day both can fall on.
 */
export function tasksOverlap(a: TaskTiming, b: TaskTiming): boolean {
  if (a.time !== b.time) return false;
  const days = (t: TaskTiming) =>
    t.kind === 'single' ? (t.date ? 1 << isoWeekday(t.date) : 0) : t.kind === 'repeat' ? t.weekdays : 0b11111110;
  if (a.kind === 'selfcheck' || b.kind === 'selfcheck') {
    const check = a.kind === 'selfcheck' ? a : b;
    const other = a.kind === 'selfcheck' ? b : a;
    if (other.kind === 'selfcheck') return true;
    if (other.kind === 'single') return Number(other.date?.slice(8, 10)) === check.monthDay;
    return other.weekdays !== 0;
  }
  if (a.kind === 'single' && b.kind === 'single') return a.date === b.date;
  return (days(a) & days(b)) !== 0;
}

/**
 * How long a started self-check's verdict may take to come in: the 10 s cut, then the switch's next reports (its
 * upload frequency, in minutes) — two of them, so one lost report does not fail it; at least a minute.
 */
export const selfCheckWaitMs = (frequencyMinutes: number): number => 10_000 + Math.max(60_000, 2 * frequencyMinutes * 60_000);
