import { checkTouSegments, PLANT_LIMITS } from '@sunward/contracts/plants';
import { describe, expect, it } from 'vitest';
import {
  addTouRow,
  CLOCK_CHOICES,
  chainTouStarts,
  clockOfMinutes,
  initialTouRows,
  removeTouRow,
  type TouRow,
  touBarParts,
  touProblemField,
  touSegmentsForCheck,
} from './tou';

const rows = (...spans: [string, string, number | null][]): TouRow[] => spans.map(([start, end, price]) => ({ start, end, price }));

describe('time-of-use rows', () => {
  it('starts with one period covering the whole day', () => {
    expect(initialTouRows()).toEqual(rows(['00:00', '24:00', null]));
  });

  it('adds a row starting where the last one ends, running to 24:00', () => {
    expect(addTouRow(rows(['00:00', '08:00', 0.1]))).toEqual(rows(['00:00', '08:00', 0.1], ['08:00', '24:00', 0.1]));
  });

  it('splits a last row that already ends at 24:00, on the half hour', () => {
    expect(addTouRow(rows(['00:00', '24:00', 0.2]))).toEqual(rows(['00:00', '12:00', 0.2], ['12:00', '24:00', 0.2]));
    expect(addTouRow(rows(['00:00', '08:00', 0.1], ['08:00', '24:00', 0.3]))).toEqual(
      rows(['00:00', '08:00', 0.1], ['08:00', '16:00', 0.3], ['16:00', '24:00', 0.3]),
    );
  });

  it('keeps the day valid while adding up to the limit and no further', () => {
    let day: TouRow[] = initialTouRows().map((r) => ({ ...r, price: 0.1 }));
    for (let i = 1; i < PLANT_LIMITS.touSegmentsMax; i++) {
      day = addTouRow(day);
      expect(checkTouSegments(touSegmentsForCheck(day))).toBeNull();
    }
    expect(day).toHaveLength(PLANT_LIMITS.touSegmentsMax);
    expect(addTouRow(day)).toHaveLength(PLANT_LIMITS.touSegmentsMax);
  });

  it('gives a removed row’s hours to the row before, or the first row’s to the next from 00:00', () => {
    const day = rows(['00:00', '06:00', 1], ['06:00', '18:00', 2], ['18:00', '24:00', 3]);
    expect(removeTouRow(day, 1)).toEqual(rows(['00:00', '18:00', 1], ['18:00', '24:00', 3]));
    expect(removeTouRow(day, 2)).toEqual(rows(['00:00', '06:00', 1], ['06:00', '24:00', 2]));
    expect(removeTouRow(day, 0)).toEqual(rows(['00:00', '18:00', 2], ['18:00', '24:00', 3]));
    expect(removeTouRow(rows(['00:00', '24:00', 1]), 0)).toEqual(rows(['00:00', '24:00', 1]));
  });

  it('fills each start from the end before it when an end changes', () => {
    const edited = rows(['00:00', '07:30', 1], ['06:00', '18:00', 2], ['18:00', '22:00', 3]);
    expect(chainTouStarts(edited)).toEqual(rows(['00:00', '07:30', 1], ['07:30', '18:00', 2], ['18:00', '22:00', 3]));
  });

  it('leaves an empty or bad price to the price field, so the day check reports the times', () => {
    const day = rows(['00:00', '10:00', null], ['10:00', '22:00', 0.355]);
    expect(checkTouSegments(touSegmentsForCheck(day))).toEqual({ problem: 'lastEnd', index: 1 });
  });

  it('points each problem at the input to outline', () => {
    expect(touProblemField('lastEnd')).toBe('end');
    expect(touProblemField('gap')).toBe('start');
    expect(touProblemField('price')).toBe('price');
    expect(touProblemField('count')).toBeNull();
  });

  it('offers every half hour from 00:00 to 24:00', () => {
    expect(CLOCK_CHOICES[0]).toBe('00:00');
    expect(CLOCK_CHOICES[1]).toBe('00:30');
    expect(CLOCK_CHOICES.at(-1)).toBe('24:00');
    expect(clockOfMinutes(24 * 60 + 5)).toBe('24:00');
  });

  it('lays the periods out on the day bar with colours by relative price', () => {
    const parts = touBarParts(rows(['00:00', '06:00', 0.1], ['06:00', '18:00', 0.3], ['18:00', '24:0', 0.2]));
    expect(parts).toEqual([
      { from: 0, to: 0.25, price: 0.1, level: 0 },
      { from: 0.25, to: 0.75, price: 0.3, level: 1 },
    ]);
    expect(touBarParts(rows(['00:00', '24:00', null]))).toEqual([{ from: 0, to: 1, price: null, level: 0.5 }]);
  });
});
