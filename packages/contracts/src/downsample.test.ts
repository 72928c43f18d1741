import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lttb, type SeriesPoint } from './downsample.js';

describe('lttb', () => {
  it('returns the series unchanged when it is already short enough', () => {
    const series: SeriesPoint[] = [
      [0, 1],
      [1, 2],
      [2, 3],
    ];
    expect(lttb(series, 10)).toEqual(series);
  });

  it('keeps first and last points and returns exactly the threshold', () => {
    const series: SeriesPoint[] = Array.from({ length: 10_000 }, (_, i) => [i, Math.sin(i / 100)]);
    const out = lttb(series, 500);
    expect(out).toHaveLength(500);
    expect(out[0]).toEqual(series[0]);
    expect(out.at(-1)).toEqual(series.at(-1));
  });

  it('keeps a lone spike, which averaging would flatten', () => {
    const series: SeriesPoint[] = Array.from({ length: 1000 }, (_, i) => [i, i === 517 ? 100 : 0]);
    expect(lttb(series, 50).some((p) => p[1] === 100)).toBe(true);
  });

  it('keeps a gap as a gap', () => {
    const series: SeriesPoint[] = Array.from({ length: 1000 }, (_, i) => [i, i >= 400 && i < 600 ? null : 1]);
    expect(lttb(series, 100).some((p) => p[1] === null)).toBe(true);
  });

  it('returns x in increasing order and only points of the input', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: null }), { minLength: 3, maxLength: 400 }),
        fc.integer({ min: 3, max: 100 }),
        (ys, threshold) => {
          const series: SeriesPoint[] = ys.map((y, i) => [i, y]);
          const out = lttb(series, threshold);
          expect(out.length).toBeLessThanOrEqual(Math.max(threshold, series.length));
          for (let i = 1; i < out.length; i++) expect((out[i]?.[0] ?? 0) > (out[i - 1]?.[0] ?? 0)).toBe(true);
          for (const p of out) expect(series[p[0]]).toEqual(p);
        },
      ),
    );
  });

  // Its speed is measured in bench/queries.ts, not here.
  it('downsamples a year of 5-minute values to 1,000 points with the daily shape kept', () => {
    const year: SeriesPoint[] = Array.from({ length: 105_120 }, (_, i) => [
      i * 300_000,
      Math.max(0, Math.sin(((i % 288) / 288) * Math.PI * 2 - Math.PI / 2)) * 5000,
    ]);
    const out = lttb(year, 1000);
    expect(out).toHaveLength(1000);
    expect(Math.max(...out.map((p) => p[1] ?? 0))).toBeGreaterThan(4900);
  });
});
