import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clearSkyGhi, estimateDiffuseFraction, planeOfArray, solarPosition } from './sun.js';

const MUNICH = { latitude: 48.1, longitude: 11.6 };

function maxElevationOfDay(dayIso: string, latitude: number, longitude: number): { elevationDeg: number; azimuthDeg: number } {
  const start = Date.parse(`${dayIso}T00:00:00Z`);
  let best = { elevationDeg: -90, azimuthDeg: 0 };
  for (let minute = 0; minute < 1440; minute++) {
    const position = solarPosition(new Date(start + minute * 60_000), latitude, longitude);
    if (position.elevationDeg > best.elevationDeg) best = position;
  }
  return best;
}

describe('solarPosition', () => {
  it('gives the summer-solstice noon elevation in Munich (≈ 65.3°), due south', () => {
    const noon = maxElevationOfDay('2024-06-21', MUNICH.latitude, MUNICH.longitude);
    expect(noon.elevationDeg).toBeGreaterThan(64.8);
    expect(noon.elevationDeg).toBeLessThan(65.8);
    expect(Math.abs(noon.azimuthDeg - 180)).toBeLessThan(2);
  });

  it('gives the winter-solstice noon elevation in Munich (≈ 18.5°)', () => {
    const noon = maxElevationOfDay('2024-12-21', MUNICH.latitude, MUNICH.longitude);
    expect(noon.elevationDeg).toBeGreaterThan(18);
    expect(noon.elevationDeg).toBeLessThan(19);
  });

  it('puts the sun below the horizon at local midnight', () => {
    // 22:00 UTC is midnight in Munich in summer (CEST).
    const midnight = solarPosition(new Date('2024-06-21T22:00:00Z'), MUNICH.latitude, MUNICH.longitude);
    expect(midnight.elevationDeg).toBeLessThan(0);
  });

  it('rises in the east and sets in the west', () => {
    const morning = solarPosition(new Date('2024-06-21T05:00:00Z'), MUNICH.latitude, MUNICH.longitude);
    const evening = solarPosition(new Date('2024-06-21T17:30:00Z'), MUNICH.latitude, MUNICH.longitude);
    expect(morning.azimuthDeg).toBeGreaterThan(45);
    expect(morning.azimuthDeg).toBeLessThan(110);
    expect(evening.azimuthDeg).toBeGreaterThan(250);
    expect(evening.azimuthDeg).toBeLessThan(315);
  });

  it('faces north at noon in the southern hemisphere (Sydney)', () => {
    const noon = maxElevationOfDay('2024-06-21', -33.87, 151.21);
    expect(noon.azimuthDeg < 2 || noon.azimuthDeg > 358).toBe(true);
    expect(noon.elevationDeg).toBeCloseTo(90 - 33.87 - 23.44, 0);
  });

  it('always returns elevation in [-90, 90] and azimuth in [0, 360)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) }),
        fc.double({ min: -90, max: 90, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        (ms, latitude, longitude) => {
          const { elevationDeg, azimuthDeg } = solarPosition(new Date(ms), latitude, longitude);
          expect(elevationDeg).toBeGreaterThanOrEqual(-90);
          expect(elevationDeg).toBeLessThanOrEqual(90.01);
          expect(azimuthDeg).toBeGreaterThanOrEqual(0);
          expect(azimuthDeg).toBeLessThan(360);
        },
      ),
    );
  });

  it('rejects an invalid date or latitude', () => {
    expect(() => solarPosition(new Date(Number.NaN), 0, 0)).toThrow(RangeError);
    expect(() => solarPosition(new Date(), 91, 0)).toThrow(RangeError);
  });
});

describe('clearSkyGhi', () => {
  it('is 0 with the sun at or below the horizon', () => {
    expect(clearSkyGhi(0)).toBe(0);
    expect(clearSkyGhi(-10)).toBe(0);
    expect(clearSkyGhi(Number.NaN)).toBe(0);
  });

  it('stays within (0, 1100] W/m² and grows with elevation', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 89.9, noNaN: true }), fc.double({ min: 0.01, max: 10, noNaN: true }), (e, delta) => {
        const low = clearSkyGhi(e);
        const high = clearSkyGhi(Math.min(90, e + delta));
        expect(low).toBeGreaterThan(0);
        expect(high).toBeLessThanOrEqual(1100);
        expect(high).toBeGreaterThanOrEqual(low);
      }),
    );
  });

  it('gives about 900 W/m² at 65° elevation', () => {
    expect(clearSkyGhi(65)).toBeGreaterThan(850);
    expect(clearSkyGhi(65)).toBeLessThan(950);
  });
});

describe('planeOfArray', () => {
  it('equals GHI for a horizontal panel', () => {
    const ghi = clearSkyGhi(50);
    expect(planeOfArray(ghi, 50, 180, 0, 180)).toBeCloseTo(ghi, 6);
  });

  it('is higher on a south-facing tilted panel than on the horizontal at low winter sun', () => {
    const ghi = clearSkyGhi(18);
    expect(planeOfArray(ghi, 18, 180, 35, 180)).toBeGreaterThan(1.5 * ghi);
  });

  it('drops to diffuse + ground light when the sun is behind the panel', () => {
    const ghi = clearSkyGhi(30);
    const behind = planeOfArray(ghi, 30, 0, 35, 180);
    const facing = planeOfArray(ghi, 30, 180, 35, 180);
    expect(behind).toBeGreaterThan(0);
    expect(behind).toBeLessThan(0.3 * facing);
  });

  it('is 0 at night and never negative', () => {
    expect(planeOfArray(0, -5, 0, 30, 180)).toBe(0);
    fc.assert(
      fc.property(
        fc.double({ min: -100, max: 1200, noNaN: true }),
        fc.double({ min: -20, max: 90, noNaN: true }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        fc.double({ min: 0, max: 90, noNaN: true }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        (ghi, elevation, azimuth, tilt, panelAzimuth) => {
          const poa = planeOfArray(ghi, elevation, azimuth, tilt, panelAzimuth);
          expect(poa).toBeGreaterThanOrEqual(0);
          expect(Number.isFinite(poa)).toBe(true);
          // Beam capped at 1100 W/m², so POA cannot run away at grazing sun angles.
          expect(poa).toBeLessThanOrEqual(Math.max(0, ghi) * 1.2 + 1100);
        },
      ),
    );
  });

  it('honours an explicit diffuse fraction (all diffuse → no orientation dependence)', () => {
    const east = planeOfArray(500, 40, 120, 30, 90, { diffuseFraction: 1, albedo: 0 });
    const west = planeOfArray(500, 40, 120, 30, 270, { diffuseFraction: 1, albedo: 0 });
    expect(east).toBeCloseTo(west, 9);
  });

  it('estimates a higher diffuse fraction under clouds than under a clear sky', () => {
    const clear = clearSkyGhi(45);
    expect(estimateDiffuseFraction(clear, 45)).toBeLessThan(0.2);
    expect(estimateDiffuseFraction(0.2 * clear, 45)).toBeGreaterThan(0.6);
  });
});
