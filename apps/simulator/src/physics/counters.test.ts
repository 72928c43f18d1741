import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEnergyCounter, integrate } from './counters.js';

describe('createEnergyCounter', () => {
  it('never decreases, whatever is added', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e9, noNaN: true }),
        fc.array(fc.oneof(fc.double(), fc.double({ min: -1000, max: 1000, noNaN: true })), { maxLength: 200 }),
        (initial, additions) => {
          const counter = createEnergyCounter(initial);
          let previous = counter.value();
          for (const wh of additions) {
            counter.add(wh);
            const now = counter.value();
            expect(Number.isInteger(now)).toBe(true);
            expect(now).toBeGreaterThanOrEqual(previous);
            previous = now;
          }
        },
      ),
    );
  });

  it('accumulates fractions instead of losing them', () => {
    const counter = createEnergyCounter(100);
    for (let i = 0; i < 10; i++) counter.add(0.25);
    expect(counter.value()).toBe(102);
    counter.add(-50);
    counter.add(Number.NaN);
    counter.add(Number.POSITIVE_INFINITY);
    expect(counter.value()).toBe(102);
  });

  it('starts from 0 by default and rejects a negative start', () => {
    expect(createEnergyCounter().value()).toBe(0);
    expect(() => createEnergyCounter(-1)).toThrow(RangeError);
  });
});

describe('integrate', () => {
  it('converts power over time to Wh', () => {
    expect(integrate(3_600, 1)).toBe(1);
    expect(integrate(1_000, 3_600)).toBe(1_000);
    expect(integrate(-500, 7_200)).toBe(-1_000);
  });
});
