import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BatteryState, dispatchSelfConsumption, oneWayEfficiency, stepBattery, storedWh } from './battery.js';

const battery: BatteryState = {
  socPct: 50,
  capacityKwh: 10,
  maxChargeW: 5_000,
  maxDischargeW: 5_000,
  minSocPct: 10,
  maxSocPct: 95,
  roundTripEfficiency: 0.9,
};

const batteryArb: fc.Arbitrary<BatteryState> = fc
  .record({
    capacityKwh: fc.double({ min: 0.5, max: 2_000, noNaN: true }),
    maxChargeW: fc.double({ min: 0, max: 1_000_000, noNaN: true }),
    maxDischargeW: fc.double({ min: 0, max: 1_000_000, noNaN: true }),
    lo: fc.double({ min: 0, max: 100, noNaN: true }),
    hi: fc.double({ min: 0, max: 100, noNaN: true }),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    roundTripEfficiency: fc.double({ min: 0.5, max: 1, noNaN: true }),
  })
  .map(({ lo, hi, at, ...rest }) => {
    const minSocPct = Math.min(lo, hi);
    const maxSocPct = Math.max(lo, hi);
    return { ...rest, minSocPct, maxSocPct, socPct: minSocPct + at * (maxSocPct - minSocPct) };
  });

const requestArb = fc.record({
  requestedW: fc.double({ min: -2_000_000, max: 2_000_000, noNaN: true }),
  dtSeconds: fc.double({ min: 0, max: 7_200, noNaN: true }),
});

