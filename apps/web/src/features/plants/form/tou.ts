import { isPrice, minutesOfClock, PLANT_LIMITS, type TouProblem, type TouSegment } from '@sunward/contracts/plants';

/**
 * The time-of-use editor's row arithmetic, pure so it is tested apart from the form. Rows keep the
 * day covered as the user edits: a new row starts where the last one ends, a removed row's hours go
 * to its neighbour, and changing an end moves the next row's start with it. The rules themselves are
 * `checkTouSegments` from contracts (the server's); nothing here decides what is valid.
 */
export interface TouRow {
  start: string;
  end: string;
  /** Empty until the user types one. */
  price: number | null;
}

export const DAY_START = '00:00';
export const DAY_END = '24:00';
const DAY_MINUTES = 24 * 60;

export function clockOfMinutes(minutes: number): string {
  const bounded = Math.max(0, Math.min(DAY_MINUTES, Math.round(minutes)));
  return `${String(Math.floor(bounded / 60)).padStart(2, '0')}:${String(bounded % 60).padStart(2, '0')}`;
}

/** Choices the time fields offer (every half hour, then 24:00); any other HH:mm may be typed. */
export const CLOCK_CHOICES: readonly string[] = Array.from({ length: 49 }, (_, i) => clockOfMinutes(i * 30));

/** A whole day at one price: the editor's first row. */
export function initialTouRows(): TouRow[] {
  return [{ start: DAY_START, end: DAY_END, price: null }];
}

const isClock = (value: string) => /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/.test(value);

/**
 * Appends a row starting where the last ends and running to 24:00. When the last row already ends at
 * 24:00 it is split at its middle (on the half hour), so the new row has hours of its own.
 */
export function addTouRow(rows: readonly TouRow[]): TouRow[] {
  if (rows.length >= PLANT_LIMITS.touSegmentsMax) return [...rows];
  const last = rows[rows.length - 1];
  if (!last) return initialTouRows();
  if (last.end !== DAY_END && isClock(last.end)) return [...rows, { start: last.end, end: DAY_END, price: last.price }];
  const from = isClock(last.start) ? minutesOfClock(last.start) : 0;
  const middle = Math.round((from + DAY_MINUTES) / 2 / 30) * 30;
  if (middle <= from || middle >= DAY_MINUTES) return [...rows];
  const split = clockOfMinutes(middle);
  return [...rows.slice(0, -1), { ...last, end: split }, { start: split, end: DAY_END, price: last.price }];
}

/** Removes a row; its hours go to the row before (or, for the first row, to the row after, from 00:00). */
export function removeTouRow(rows: readonly TouRow[], index: number): TouRow[] {
  if (rows.length <= 1 || index < 0 || index >= rows.length) return [...rows];
  const removed = rows[index] as TouRow;
  const next = rows.filter((_, i) => i !== index);
  if (index === 0) {
    const first = next[0] as TouRow;
    next[0] = { ...first, start: DAY_START };
  } else {
    const previous = next[index - 1] as TouRow;
    next[index - 1] = { ...previous, end: removed.end };
  }
  return next;
}

/** Every row after the first starts where the one before ends; the first starts at 00:00. */
export function chainTouStarts(rows: readonly TouRow[]): TouRow[] {
  return rows.map((row, i) => ({ ...row, start: i === 0 ? DAY_START : (rows[i - 1]?.end ?? row.start) }));
}

/**
 * The rows as the server's rule sees them for the day's coverage: an empty or bad price is the price
 * field's own concern (shown beside it), so it must not hide a problem with the times.
 */
export function touSegmentsForCheck(rows: readonly (Partial<TouRow> | undefined)[]): TouSegment[] {
  return rows.map((row) => ({
    start: row?.start ?? '',
    end: row?.end ?? '',
    price: typeof row?.price === 'number' && isPrice(row.price) ? row.price : 0,
  }));
}

/** Which input of the row a problem points at, to outline it in red. */
export function touProblemField(problem: TouProblem): 'start' | 'end' | 'price' | null {
  switch (problem) {
    case 'firstStart':
    case 'gap':
      return 'start';
    case 'lastEnd':
    case 'order':
    case 'format':
      return 'end';
    case 'price':
      return 'price';
    case 'count':
      return null;
  }
}

export interface TouBarPart {
  /** Share of the day, 0–1. */
  from: number;
  to: number;
  price: number | null;
  /** 0–1 between the day's lowest and highest price, for the colour. */
  level: number;
}

/** The parts of the 24-hour bar: readable rows only (a half-typed time is left out until it is a time). */
export function touBarParts(rows: readonly (Partial<TouRow> | undefined)[]): TouBarPart[] {
  const parts = rows
    .filter((row): row is Partial<TouRow> => row !== undefined && isClock(row.start ?? '') && isClock(row.end ?? ''))
    .map((row) => ({ from: minutesOfClock(row.start as string), to: minutesOfClock(row.end as string), price: row.price ?? null }))
    .filter((part) => part.to > part.from);
  const prices = parts.map((p) => p.price).filter((p): p is number => p !== null);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  return parts.map((part) => ({
    from: part.from / DAY_MINUTES,
    to: part.to / DAY_MINUTES,
    price: part.price,
    level: part.price === null || high <= low ? 0.5 : (part.price - low) / (high - low),
  }));
}
