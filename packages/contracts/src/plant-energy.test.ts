import { describe, expect, it } from 'vitest';
import {
  addDays,
  addSplits,
  CompareQuerySchema,
  conditionOfWmoCode,
  counterDayEnergy,
  dayCount,
  daysOfMonth,
  energyByHour,
  energyFlowOf,
  localDayOf,
  localDayStart,
  RangeQuerySchema,
  selfConsumptionRate,
  selfSufficiencyRate,
  splitEnergy,
  splitPower,
  sumOnGrid,
  zoneOffsetMs,
} from './plant-energy.js';
import { batteryState, environmentalBenefits, gridState, incomeOf, returnOnInvestment } from './plants.js';

describe('plant-local calendar', () => {
  it('finds the start of a local day across daylight-saving changes', () => {
    expect(new Date(localDayStart('2024-07-01', 'Europe/Berlin')).toISOString()).toBe('2024-06-30T22:00:00.000Z');
    expect(new Date(localDayStart('2024-01-15', 'Europe/Berlin')).toISOString()).toBe('2024-01-14T23:00:00.000Z');
    // The night clocks go forward: the day starts at +01:00 and is 23 hours long.
    const start = localDayStart('2024-03-31', 'Europe/Berlin');
    expect(new Date(start).toISOString()).toBe('2024-03-30T23:00:00.000Z');
    expect(localDayStart('2024-04-01', 'Europe/Berlin') - start).toBe(23 * 3_600_000);
    expect(new Date(localDayStart('2024-05-10', 'America/Sao_Paulo')).toISOString()).toBe('2024-05-10T03:00:00.000Z');
    expect(new Date(localDayStart('2024-05-10', 'Asia/Kolkata')).toISOString()).toBe('2024-05-09T18:30:00.000Z');
  });

  // Day lengths on the days clocks change, in both hemispheres, and where the change happens at midnight.
  it.each([
    ['Europe/Berlin', '2024-03-31', 23, '2024-03-30T23:00:00.000Z'],
    ['Europe/Berlin', '2024-10-27', 25, '2024-10-26T22:00:00.000Z'],
    ['Australia/Sydney', '2024-10-06', 23, '2024-10-05T14:00:00.000Z'],
    ['Australia/Sydney', '2024-04-07', 25, '2024-04-06T13:00:00.000Z'],
    // Santiago jumps from 00:00 to 01:00: 8 September has no midnight and begins at 01:00 -03.
    ['America/Santiago', '2024-09-08', 23, '2024-09-08T04:00:00.000Z'],
    ['America/Santiago', '2024-09-07', 24, '2024-09-07T04:00:00.000Z'],
    ['America/Santiago', '2024-04-06', 25, '2024-04-06T03:00:00.000Z'],
    ['America/Havana', '2024-03-10', 23, '2024-03-10T05:00:00.000Z'],
    ['Asia/Kolkata', '2024-03-31', 24, '2024-03-30T18:30:00.000Z'],
    ['America/Argentina/Buenos_Aires', '2024-03-31', 24, '2024-03-31T03:00:00.000Z'],
    ['Etc/GMT+5', '2024-03-31', 24, '2024-03-31T05:00:00.000Z'],
  ])('%s %s is %i hours long and begins at %s', (zone, day, hours, begins) => {
    const start = localDayStart(day, zone);
    const end = localDayStart(addDays(day, 1), zone);
    expect(new Date(start).toISOString()).toBe(begins);
    expect(end - start).toBe(hours * 3_600_000);
    // The boundaries agree with the calendar day of an instant: first and last millisecond of the day.
    expect(localDayOf(start, zone)).toBe(day);
    expect(localDayOf(start - 1, zone)).toBe(addDays(day, -1));
    expect(localDayOf(end - 1, zone)).toBe(day);
  });

  it('names the local day of an instant and the zone offset', () => {
    expect(localDayOf(Date.parse('2024-06-30T22:30:00Z'), 'Europe/Berlin')).toBe('2024-07-01');
    expect(localDayOf(Date.parse('2024-06-30T22:30:00Z'), 'UTC')).toBe('2024-06-30');
    expect(zoneOffsetMs(Date.parse('2024-06-30T12:00:00Z'), 'Asia/Tokyo')).toBe(9 * 3_600_000);
  });

  it('counts and walks calendar days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(dayCount('2024-01-01', '2024-12-31')).toBe(366);
    expect(dayCount('2024-01-02', '2024-01-01')).toBe(0);
    expect(daysOfMonth('2023-02')).toHaveLength(28);
    expect(daysOfMonth('2024-02').at(-1)).toBe('2024-02-29');
  });
});

