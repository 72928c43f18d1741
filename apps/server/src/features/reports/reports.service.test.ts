import { describe, expect, it } from 'vitest';
import { currentPeriodDate, nextRunAfter, periodDays, previousPeriod } from './reports.service.js';

describe('report periods', () => {
  it('reports the previous full month, and the previous Monday to Sunday for a week', () => {
    expect(previousPeriod('monthly', '2026-03-01')).toEqual({ period: 'month', date: '2026-02', from: '2026-02-01', to: '2026-02-28' });
    expect(previousPeriod('monthly', '2026-01-15')).toEqual({ period: 'month', date: '2025-12', from: '2025-12-01', to: '2025-12-31' });
    // 2026-11-26 is a Thursday: the week before is Monday 16 to Sunday 22.
    expect(previousPeriod('weekly', '2026-11-26')).toMatchObject({ from: '2026-11-16', to: '2026-11-22' });
    // On a Monday, the week that just ended.
    expect(previousPeriod('weekly', '2026-11-23')).toMatchObject({ from: '2026-11-16', to: '2026-11-22' });
  });

  it('runs next on the 1st of the next month or next Monday, at 06:00 UTC', () => {
    expect(nextRunAfter('monthly', Date.parse('2026-12-15T10:00:00Z')).toISOString()).toBe('2027-01-01T06:00:00.000Z');
    expect(nextRunAfter('weekly', Date.parse('2026-11-26T10:00:00Z')).toISOString()).toBe('2026-11-30T06:00:00.000Z');
    expect(nextRunAfter('weekly', Date.parse('2026-11-30T07:00:00Z')).toISOString()).toBe('2026-12-07T06:00:00.000Z');
  });

  it('defaults to the current day, month or year in the plant’s zone', () => {
    const now = Date.parse('2026-12-31T23:30:00Z');
    expect(currentPeriodDate('day', now, 'Asia/Shanghai')).toBe('2027-01-01');
    expect(currentPeriodDate('month', now, 'UTC')).toBe('2026-12');
    expect(currentPeriodDate('year', now, 'Asia/Shanghai')).toBe('2027');
  });

  it('bounds a device report’s day, month (leap Februaries too) and year', () => {
    expect(periodDays('day', '2026-11-26')).toEqual({ fromDay: '2026-11-26', lastDay: '2026-11-26' });
    expect(periodDays('month', '2028-02')).toEqual({ fromDay: '2028-02-01', lastDay: '2028-02-29' });
    expect(periodDays('month', '2026-02')).toEqual({ fromDay: '2026-02-01', lastDay: '2026-02-28' });
    expect(periodDays('month', '2026-12')).toEqual({ fromDay: '2026-12-01', lastDay: '2026-12-31' });
    expect(periodDays('month', '2026-01')).toEqual({ fromDay: '2026-01-01', lastDay: '2026-01-31' });
    expect(periodDays('year', '2026')).toEqual({ fromDay: '2026-01-01', lastDay: '2026-12-31' });
  });
});
