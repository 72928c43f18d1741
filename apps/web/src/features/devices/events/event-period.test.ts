import { catalogueProblems } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { eventTexts } from '../texts/events';
import { durationParts, localDay, periodOf } from './event-period';

describe('event list period', () => {
  const now = new Date(2024, 2, 10, 15, 30);

  it('counts quick ranges in the browser’s days, today included, the end exclusive', () => {
    const last7 = periodOf({ quick: 'last7', from: null, to: null }, now);
    expect([last7.fromDay, last7.toDay]).toEqual(['2024-03-04', '2024-03-10']);
    expect(new Date(last7.from)).toEqual(new Date(2024, 2, 4));
    expect(new Date(last7.to)).toEqual(new Date(2024, 2, 11));
    const yesterday = periodOf({ quick: 'yesterday', from: null, to: null }, now);
    expect([yesterday.fromDay, yesterday.toDay]).toEqual(['2024-03-09', '2024-03-09']);
    expect(periodOf({ quick: 'last60', from: null, to: null }, now).fromDay).toBe('2024-01-11');
  });

  it('takes a picked range of days and falls back to the last 7 days for anything else', () => {
    const picked = periodOf({ quick: null, from: '2024-02-01', to: '2024-02-29' }, now);
    expect(picked.quick).toBeUndefined();
    expect([picked.fromDay, picked.toDay]).toEqual(['2024-02-01', '2024-02-29']);
    expect(new Date(picked.to)).toEqual(new Date(2024, 2, 1));
    expect(periodOf({ quick: 'bogus', from: '2024-02-09', to: '2024-02-01' }, now).quick).toBe('last7');
    expect(localDay(now)).toBe('2024-03-10');
  });

  it('splits a duration into days, hours and minutes, counting an open event up to now', () => {
    expect(durationParts('2024-03-10T10:00:00Z', '2024-03-10T11:05:30Z', 0)).toEqual({ d: 0, h: 1, m: 5 });
    expect(durationParts('2024-03-08T10:00:00Z', null, Date.parse('2024-03-10T12:00:00Z'))).toEqual({ d: 2, h: 2, m: 0 });
  });
});

describe('event list texts', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every text translated, with the same placeholders', (language) => {
    expect(catalogueProblems(eventTexts.en, eventTexts[language], { mayEqualEnglish: () => false })).toEqual([]);
    for (const key of Object.keys(eventTexts.en)) expect(key).toMatch(/^eventList\.[A-Za-z0-9]+$/);
  });
});
