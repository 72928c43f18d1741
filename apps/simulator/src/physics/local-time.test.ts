import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDayOfWeek, localHour } from './local-time.js';

describe('localHour', () => {
  it('puts Shanghai 6 h ahead of Berlin in summer and 7 h in winter', () => {
    const summer = new Date('2024-06-21T10:00:00Z');
    expect(localHour(summer, 'Asia/Shanghai')).toBe(18);
    expect(localHour(summer, 'Europe/Berlin')).toBe(12);
    const winter = new Date('2024-01-15T10:00:00Z');
    expect(localHour(winter, 'Asia/Shanghai') - localHour(winter, 'Europe/Berlin')).toBe(7);
  });

  it('is fractional to the millisecond', () => {
    expect(localHour(new Date('2024-03-01T08:30:00Z'), 'UTC')).toBe(8.5);
    expect(localHour(new Date('2024-03-01T08:00:36.000Z'), 'UTC')).toBeCloseTo(8.01, 12);
    expect(localHour(new Date('2024-03-01T00:00:00.500Z'), 'UTC')).toBeCloseTo(0.5 / 3600, 12);
  });

  it('handles zones with half-hour offsets and the DST change', () => {
    expect(localHour(new Date('2024-06-21T00:00:00Z'), 'Asia/Kolkata')).toBe(5.5);
    // Berlin springs forward at 01:00 UTC on 2024-03-31.
    expect(localHour(new Date('2024-03-31T00:59:00Z'), 'Europe/Berlin')).toBeCloseTo(1 + 59 / 60, 12);
    expect(localHour(new Date('2024-03-31T01:00:00Z'), 'Europe/Berlin')).toBe(3);
  });

  it('is always in [0, 24)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1980, 0, 1), max: Date.UTC(2080, 0, 1) }),
        fc.constantFrom('UTC', 'Europe/Berlin', 'Asia/Shanghai', 'America/New_York', 'Australia/Adelaide', 'Pacific/Kiritimati'),
        (ms, zone) => {
          const hour = localHour(new Date(ms), zone);
          expect(hour).toBeGreaterThanOrEqual(0);
          expect(hour).toBeLessThan(24);
        },
      ),
    );
  });

  it('rejects an unknown zone', () => {
    expect(() => localHour(new Date(), 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('localDayOfWeek', () => {
  it('can differ between zones at the same instant', () => {
    // Friday 2024-06-21 20:00 UTC: still Friday in Berlin, already Saturday in Shanghai.
    const instant = new Date('2024-06-21T20:00:00Z');
    expect(localDayOfWeek(instant, 'Europe/Berlin')).toBe(5);
    expect(localDayOfWeek(instant, 'Asia/Shanghai')).toBe(6);
    expect(localDayOfWeek(new Date('2024-06-23T12:00:00Z'), 'UTC')).toBe(0);
  });

  it('matches Date#getUTCDay in UTC', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }), (ms) => {
        const date = new Date(ms);
        expect(localDayOfWeek(date, 'UTC')).toBe(date.getUTCDay());
      }),
    );
  });
});