describe('query rules', () => {
  it('accepts up to six plants to compare and refuses a seventh', () => {
    expect(CompareQuerySchema.safeParse({ ids: '1,2,3,4,5,6' }).success).toBe(true);
    expect(CompareQuerySchema.safeParse({ ids: '1,2,3,4,5,6,7' }).success).toBe(false);
    expect(CompareQuerySchema.safeParse({ ids: '1,x' }).success).toBe(false);
    expect(CompareQuerySchema.parse({ ids: '3,3,4' }).ids).toEqual([3, 4]);
  });

  it('refuses a range that ends before it starts or spans more than a year', () => {
    expect(RangeQuerySchema.safeParse({ from: '2024-01-02', to: '2024-01-01' }).success).toBe(false);
    expect(RangeQuerySchema.safeParse({ from: '2024-01-01', to: '2025-01-01' }).success).toBe(false);
    expect(RangeQuerySchema.safeParse({ from: '2024-01-01', to: '2024-12-31' }).success).toBe(true);
  });
});

describe('counter energy', () => {
  it('takes each day as its highest reading minus the previous day’s highest', () => {
    const days = [
      { day: '2024-05-01', minWh: 1000, maxWh: 1500 },
      { day: '2024-05-02', minWh: 1510, maxWh: 2100 },
      { day: '2024-05-03', minWh: null, maxWh: null },
      { day: '2024-05-04', minWh: 2100, maxWh: 2600 },
    ];
    expect(counterDayEnergy(days, null)).toEqual([
      { day: '2024-05-01', energyWh: 500 },
      { day: '2024-05-02', energyWh: 600 },
      { day: '2024-05-04', energyWh: 500 },
    ]);
    expect(counterDayEnergy(days, 900)[0]).toEqual({ day: '2024-05-01', energyWh: 600 });
  });

  it('uses the day’s own span after a counter reset', () => {
    expect(counterDayEnergy([{ day: '2024-05-02', minWh: 10, maxWh: 400 }], 90_000)).toEqual([{ day: '2024-05-02', energyWh: 390 }]);
  });
});

