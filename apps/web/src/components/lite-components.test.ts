import { describe, expect, it } from 'vitest';
import { pagerItems } from './LiteTable';
import { shownParam } from './PeriodPicker';

describe('LiteTable pager', () => {
  it('lists every page when there are few', () => {
    expect(pagerItems(1, 1)).toEqual([1]);
    expect(pagerItems(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps the first, the last and two either side of the current page, gaps between', () => {
    expect(pagerItems(1, 20)).toEqual([1, 2, 3, 'gap', 20]);
    expect(pagerItems(10, 20)).toEqual([1, 'gap', 8, 9, 10, 11, 12, 'gap', 20]);
    expect(pagerItems(20, 20)).toEqual([1, 'gap', 18, 19, 20]);
  });
});

describe('period date as the picker writes it', () => {
  it('follows the console language', () => {
    expect(shownParam('day', '2026-11-27', 'en-GB')).toBe('27/11/2026');
    expect(shownParam('day', '2026-11-27', 'de-DE')).toBe('27.11.2026');
    expect(shownParam('month', '2026-11', 'en-GB')).toBe('11/2026');
    expect(shownParam('year', '2026', 'de-DE')).toBe('2026');
  });
});
