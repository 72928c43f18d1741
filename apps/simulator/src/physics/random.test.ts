import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandom, hashLabel } from './random.js';

const take = <T>(count: number, next: () => T): T[] => Array.from({ length: count }, next);

describe('createRandom', () => {
  it('repeats the same sequence for the same seed', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const a = createRandom(seed);
        const b = createRandom(seed);
        expect(take(20, a.next)).toEqual(take(20, b.next));
      }),
    );
  });

  it('gives different sequences for different seeds', () => {
    expect(take(5, createRandom(1).next)).not.toEqual(take(5, createRandom(2).next));
  });

  it('stays in [0, 1) and is roughly uniform', () => {
    const random = createRandom(42);
    const values = take(20_000, random.next);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    expect(mean).toBeGreaterThan(0.49);
    expect(mean).toBeLessThan(0.51);
  });

  it('draws normal samples with the requested mean and standard deviation', () => {
    const random = createRandom(7);
    const values = take(20_000, () => random.normal(10, 2));
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
    expect(mean).toBeCloseTo(10, 1);
    expect(sd).toBeGreaterThan(1.95);
    expect(sd).toBeLessThan(2.05);
    expect(values.every(Number.isFinite)).toBe(true);
  });

  it('int covers both bounds inclusively and nothing else', () => {
    const random = createRandom(3);
    const seen = new Set(take(2_000, () => random.int(-2, 3)));
    expect([...seen].sort((a, b) => a - b)).toEqual([-2, -1, 0, 1, 2, 3]);
    expect(() => random.int(0.2, 0.8)).toThrow(RangeError);
  });

  it('pick returns elements of the list and rejects an empty list', () => {
    const random = createRandom(5);
    const items = ['a', 'b', 'c'] as const;
    const seen = new Set<string>(take(300, () => random.pick(items)));
    expect(seen).toEqual(new Set(items));
    expect(() => random.pick([])).toThrow(RangeError);
  });

  it('forks repeatably, independent of how much the parent has been used', () => {
    const parent = createRandom(99);
    const before = take(10, parent.fork('inverter-1').next);
    take(1_000, parent.next);
    const after = take(10, parent.fork('inverter-1').next);
    expect(after).toEqual(before);
    expect(take(10, createRandom(99).fork('inverter-1').next)).toEqual(before);
  });

  it('forks with different labels or seeds are different streams', () => {
    const a = take(10, createRandom(99).fork('inverter-1').next);
    const b = take(10, createRandom(99).fork('inverter-2').next);
    const c = take(10, createRandom(100).fork('inverter-1').next);
    const parent = take(10, createRandom(99).next);
    expect(a).not.toEqual(b);
    expect(a).not.toEqual(c);
    expect(a).not.toEqual(parent);
  });

  it('forked streams are uncorrelated', () => {
    const a = take(10_000, createRandom(1).fork('a').next);
    const b = take(10_000, createRandom(1).fork('b').next);
    const mean = (xs: number[]): number => xs.reduce((s, v) => s + v, 0) / xs.length;
    const ma = mean(a);
    const mb = mean(b);
    let cov = 0;
    for (let i = 0; i < a.length; i++) cov += ((a[i] ?? 0) - ma) * ((b[i] ?? 0) - mb);
    const correlation = cov / a.length / (1 / 12);
    expect(Math.abs(correlation)).toBeLessThan(0.05);
  });

  it('hashLabel spreads labels over 32 bits', () => {
    const hashes = new Set(Array.from({ length: 1_000 }, (_, i) => hashLabel(1, `device-${i}`)));
    expect(hashes.size).toBe(1_000);
    expect([...hashes].every((h) => Number.isInteger(h) && h >= 0 && h < 2 ** 32)).toBe(true);
  });

  it('rejects a non-finite seed', () => {
    expect(() => createRandom(Number.NaN)).toThrow(RangeError);
  });
});