describe('energy split', () => {
  it('splits generation and use so that the parts add up', () => {
    const split = splitEnergy({ pvWh: 10_000, importWh: 3000, exportWh: 4000, chargeWh: 2000, dischargeWh: 1500 });
    expect(split.loadWh).toBe(10_000 + 3000 - 4000 + 1500 - 2000);
    expect((split.selfUseWh ?? 0) + (split.exportWh ?? 0)).toBe(10_000);
    expect((split.fromPvWh ?? 0) + (split.fromBatteryWh ?? 0) + (split.fromGridWh ?? 0)).toBe(split.loadWh);
    expect(split).toMatchObject({ fromGridWh: 3000, fromBatteryWh: 1500, fromPvWh: 4000 });
  });

  it('gives no battery share to a plant without a battery', () => {
    const split = splitEnergy({ pvWh: 5000, importWh: 1000, exportWh: 2000, chargeWh: null, dischargeWh: null });
    expect(split).toMatchObject({ loadWh: 4000, fromPvWh: 3000, fromGridWh: 1000, fromBatteryWh: null });
  });

  it('knows only generation without a grid measurement', () => {
    expect(splitEnergy({ pvWh: 500, importWh: null, exportWh: null, chargeWh: null, dischargeWh: null })).toEqual({
      generationWh: 500,
      selfUseWh: null,
      exportWh: null,
      loadWh: null,
      fromPvWh: null,
      fromBatteryWh: null,
      fromGridWh: null,
    });
  });

  it('splits an instant’s powers: load = PV + grid + battery', () => {
    const selling = splitPower(5000, -2000, -1000);
    expect(selling).toEqual({ loadW: 2000, selfUseW: 3000, exportW: 2000, fromPvW: 2000, fromBatteryW: 0, fromGridW: 0 });
    const night = splitPower(0, 800, 700);
    expect(night).toEqual({ loadW: 1500, selfUseW: 0, exportW: 0, fromPvW: 0, fromBatteryW: 700, fromGridW: 800 });
    // Charging the battery from the grid: the load only gets what is left of the import.
    const gridCharging = splitPower(0, 3000, -2000);
    expect(gridCharging.loadW).toBe(1000);
    expect(gridCharging.fromGridW + gridCharging.fromPvW + gridCharging.fromBatteryW).toBe(1000);
  });

  it('gives self-consumption and self-sufficiency as shares, null without their measurement', () => {
    expect(selfConsumptionRate(10_000, 4000)).toBeCloseTo(0.6);
    expect(selfConsumptionRate(10_000, null)).toBeNull();
    expect(selfConsumptionRate(0, 0)).toBeNull();
    expect(selfSufficiencyRate(8000, 2000)).toBeCloseTo(0.75);
    expect(selfSufficiencyRate(null, 2000)).toBeNull();
  });

  it('spreads a period’s energy over the hours by the power profile, evenly by day without one', () => {
    const profile = Array.from({ length: 24 }, (_, h) => (h === 11 ? 1 : h === 12 ? 3 : 0));
    const hours = energyByHour(8, profile);
    expect(hours[11]).toBeCloseTo(2);
    expect(hours[12]).toBeCloseTo(6);
    const flat = energyByHour(12, []);
    expect(flat[5]).toBe(0);
    expect(flat[6]).toBe(1);
    expect(flat.reduce((a, b) => a + b, 0)).toBeCloseTo(12);
  });
});

describe('energy flow', () => {
  it('derives load and the grid and battery states from signed powers', () => {
    const flow = energyFlowOf({ ts: null, pvW: 4000, gridW: -1500, batteryW: -500, soc: 62, hasBattery: true, hasMeter: true });
    expect(flow).toMatchObject({ loadW: 2000, gridState: 'selling', batteryState: 'charging', soc: 62 });
    const night = energyFlowOf({ ts: null, pvW: 0, gridW: 300, batteryW: 700, soc: 40, hasBattery: true, hasMeter: true });
    expect(night).toMatchObject({ loadW: 1000, gridState: 'buying', batteryState: 'discharging' });
    const gridOnly = energyFlowOf({ ts: null, pvW: 900, gridW: null, batteryW: null, soc: null, hasBattery: false, hasMeter: false });
    expect(gridOnly).toMatchObject({ loadW: null, gridW: null, batteryW: null, gridState: 'idle', batteryState: 'idle' });
  });

  it('keeps the state helpers’ sign conventions: grid + import, battery + discharge', () => {
    expect(gridState(500)).toBe('buying');
    expect(gridState(-500)).toBe('selling');
    expect(gridState(5)).toBe('idle');
    expect(batteryState(500)).toBe('discharging');
    expect(batteryState(-500)).toBe('charging');
    expect(batteryState(null)).toBe('idle');
  });
});

describe('sums on a common grid', () => {
  it('averages each series per step and adds the series', () => {
    const a = [
      [0, 100],
      [60_000, 300],
      [300_000, 50],
    ] as const;
    const b = [
      [120_000, 1000],
      [310_000, null],
    ] as const;
    expect(sumOnGrid([a, b], 300_000)).toEqual([
      [0, 1200],
      [300_000, 50],
    ]);
  });
});