describe('stepBattery', () => {
  it('keeps SOC within [min, max] and power within limits for any request sequence', () => {
    fc.assert(
      fc.property(batteryArb, fc.array(requestArb, { maxLength: 60 }), (initial, requests) => {
        let state = initial;
        for (const { requestedW, dtSeconds } of requests) {
          const result = stepBattery(state, requestedW, dtSeconds);
          state = result.state;
          expect(state.socPct).toBeGreaterThanOrEqual(state.minSocPct);
          expect(state.socPct).toBeLessThanOrEqual(state.maxSocPct);
          expect(result.actualW).toBeLessThanOrEqual(state.maxDischargeW);
          expect(result.actualW).toBeGreaterThanOrEqual(-state.maxChargeW);
          // Never more than asked, never the opposite direction.
          expect(Math.abs(result.actualW)).toBeLessThanOrEqual(Math.abs(requestedW));
          expect(result.actualW * requestedW).toBeGreaterThanOrEqual(0);
          expect(result.chargedWh).toBeGreaterThanOrEqual(0);
          expect(result.dischargedWh).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it('stores charged energy × one-way efficiency and delivers stored energy × one-way efficiency', () => {
    fc.assert(
      fc.property(batteryArb, requestArb, (state, { requestedW, dtSeconds }) => {
        const result = stepBattery(state, requestedW, dtSeconds);
        const delta = storedWh(result.state) - storedWh(state);
        const efficiency = oneWayEfficiency(state.roundTripEfficiency);
        const tolerance = 1e-6 * Math.max(1, state.capacityKwh * 1000);
        expect(Math.abs(delta - (result.chargedWh * efficiency - result.dischargedWh / efficiency))).toBeLessThanOrEqual(tolerance);
        expect(result.chargedWh - result.dischargedWh).toBeCloseTo((-result.actualW * dtSeconds) / 3600, 6);
      }),
    );
  });

  it('returns round-trip efficiency × charged energy after a full cycle', () => {
    let state: BatteryState = { ...battery, socPct: 10 };
    let charged = 0;
    let discharged = 0;
    for (let i = 0; i < 500; i++) {
      const step = stepBattery(state, -3_000, 60);
      charged += step.chargedWh;
      state = step.state;
    }
    expect(state.socPct).toBe(95);
    for (let i = 0; i < 500; i++) {
      const step = stepBattery(state, 3_000, 60);
      discharged += step.dischargedWh;
      state = step.state;
    }
    expect(state.socPct).toBe(10);
    expect(discharged / charged).toBeCloseTo(0.9, 9);
    // 85 % of 10 kWh moved in and out.
    expect(charged * Math.sqrt(0.9)).toBeCloseTo(8_500, 6);
  });

  it('applies the power limit and the energy limit', () => {
    expect(stepBattery(battery, 20_000, 60).actualW).toBe(5_000);
    expect(stepBattery(battery, -20_000, 60).actualW).toBe(-5_000);
    // 1 kWh above the floor, one hour: at most 1 kWh × √0.9 can be delivered.
    const nearlyEmpty = stepBattery({ ...battery, socPct: 20 }, 5_000, 3_600);
    expect(nearlyEmpty.dischargedWh).toBeCloseTo(1_000 * Math.sqrt(0.9), 6);
    expect(nearlyEmpty.state.socPct).toBe(10);
  });

  it('does nothing for zero time, zero request, or a battery outside its window in that direction', () => {
    expect(stepBattery(battery, 1_000, 0).actualW).toBe(0);
    expect(stepBattery(battery, 0, 60).state).toEqual(battery);
    expect(stepBattery({ ...battery, socPct: 5 }, 1_000, 60).actualW).toBe(0);
    expect(stepBattery({ ...battery, socPct: 99 }, -1_000, 60).actualW).toBe(0);
    expect(stepBattery({ ...battery, socPct: 5 }, -1_000, 60).actualW).toBe(-1_000);
  });

  it('rejects non-finite input', () => {
    expect(() => stepBattery(battery, Number.NaN, 60)).toThrow(RangeError);
    expect(() => stepBattery(battery, 100, -1)).toThrow(RangeError);
  });
});

describe('dispatchSelfConsumption', () => {
  it('charges from surplus PV, discharges to cover load, and balances with the grid', () => {
    const sunny = dispatchSelfConsumption({ pvW: 6_000, loadW: 1_000, battery });
    expect(sunny).toEqual({ batteryW: -5_000, gridW: 0 });
    const evening = dispatchSelfConsumption({ pvW: 0, loadW: 2_000, battery });
    expect(evening).toEqual({ batteryW: 2_000, gridW: 0 });
    const empty = dispatchSelfConsumption({ pvW: 0, loadW: 2_000, battery: { ...battery, socPct: 10 } });
    expect(empty).toEqual({ batteryW: 0, gridW: 2_000 });
    const full = dispatchSelfConsumption({ pvW: 4_000, loadW: 1_000, battery: { ...battery, socPct: 95 } });
    expect(full).toEqual({ batteryW: 0, gridW: -3_000 });
  });

  it('keeps pv + import + discharge = load + export + charge, never charging from or discharging to the grid', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1_000_000, noNaN: true }),
        fc.double({ min: 0, max: 1_000_000, noNaN: true }),
        batteryArb,
        fc.double({ min: 1, max: 3_600, noNaN: true }),
        (pvW, loadW, state, dtSeconds) => {
          const { batteryW, gridW } = dispatchSelfConsumption({ pvW, loadW, battery: state, dtSeconds });
          const importW = Math.max(0, gridW);
          const exportW = Math.max(0, -gridW);
          const dischargeW = Math.max(0, batteryW);
          const chargeW = Math.max(0, -batteryW);
          const scale = Math.max(1, pvW, loadW);
          expect(Math.abs(pvW + importW + dischargeW - (loadW + exportW + chargeW))).toBeLessThanOrEqual(1e-9 * scale);
          // Self-consumption: the battery only charges from surplus and only discharges into a deficit.
          if (chargeW > 0) expect(chargeW).toBeLessThanOrEqual(pvW - loadW + 1e-9 * scale);
          if (dischargeW > 0) expect(dischargeW).toBeLessThanOrEqual(loadW - pvW + 1e-9 * scale);
          // Grid import only when the battery cannot cover the deficit, export only when it cannot absorb the surplus.
          if (importW > 1e-9 * scale) expect(dischargeW).toBeLessThanOrEqual(state.maxDischargeW);
          // The battery accepts exactly the dispatched power when stepped over the same interval.
          expect(stepBattery(state, batteryW, dtSeconds).actualW).toBe(batteryW);
        },
      ),
    );
  });
});
