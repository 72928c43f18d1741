import { describe, expect, it } from 'vitest';
import {
  isoWeekday,
  localInstant,
  nextOccurrence,
  selfCheckWaitMs,
  tasksOverlap,
  weekdayBits,
  weekdaysOf,
} from './switch-task-schedule.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const repeat = (days: number[], time: string) => ({
  kind: 'repeat' as const,
  date: null,
  time,
  weekdays: weekdayBits(days),
  monthDay: null,
});
const single = (date: string, time: string) => ({ kind: 'single' as const, date, time, weekdays: 0, monthDay: null });

describe('switch task times in the plant’s zone', () => {
  it('reads a plant-local time in its zone', () => {
    expect(iso(localInstant('2026-07-01', '06:30', 'Europe/Berlin'))).toBe('2026-07-01T04:30:00.000Z');
    expect(iso(localInstant('2026-01-15', '06:30', 'Europe/Berlin'))).toBe('2026-01-15T05:30:00.000Z');
    expect(iso(localInstant('2026-07-01', '06:30', 'Asia/Kolkata'))).toBe('2026-07-01T01:00:00.000Z');
    expect(iso(localInstant('2026-12-01', '23:15', 'America/New_York'))).toBe('2026-12-02T04:15:00.000Z');
  });

  it('a time the clocks skip runs as far past the jump; a time that happens twice runs the first time', () => {
    // Berlin springs forward at 02:00 on 29 March 2026: 02:30 does not exist, it runs at 03:30 CEST.
    expect(iso(localInstant('2026-03-29', '02:30', 'Europe/Berlin'))).toBe('2026-03-29T01:30:00.000Z');
    // Berlin falls back at 03:00 on 25 October 2026: 02:30 happens at 00:30Z (CEST) and 01:30Z (CET).
    expect(iso(localInstant('2026-10-25', '02:30', 'Europe/Berlin'))).toBe('2026-10-25T00:30:00.000Z');
    // New York: 8 March 2026 02:15 is skipped; 1 November 01:30 happens twice.
    expect(iso(localInstant('2026-03-08', '02:15', 'America/New_York'))).toBe('2026-03-08T07:15:00.000Z');
    expect(iso(localInstant('2026-11-01', '01:30', 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
  });

  it('a repeat task runs on its weekdays at its local time, once on the night the clocks go back', () => {
    const daily = repeat([1, 2, 3, 4, 5, 6, 7], '02:30');
    const first = nextOccurrence(daily, Date.parse('2026-10-24T12:00:00Z'), 'Europe/Berlin');
    expect(iso(first)).toBe('2026-10-25T00:30:00.000Z');
    // After the first 02:30 of that night, the next is Monday's, not the repeated hour.
    expect(iso(nextOccurrence(daily, first ?? 0, 'Europe/Berlin'))).toBe('2026-10-26T01:30:00.000Z');
    // Weekdays only: from Friday evening the next is Monday.
    const workdays = repeat([1, 2, 3, 4, 5], '07:00');
    expect(iso(nextOccurrence(workdays, Date.parse('2026-11-27T18:00:00Z'), 'Europe/Berlin'))).toBe('2026-11-30T06:00:00.000Z');
    // Same-day later time.
    expect(iso(nextOccurrence(workdays, Date.parse('2026-11-27T05:00:00Z'), 'Europe/Berlin'))).toBe('2026-11-27T06:00:00.000Z');
    expect(nextOccurrence(repeat([], '07:00'), 0, 'Europe/Berlin')).toBeNull();
  });

  it('a single task has one occurrence, none once passed; a self-check runs on its day of each month', () => {
    const once = single('2026-12-24', '18:00');
    expect(iso(nextOccurrence(once, Date.parse('2026-11-27T00:00:00Z'), 'Asia/Kolkata'))).toBe('2026-12-24T12:30:00.000Z');
    expect(nextOccurrence(once, Date.parse('2026-12-24T12:30:00Z'), 'Asia/Kolkata')).toBeNull();
    const check = { kind: 'selfcheck' as const, date: null, time: '10:00', weekdays: 0, monthDay: 3 };
    expect(iso(nextOccurrence(check, Date.parse('2026-11-27T00:00:00Z'), 'UTC'))).toBe('2026-12-03T10:00:00.000Z');
    expect(iso(nextOccurrence(check, Date.parse('2026-12-03T10:00:00Z'), 'UTC'))).toBe('2027-01-03T10:00:00.000Z');
  });

  it('knows weekdays and which tasks would run at the same minute', () => {
    expect(isoWeekday('2026-11-27')).toBe(5);
    expect(isoWeekday('2026-11-29')).toBe(7);
    expect(weekdaysOf(weekdayBits([1, 3, 7]))).toEqual([1, 3, 7]);
    expect(tasksOverlap(repeat([1, 2], '07:00'), repeat([2, 3], '07:00'))).toBe(true);
    expect(tasksOverlap(repeat([1, 2], '07:00'), repeat([3, 4], '07:00'))).toBe(false);
    expect(tasksOverlap(repeat([1, 2], '07:00'), repeat([1, 2], '07:01'))).toBe(false);
    // 27 November 2026 is a Friday.
    expect(tasksOverlap(single('2026-11-27', '07:00'), repeat([5], '07:00'))).toBe(true);
    expect(tasksOverlap(single('2026-11-27', '07:00'), repeat([4], '07:00'))).toBe(false);
    expect(tasksOverlap(single('2026-11-27', '07:00'), single('2026-11-27', '07:00'))).toBe(true);
    expect(tasksOverlap(single('2026-11-27', '07:00'), single('2026-11-28', '07:00'))).toBe(false);
  });

  it('a monthly self-check: its day in the plant’s zone, late in the month too, and which tasks it meets at the same minute', () => {
    const check = (monthDay: number, time = '10:00') => ({ kind: 'selfcheck' as const, date: null, time, weekdays: 0, monthDay });
    // 28 February 2027 at 23:30 in Kolkata is 18:00 UTC; once past it, the 28th of March.
    expect(iso(nextOccurrence(check(28, '23:30'), Date.parse('2027-02-01T00:00:00Z'), 'Asia/Kolkata'))).toBe('2027-02-28T18:00:00.000Z');
    expect(iso(nextOccurrence(check(28, '23:30'), Date.parse('2027-02-28T18:00:00Z'), 'Asia/Kolkata'))).toBe('2027-03-28T18:00:00.000Z');
    expect(tasksOverlap(check(3), check(17))).toBe(true);
    expect(tasksOverlap(check(3), check(3, '10:01'))).toBe(false);
    expect(tasksOverlap(check(3), single('2026-12-03', '10:00'))).toBe(true);
    expect(tasksOverlap(check(3), single('2026-12-04', '10:00'))).toBe(false);
    expect(tasksOverlap(check(3), repeat([6], '10:00'))).toBe(true);
  });

  it('waits for a started self-check’s verdict the 10 s cut plus two of the switch’s reports, at least a minute', () => {
    expect(selfCheckWaitMs(5)).toBe(10_000 + 10 * 60_000);
    expect(selfCheckWaitMs(60)).toBe(10_000 + 120 * 60_000);
    expect(selfCheckWaitMs(0)).toBe(70_000);
  });
});
