import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPower } from './load.js';
import { createRandom } from './random.js';

// Average over many noisy samples to see the underlying profile.
function averageLoad(profile: 'household' | 'commercial', hour: number, dayOfWeek: number, baseKw = 1): number {
  const random = createRandom(Math.round(hour * 100) + dayOfWeek * 10_000);
  let sum = 0;
  const samples = 2_000;
  for (let i = 0; i < samples; i++) sum += loadPower(profile, hour, dayOfWeek, baseKw, random);
  return sum / samples;
}

const WEDNESDAY = 3;
const SUNDAY = 0;

describe('loadPower', () => {
  it('household: morning and evening peaks above the night and midday levels', () => {
    const night = averageLoad('household', 3, WEDNESDAY);
    const morning = averageLoad('household', 7, WEDNESDAY);
    const midday = averageLoad('household', 11, WEDNESDAY);
    const evening = averageLoad('household', 19.5, WEDNESDAY);
    expect(morning).toBeGreaterThan(1.5 * night);
    expect(morning).toBeGreaterThan(midday);
    expect(evening).toBeGreaterThan(morning);
    expect(evening).toBeGreaterThan(2 * night);
  });

  it('commercial: busy during weekday office hours, low at night and at weekends', () => {
    const office = averageLoad('commercial', 11, WEDNESDAY);
    const night = averageLoad('commercial', 2, WEDNESDAY);
    const sunday = averageLoad('commercial', 11, SUNDAY);
    const saturday = averageLoad('commercial', 11, 6);
    expect(office).toBeGreaterThan(3 * night);
    expect(office).toBeGreaterThan(3 * sunday);
    expect(saturday).toBeGreaterThan(sunday);
    expect(saturday).toBeLessThan(office);
  });

  it('scales with baseKw, which is the mean load of a working day', () => {
    for (const profile of ['household', 'commercial'] as const) {
      let sum = 0;
      const random = createRandom(4);
      const samples = 24 * 60 * 3;
      for (let i = 0; i < samples; i++) sum += loadPower(profile, (i * 24) / samples, WEDNESDAY, 5, random);
      const meanKw = sum / samples / 1000;
      // Household appliance spikes add a little on top of the normalised shape.
      expect(meanKw).toBeGreaterThan(4.7);
      expect(meanKw).toBeLessThan(6);
    }
  });

  it('is continuous across midnight', () => {
    const before = averageLoad('household', 23.99, WEDNESDAY);
    const after = averageLoad('household', 0.01, WEDNESDAY);
    expect(Math.abs(before - after) / before).toBeLessThan(0.1);
  });

  it('is never negative and repeatable from the seed', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('household' as const, 'commercial' as const),
        fc.double({ min: -48, max: 48, noNaN: true }),
        fc.integer({ min: -10, max: 20 }),
        fc.double({ min: 0, max: 500, noNaN: true }),
        fc.integer(),
        (profile, hour, day, baseKw, seed) => {
          const w = loadPower(profile, hour, day, baseKw, createRandom(seed));
          expect(w).toBeGreaterThanOrEqual(0);
          expect(Number.isFinite(w)).toBe(true);
          expect(loadPower(profile, hour, day, baseKw, createRandom(seed))).toBe(w);
        },
      ),
    );
  });

  it('rejects a negative base load', () => {
    expect(() => loadPower('household', 12, 1, -1, createRandom(1))).toThrow(RangeError);
  });
});