describe('money and benefits from plants.ts', () => {
  it('prices time-of-use energy per hour and pays feed-in for export', () => {
    const byHourKwh = energyByHour(
      10,
      Array.from({ length: 24 }, (_, h) => (h === 8 || h === 18 ? 1 : 0)),
    );
    const tou = incomeOf(
      {
        currency: 'EUR',
        pricingMethod: 'tou',
        segments: [
          { start: '00:00', end: '12:00', price: 0.1 },
          { start: '12:00', end: '24:00', price: 0.3 },
        ],
      },
      { byHourKwh, generationKwh: 10, exportKwh: null },
    );
    expect(tou).toBeCloseTo(5 * 0.1 + 5 * 0.3);
    const feedIn = incomeOf(
      { currency: 'EUR', pricingMethod: 'generation', feedInPrice: 0.08, selfUsePrice: 0.3 },
      { byHourKwh, generationKwh: 10, exportKwh: 4 },
    );
    expect(feedIn).toBeCloseTo(4 * 0.08 + 6 * 0.3);
  });

  it('estimates payback from the average daily income', () => {
    expect(returnOnInvestment(1000, 10_000, 365)).toEqual({ roiPercent: 10, paybackYears: 10, remainingYears: 9 });
    expect(returnOnInvestment(0, undefined, 10)).toEqual({ roiPercent: null, paybackYears: null, remainingYears: null });
  });

  it('computes the benefits of generated energy', () => {
    const b = environmentalBenefits(1000, { co2KgPerKwh: 0.5, so2KgPerKwh: 0.03, coalKgPerKwh: 0.4, co2KgPerTree: 20 });
    expect(b).toEqual({ co2Kg: 500, so2Kg: 30, coalKg: 400, trees: 25 });
  });
});

describe('weather conditions', () => {
  it('maps WMO codes to the console’s conditions', () => {
    expect(conditionOfWmoCode(0)).toBe('clear');
    expect(conditionOfWmoCode(2)).toBe('partlyCloudy');
    expect(conditionOfWmoCode(63)).toBe('rain');
    expect(conditionOfWmoCode(95)).toBe('storm');
    expect(conditionOfWmoCode(null)).toBeNull();
  });
});

describe('a period’s split is the sum of its days’ splits', () => {
  it('keeps month = Σ days when a day’s export exceeds its generation (a battery exporting)', () => {
    const days = [
      { pvWh: 1000, importWh: 0, exportWh: 1500, chargeWh: 0, dischargeWh: 800 },
      { pvWh: 2000, importWh: 500, exportWh: 0, chargeWh: 0, dischargeWh: 0 },
    ];
    const month = days.map(splitEnergy).reduce(addSplits);
    expect(month.generationWh).toBe(3000);
    expect(month.exportWh).toBe(1000 + 0);
    expect(month.selfUseWh).toBe(0 + 2000);
    expect((month.fromPvWh ?? 0) + (month.fromBatteryWh ?? 0) + (month.fromGridWh ?? 0)).toBe(month.loadWh);
    // Splitting the month's sums would have said 1,500 Wh self-used: not what the days say.
    const sums = days.reduce((a, b) => ({
      pvWh: a.pvWh + b.pvWh,
      importWh: a.importWh + b.importWh,
      exportWh: a.exportWh + b.exportWh,
      chargeWh: 0,
      dischargeWh: a.dischargeWh + b.dischargeWh,
    }));
    expect(splitEnergy(sums).selfUseWh).toBe(1500);
  });

  it('keeps null where nothing measures it', () => {
    const unmetered = { pvWh: 500, importWh: null, exportWh: null, chargeWh: null, dischargeWh: null };
    expect(addSplits(splitEnergy(unmetered), splitEnergy(unmetered))).toMatchObject({ generationWh: 1000, selfUseWh: null, loadWh: null });
  });
});
