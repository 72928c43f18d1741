import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inverterAcPower, moduleTemperature, pvPower, splitMppt } from './pv.js';
import { createRandom } from './random.js';

const plant = { ambientTempC: 20, capacityKwp: 10, inverterMaxW: 9_000 };

describe('pvPower', () => {
  it('produces nothing at night, with the modules at ambient temperature', () => {
    const night = pvPower({ ...plant, poaIrradiance: 0 });
    expect(night).toEqual({ dcW: 0, acW: 0, moduleTempC: 20 });
    expect(pvPower({ ...plant, poaIrradiance: -5 }).acW).toBe(0);
  });

  it('gives plausible output at standard test conditions', () => {
    const stc = pvPower({ poaIrradiance: 1000, ambientTempC: 0, capacityKwp: 10, inverterMaxW: 20_000, windSpeed: 1 });
    // Modules at ~31 °C: 10 kWp × 0.9 derate × (1 − 0.4 % × 6) ≈ 8.8 kW DC.
    expect(stc.moduleTempC).toBeCloseTo(31.25, 5);
    expect(stc.dcW).toBeGreaterThan(8_600);
    expect(stc.dcW).toBeLessThan(9_000);
    expect(stc.acW / stc.dcW).toBeGreaterThan(0.96);
  });

  it('loses about 0.4 % per °C of module temperature', () => {
    const cool = pvPower({ ...plant, poaIrradiance: 600, ambientTempC: 10 });
    const warm = pvPower({ ...plant, poaIrradiance: 600, ambientTempC: 20 });
    expect(warm.dcW / cool.dcW).toBeCloseTo((1 - 0.004 * (warm.moduleTempC - 25)) / (1 - 0.004 * (cool.moduleTempC - 25)), 9);
    expect(warm.dcW / cool.dcW).toBeCloseTo(0.96, 2);
  });

  it('cools the modules with wind', () => {
    expect(moduleTemperature(800, 20, 5)).toBeLessThan(moduleTemperature(800, 20, 1));
    expect(moduleTemperature(800, 20, 1)).toBeCloseTo(45, 9); // the NOCT condition itself
  });

  it('never exceeds inverterMaxW and clips in bright sun', () => {
    const bright = pvPower({ ...plant, capacityKwp: 12, ambientTempC: 5, poaIrradiance: 1100 });
    expect(bright.acW).toBe(9_000);
    expect(bright.dcW).toBeGreaterThan(bright.acW);
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1500, noNaN: true }),
        fc.double({ min: -30, max: 50, noNaN: true }),
        fc.double({ min: 0.1, max: 5000, noNaN: true }),
        fc.double({ min: 0.5, max: 1.5, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        (poaIrradiance, ambientTempC, capacityKwp, ratio, windSpeed) => {
          const inverterMaxW = (capacityKwp * 1000) / ratio;
          const out = pvPower({ poaIrradiance, ambientTempC, capacityKwp, inverterMaxW, windSpeed });
          expect(out.acW).toBeGreaterThanOrEqual(0);
          expect(out.acW).toBeLessThanOrEqual(inverterMaxW);
          expect(out.acW).toBeLessThanOrEqual(out.dcW);
        },
      ),
    );
  });

  it('is monotonic in irradiance', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1400, noNaN: true }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        fc.double({ min: -30, max: 45, noNaN: true }),
        fc.double({ min: 0.1, max: 1000, noNaN: true }),
        fc.option(fc.double({ min: 0, max: 15, noNaN: true }), { nil: undefined }),
        (irradiance, extra, ambientTempC, capacityKwp, windSpeed) => {
          const inverterMaxW = capacityKwp * 900;
          const low = pvPower({ poaIrradiance: irradiance, ambientTempC, capacityKwp, inverterMaxW, windSpeed });
          const high = pvPower({ poaIrradiance: irradiance + extra, ambientTempC, capacityKwp, inverterMaxW, windSpeed });
          expect(high.acW).toBeGreaterThanOrEqual(low.acW);
          expect(high.dcW).toBeGreaterThanOrEqual(low.dcW);
        },
      ),
    );
  });
});

describe('inverterAcPower', () => {
  it('is 96–98 % efficient over the normal range and lower at low load', () => {
    for (const load of [0.2, 0.5, 0.8, 1]) {
      const efficiency = inverterAcPower(load * 10_000, 10_000) / (load * 10_000);
      expect(efficiency).toBeGreaterThan(0.96);
      expect(efficiency).toBeLessThan(0.98);
    }
    expect(inverterAcPower(300, 10_000) / 300).toBeLessThan(0.9);
    expect(inverterAcPower(10, 10_000)).toBe(0);
  });
});

describe('splitMppt', () => {
  it('splits the power across trackers with string-inverter voltages', () => {
    const random = createRandom(8);
    const trackers = splitMppt(12_000, 3, random);
    expect(trackers).toHaveLength(3);
    expect(trackers.reduce((s, t) => s + t.powerW, 0)).toBeCloseTo(12_000, 6);
    for (const t of trackers) {
      expect(t.voltageV).toBeGreaterThanOrEqual(300);
      expect(t.voltageV).toBeLessThanOrEqual(700);
      expect(t.currentA * t.voltageV).toBeCloseTo(t.powerW, 6);
      // Plausible spread: each tracker near an even share.
      expect(t.powerW).toBeGreaterThan(12_000 / 3 / 2);
      expect(t.powerW).toBeLessThan((12_000 / 3) * 1.6);
    }
  });

  it('keeps each tracker near its own voltage from sample to sample', () => {
    const random = createRandom(21);
    const first = splitMppt(5_000, 2, random);
    const second = splitMppt(5_000, 2, random);
    first.forEach((tracker, i) => {
      const again = second[i];
      expect(again).toBeDefined();
      expect(Math.abs((again?.voltageV ?? 0) - tracker.voltageV)).toBeLessThan(0.06 * tracker.voltageV);
    });
  });

  it('conserves power and respects voltage bounds for any input', () => {
    fc.assert(
      fc.property(fc.integer(), fc.double({ min: 0, max: 200_000, noNaN: true }), fc.integer({ min: 1, max: 12 }), (seed, dcW, count) => {
        const trackers = splitMppt(dcW, count, createRandom(seed));
        expect(trackers).toHaveLength(count);
        expect(trackers.reduce((s, t) => s + t.powerW, 0)).toBeCloseTo(dcW, 3);
        for (const t of trackers) {
          expect(t.powerW).toBeGreaterThanOrEqual(0);
          if (dcW > 0) {
            expect(t.voltageV).toBeGreaterThanOrEqual(300);
            expect(t.voltageV).toBeLessThanOrEqual(700);
          }
        }
      }),
    );
  });

  it('reports zeros at night and rejects a bad tracker count', () => {
    expect(splitMppt(0, 2, createRandom(1))).toEqual([
      { voltageV: 0, currentA: 0, powerW: 0 },
      { voltageV: 0, currentA: 0, powerW: 0 },
    ]);
    expect(() => splitMppt(100, 0, createRandom(1))).toThrow(RangeError);
    expect(() => splitMppt(100, 1.5, createRandom(1))).toThrow(RangeError);
  });
});
