import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCloudModel, MAX_CLEAR_SKY_INDEX, MIN_CLEAR_SKY_INDEX } from './clouds.js';
import { createRandom } from './random.js';

function day(seed: number, cloudiness: number): number[] {
  const model = createCloudModel(createRandom(seed), { cloudiness });
  const values = [model.current()];
  for (let minute = 0; minute < 12 * 60; minute++) values.push(model.step(60));
  return values;
}

const meanAbsChange = (values: number[], lag: number): number => {
  let sum = 0;
  for (let i = lag; i < values.length; i++) sum += Math.abs((values[i] ?? 0) - (values[i - lag] ?? 0));
  return sum / (values.length - lag);
};
const mean = (values: number[]): number => values.reduce((s, v) => s + v, 0) / values.length;

describe('createCloudModel', () => {
  it('always stays within [0.05, 1]', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 7200, noNaN: true }), { minLength: 1, maxLength: 200 }),
        (seed, cloudiness, steps) => {
          const model = createCloudModel(createRandom(seed), { cloudiness });
          for (const dt of steps) {
            const index = model.step(dt);
            expect(index).toBeGreaterThanOrEqual(MIN_CLEAR_SKY_INDEX);
            expect(index).toBeLessThanOrEqual(MAX_CLEAR_SKY_INDEX);
            expect(model.current()).toBe(index);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('is smooth minute to minute yet varies over the day', () => {
    for (const cloudiness of [0.2, 0.5, 0.8]) {
      for (let seed = 1; seed <= 10; seed++) {
        const values = day(seed, cloudiness);
        const oneMinute = meanAbsChange(values, 1);
        expect(oneMinute).toBeLessThan(0.08);
        // Autocorrelated: neighbouring minutes are far more alike than samples an hour apart.
        expect(oneMinute).toBeLessThan(0.5 * meanAbsChange(values, 60));
      }
    }
  });

  it('has visible dips on a partly cloudy day', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const values = day(seed, 0.4);
      expect(Math.min(...values)).toBeLessThan(0.6);
      expect(Math.max(...values)).toBeGreaterThan(0.85);
    }
  });

  it('is bright when clear and dark when overcast', () => {
    const clear = day(3, 0);
    const overcast = day(3, 1);
    expect(Math.min(...clear)).toBeGreaterThan(0.9);
    expect(mean(clear)).toBeGreaterThan(0.97);
    expect(mean(overcast)).toBeLessThan(0.35);
    expect(mean(day(3, 0.5))).toBeGreaterThan(mean(overcast));
    expect(mean(day(3, 0.5))).toBeLessThan(mean(clear));
  });

  it('is repeatable from the seed', () => {
    expect(day(11, 0.5)).toEqual(day(11, 0.5));
    expect(day(11, 0.5)).not.toEqual(day(12, 0.5));
  });

  it('does not advance on a zero step and rejects negative steps', () => {
    const model = createCloudModel(createRandom(1), { cloudiness: 0.5 });
    const before = model.step(60);
    expect(model.step(0)).toBe(before);
    expect(() => model.step(-1)).toThrow(RangeError);
  });
});
