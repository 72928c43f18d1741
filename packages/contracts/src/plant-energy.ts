/**
 * The plant overview's calls (spec 01 §7 plant/{id}/realtime, power/*, energy/flow, generation/*, use/*,
 * events, inverters, counts; weather; comparison): response schemas, query schemas, and the pure
 * arithmetic that splits energy between PV, battery, grid and load. The flow schema and the money and
 * benefit arithmetic live in plants.ts; this file builds on them.
 */
import { z } from 'zod';
import { IdParamSchema } from './ids.js';
import { batteryState, type EnergyFlow, gridState, PLANT_LIMITS, StatusCountsSchema } from './plants.js';

// ---------------------------------------------------------------------------------------------------------
// Plant-local calendar (storage is UTC; every day/month/year boundary is the plant's time zone)
// ---------------------------------------------------------------------------------------------------------

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** Offset of a time zone from UTC at an instant, in ms (Berlin in summer: +7,200,000). */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(instant))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const asUtc = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

const HOUR_MS = 3_600_000;

/**
 * The instant a plant-local day (YYYY-MM-DD) begins, correct across daylight-saving changes: the first
 * instant whose local day is `day`. Usually local midnight; where midnight does not exist (clocks jump
 * from 00:00 to 01:00: America/Santiago, America/Havana) the day begins at the jump.
 */
export function localDayStart(day: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number);
  const midnightUtc = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  const first = midnightUtc - zoneOffsetMs(midnightUtc, timeZone);
  // The offset at the guess may differ from the offset at local midnight (a change that night).
  const start = midnightUtc - zoneOffsetMs(first, timeZone);
  if (localDayOf(start, timeZone) === day && localDayOf(start - 1, timeZone) < day) return start;
  // A change at midnight: search the first instant of the day (offsets stay within ±15 h of UTC).
  let before = midnightUtc - 15 * HOUR_MS;
  let after = midnightUtc + 15 * HOUR_MS;
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (localDayOf(middle, timeZone) < day) before = middle;
    else after = middle;
  }
  return after;
}

// Every zone's offset and its changes are whole quarter-hours (Kathmandu +5:45, Chatham +12:45 included), so
// the local day is the same for a whole UTC quarter-hour: one Intl call per zone and quarter-hour instead of
// one per reading (a batch of 2,000 readings spent ~30 ms formatting dates).
const QUARTER_HOUR_MS = 15 * 60_000;
const MAX_CACHED_QUARTERS = 20_000;
const daysByQuarter = new Map<string, Map<number, string>>();

/**
 * The plant-local calendar day (YYYY-MM-DD) of an instant (ms): the one function that does this, for
 * ingest, the energy calls and the console alike.
 */
export function localDayOf(instant: number, timeZone: string): string {
  const quarter = Math.floor(instant / QUARTER_HOUR_MS);
  let byQuarter = daysByQuarter.get(timeZone);
  const cached = byQuarter?.get(quarter);
  if (cached !== undefined) return cached;
  const day = new Date(instant + zoneOffsetMs(instant, timeZone)).toISOString().slice(0, 10);
  if (!byQuarter || byQuarter.size >= MAX_CACHED_QUARTERS) {
    byQuarter = new Map();
    daysByQuarter.set(timeZone, byQuarter);
  }
  byQuarter.set(quarter, day);
  return day;
}

/** Calendar arithmetic on YYYY-MM-DD (no time zone involved). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included (0 when `to` is before `from`). */
export function dayCount(from: string, to: string): number {
  return Math.max(0, Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1);
}

/** Every day of a month (YYYY-MM), in order. */
export function daysOfMonth(month: string): string[] {
  const [y, m] = month.split('-').map(Number);
  const count = new Date(Date.UTC(y ?? 1970, m ?? 1, 0)).getUTCDate();
  return Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

export function monthsOfYear(year: number): string[] {
  return Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`);
}

// ---------------------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------------------

export const PERIODS = ['day', 'month', 'year', 'total'] as const;
export type Period = (typeof PERIODS)[number];

export const DayQuerySchema = z.object({ date: z.string().regex(DAY, 'validation.invalidFormat').optional() });
export const MonthQuerySchema = z.object({ month: z.string().regex(MONTH, 'validation.invalidFormat').optional() });
export const YearQuerySchema = z.object({ year: z.coerce.number().int().min(1970).max(2200).optional() });

/** Longest range the performance and comparison calls accept (a leap year). */
export const RANGE_DAYS_MAX = 366;

const rangeFields = {
  from: z.string().regex(DAY, 'validation.invalidFormat').optional(),
  to: z.string().regex(DAY, 'validation.invalidFormat').optional(),
};

function checkRange(range: { from?: string; to?: string }, ctx: z.RefinementCtx) {
  if (range.from && range.to) {
    if (range.to < range.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.invalidValue' });
    else if (dayCount(range.from, range.to) > RANGE_DAYS_MAX)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.invalidValue' });
  }
}

export const RangeQuerySchema = z.object(rangeFields).superRefine(checkRange);

export const EventsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(PLANT_LIMITS.pageSizeMax).default(10),
});

export const CompareQuerySchema = z
  .object({
    ids: z
      .string()
      .regex(/^\d{1,9}(,\d{1,9})*$/, 'validation.invalidFormat')
      .transform((s) => [...new Set(s.split(',').map(Number))])
      .refine((ids) => ids.length <= PLANT_LIMITS.compareMax, { message: 'validation.invalidValue' }),
    ...rangeFields,
  })
  .superRefine(checkRange);

export const WeatherQuerySchema = z.object({ plantId: IdParamSchema });

// ---------------------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------------------

export const PlantRealtimeSchema = z.object({
  /** Latest report of any of the plant's devices. */
  ts: z.string().nullable(),
  status: z.number(),
  /** PV power now (generating devices, battery discharge through hybrids excluded). */
  powerW: z.number().nullable(),
  capacityKwp: z.number(),
  energyTodayWh: z.number(),
  energyMonthWh: z.number(),
  energyYearWh: z.number(),
  /** Lifetime generation: the devices' own counters, or what was measured when they have none. */
  energyTotalWh: z.number(),
  /** kWh per kWp today. */
  specificYieldToday: z.number().nullable(),
});
export type PlantRealtime = z.infer<typeof PlantRealtimeSchema>;

export const PowerDaySchema = z.object({
  date: z.string(),
  timezone: z.string(),
  /** [epoch ms, W] on a 5-minute grid; W summed over the plant's generating devices. */
  points: z.array(z.tuple([z.number(), z.number()])),
  energyWh: z.number().nullable(),
  predictedWh: z.number().nullable(),
});
export type PowerDay = z.infer<typeof PowerDaySchema>;

export const EnergyBarSchema = z.object({
  /** YYYY-MM-DD (month view), YYYY-MM (year view) or YYYY (total view). */
  key: z.string(),
  energyWh: z.number().nullable(),
  predictedWh: z.number().nullable(),
});

export const EnergyBarsSchema = z.object({
  period: z.enum(['month', 'year', 'total']),
  timezone: z.string(),
  bars: z.array(EnergyBarSchema),
  totalWh: z.number(),
  predictedTotalWh: z.number().nullable(),
});
export type EnergyBars = z.infer<typeof EnergyBarsSchema>;

export const GenerationTotalsSchema = z.object({
  generationWh: z.number(),
  selfUseWh: z.number().nullable(),
  exportWh: z.number().nullable(),
});

export const UseTotalsSchema = z.object({
  loadWh: z.number().nullable(),
  fromPvWh: z.number().nullable(),
  fromBatteryWh: z.number().nullable(),
  fromGridWh: z.number().nullable(),
});

/**
 * Generation split into self-use and export. `metered` says the plant measures its grid connection
 * (a meter or a hybrid inverter); without it only generation is known.
 */
export const GenerationSchema = z.object({
  period: z.enum(PERIODS),
  timezone: z.string(),
  metered: z.boolean(),
  /** day: [epoch ms, self-use W, export W] every 5 minutes; other periods: none. */
  points: z.array(z.tuple([z.number(), z.number(), z.number()])),
  bars: z.array(GenerationTotalsSchema.extend({ key: z.string() })),
  totals: GenerationTotalsSchema,
});
export type Generation = z.infer<typeof GenerationSchema>;

/** What the plant's batteries charged and discharged in a period (their counters, hourly tier), Wh. */
export const BatteryEnergySchema = z.object({ chargeWh: z.number(), dischargeWh: z.number() });
export type BatteryEnergy = z.infer<typeof BatteryEnergySchema>;

export const UseSchema = z.object({
  period: z.enum(PERIODS),
  timezone: z.string(),
  metered: z.boolean(),
  /** The period's battery charge and discharge; null for a plant without storage. */
  battery: BatteryEnergySchema.nullable(),
  /** day: [epoch ms, from PV W, from battery W, from grid W] every 5 minutes. */
  points: z.array(z.tuple([z.number(), z.number(), z.number(), z.number()])),
  bars: z.array(UseTotalsSchema.extend({ key: z.string() })),
  totals: UseTotalsSchema,
});
export type Use = z.infer<typeof UseSchema>;

export const IncomeSummarySchema = z.object({
  currency: z.string().nullable(),
  pricingMethod: z.string().nullable(),
  today: z.number().nullable(),
  month: z.number().nullable(),
  year: z.number().nullable(),
  total: z.number().nullable(),
  totalInvestment: z.number().nullable(),
  /** Days from the first measured day to today: payback estimated from a few days is only a rough guess. */
  measuredDays: z.number(),
  roiPercent: z.number().nullable(),
  paybackYears: z.number().nullable(),
  remainingYears: z.number().nullable(),
});
export type IncomeSummary = z.infer<typeof IncomeSummarySchema>;

export const BenefitsSchema = z.object({
  energyKwh: z.number(),
  co2Kg: z.number(),
  so2Kg: z.number(),
  coalKg: z.number(),
  trees: z.number(),
  factors: z.object({ co2KgPerKwh: z.number(), so2KgPerKwh: z.number(), coalKgPerKwh: z.number(), co2KgPerTree: z.number() }),
});
export type BenefitsAnswer = z.infer<typeof BenefitsSchema>;

/** Each figure carries the inputs of its formula, so the console can show how it was worked out. */
export const PerformanceSchema = z.object({
  from: z.string(),
  to: z.string(),
  specificYield: z.object({ value: z.number().nullable(), energyKwh: z.number(), capacityKwp: z.number() }),
  performanceRatio: z.object({
    value: z.number().nullable(),
    energyKwh: z.number(),
    capacityKwp: z.number(),
    /** Plane-of-array (or horizontal) irradiation from the plant's weather station; null without one. */
    irradiationKwhPerM2: z.number().nullable(),
  }),
  selfConsumption: z.object({ value: z.number().nullable(), generationKwh: z.number(), exportKwh: z.number().nullable() }),
  selfSufficiency: z.object({ value: z.number().nullable(), loadKwh: z.number().nullable(), importKwh: z.number().nullable() }),
});
export type Performance = z.infer<typeof PerformanceSchema>;

export const EVENT_LEVELS = ['fault', 'warning', 'protect'] as const;

export const PlantEventSchema = z.object({
  id: z.number(),
  deviceId: z.number(),
  sn: z.string(),
  family: z.string(),
  code: z.number(),
  level: z.string(),
  /** What the event means, from the device's register map, in the caller's language (null: unknown code). */
  description: z.string().nullable(),
  openedAt: z.string(),
  clearedAt: z.string().nullable(),
});
export type PlantEvent = z.infer<typeof PlantEventSchema>;

export const PlantEventPageSchema = z.object({ total: z.number(), page: z.number(), size: z.number(), records: z.array(PlantEventSchema) });
export type PlantEventPage = z.infer<typeof PlantEventPageSchema>;

/** All events, those still open, and the open ones by level. */
export const PlantEventCountSchema = z.object({
  total: z.number(),
  open: z.number(),
  byLevel: z.object({ fault: z.number(), warning: z.number(), protect: z.number() }),
});
export type PlantEventCount = z.infer<typeof PlantEventCountSchema>;

export { type StatusCounts, StatusCountsSchema } from './plants.js';

export const PlantInverterSchema = z.object({
  id: z.number(),
  sn: z.string(),
  alias: z.string().nullable(),
  family: z.string(),
  model: z.string().nullable(),
  ratedPowerW: z.number().nullable(),
  status: z.number(),
  powerW: z.number().nullable(),
  energyTodayWh: z.number().nullable(),
  lastReportAt: z.string().nullable(),
});
export type PlantInverter = z.infer<typeof PlantInverterSchema>;

export const InverterCountSchema = z.object({ total: z.number(), byStatus: StatusCountsSchema });
export const DeviceCountSchema = z.object({
  total: z.number(),
  byFamily: z.record(z.string(), z.number()),
  byStatus: StatusCountsSchema,
});
export type DeviceCount = z.infer<typeof DeviceCountSchema>;

export const WEATHER_CONDITIONS = ['clear', 'partlyCloudy', 'cloudy', 'fog', 'drizzle', 'rain', 'snow', 'storm'] as const;
export type WeatherCondition = (typeof WEATHER_CONDITIONS)[number];

export const WeatherSchema = z.object({
  source: z.enum(['station', 'provider', 'none']),
  ts: z.string().nullable(),
  temperatureC: z.number().nullable(),
  irradianceWm2: z.number().nullable(),
  windSpeedMs: z.number().nullable(),
  humidity: z.number().nullable(),
  condition: z.enum(WEATHER_CONDITIONS).nullable(),
});
export type Weather = z.infer<typeof WeatherSchema>;

export const CompareSchema = z.object({
  from: z.string(),
  to: z.string(),
  plants: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      capacityKwp: z.number(),
      days: z.array(z.object({ day: z.string(), energyWh: z.number().nullable(), specificYield: z.number().nullable() })),
    }),
  ),
});
export type Compare = z.infer<typeof CompareSchema>;

// ---------------------------------------------------------------------------------------------------------
// Energy arithmetic (pure)
// ---------------------------------------------------------------------------------------------------------

/**
 * Energy of consecutive days from a cumulative counter's lowest and highest reading per day: the
 * highest minus the previous day's highest, or the day's own span when there is no earlier day or the
 * counter went back (a replaced device). The same rule the server's daily rollup applies.
 */
export function counterDayEnergy(
  days: readonly { day: string; minWh: number | null; maxWh: number | null }[],
  previousMaxWh: number | null,
): { day: string; energyWh: number }[] {
  const out: { day: string; energyWh: number }[] = [];
  let prev = previousMaxWh;
  for (const d of days) {
    if (d.maxWh === null) continue;
    const min = d.minWh ?? d.maxWh;
    const energy = prev === null || prev > d.maxWh ? d.maxWh - min : d.maxWh - prev;
    out.push({ day: d.day, energyWh: Math.max(0, energy) });
    prev = d.maxWh;
  }
  return out;
}

/** Energies of one period, Wh; null where the plant has nothing measuring it. */
export interface EnergyInputs {
  pvWh: number;
  importWh: number | null;
  exportWh: number | null;
  chargeWh: number | null;
  dischargeWh: number | null;
}

export interface EnergySplit {
  generationWh: number;
  selfUseWh: number | null;
  exportWh: number | null;
  loadWh: number | null;
  fromPvWh: number | null;
  fromBatteryWh: number | null;
  fromGridWh: number | null;
}

/**
 * Generation split into self-use and export, consumption into PV, battery and grid. The load is what
 * the balance leaves: PV + import − export + discharge − charge. Consumption is served by the battery's
 * discharge first, then by what was imported, the rest by PV. Parts never go below zero and add up.
 */
export function splitEnergy(e: EnergyInputs): EnergySplit {
  const generationWh = Math.max(0, e.pvWh);
  if (e.importWh === null || e.exportWh === null)
    return { generationWh, selfUseWh: null, exportWh: null, loadWh: null, fromPvWh: null, fromBatteryWh: null, fromGridWh: null };
  const exportWh = Math.min(Math.max(0, e.exportWh), generationWh);
  const importWh = Math.max(0, e.importWh);
  const dischargeWh = Math.max(0, e.dischargeWh ?? 0);
  const loadWh = Math.max(0, generationWh + importWh - exportWh + dischargeWh - Math.max(0, e.chargeWh ?? 0));
  const fromBatteryWh = Math.min(dischargeWh, loadWh);
  const fromGridWh = Math.min(importWh, loadWh - fromBatteryWh);
  return {
    generationWh,
    selfUseWh: generationWh - exportWh,
    exportWh,
    loadWh,
    fromPvWh: loadWh - fromBatteryWh - fromGridWh,
    // A plant without a battery has no battery share (rather than a share of zero).
    fromBatteryWh: e.chargeWh === null && e.dischargeWh === null ? null : fromBatteryWh,
    fromGridWh,
  };
}

/**
 * Two periods' splits added field by field. A longer period's split is the sum of its days' splits, never
 * the split of its summed inputs: splitEnergy clamps each day (export no more than that day's generation, load
 * not below zero), so splitting a month's sums would differ from the sum of its days whenever a clamp applied
 * (month = Σ days). Null (nothing measures it) stays null.
 */
export function addSplits(a: EnergySplit, b: EnergySplit): EnergySplit {
  const add = (x: number | null, y: number | null) => (x === null && y === null ? null : (x ?? 0) + (y ?? 0));
  return {
    generationWh: a.generationWh + b.generationWh,
    selfUseWh: add(a.selfUseWh, b.selfUseWh),
    exportWh: add(a.exportWh, b.exportWh),
    loadWh: add(a.loadWh, b.loadWh),
    fromPvWh: add(a.fromPvWh, b.fromPvWh),
    fromBatteryWh: add(a.fromBatteryWh, b.fromBatteryWh),
    fromGridWh: add(a.fromGridWh, b.fromGridWh),
  };
}

export interface PowerSplit {
  loadW: number;
  selfUseW: number;
  exportW: number;
  fromPvW: number;
  fromBatteryW: number;
  fromGridW: number;
}

/**
 * The same split for one instant from signed powers (grid + import, battery + discharge):
 * load = PV + grid + battery.
 */
export function splitPower(pvW: number, gridW: number, batteryW: number): PowerSplit {
  const pv = Math.max(0, pvW);
  const exportW = Math.min(pv, Math.max(0, -gridW));
  const loadW = Math.max(0, pv + gridW + batteryW);
  const fromBatteryW = Math.min(Math.max(0, batteryW), loadW);
  const fromGridW = Math.min(Math.max(0, gridW), loadW - fromBatteryW);
  return { loadW, selfUseW: pv - exportW, exportW, fromPvW: loadW - fromBatteryW - fromGridW, fromBatteryW, fromGridW };
}

/** Share of generation used on site (0..1); null without generation or an export measurement. */
export function selfConsumptionRate(generationWh: number, exportWh: number | null): number | null {
  if (exportWh === null || generationWh <= 0) return null;
  return Math.min(1, Math.max(0, (generationWh - exportWh) / generationWh));
}

/** Share of consumption not bought from the grid (0..1); null without consumption or an import measurement. */
export function selfSufficiencyRate(loadWh: number | null, importWh: number | null): number | null {
  if (loadWh === null || importWh === null || loadWh <= 0) return null;
  return Math.min(1, Math.max(0, (loadWh - importWh) / loadWh));
}

/**
 * A period's generation spread over the local hours 0..23 by the shape of the measured power (for
 * time-of-use prices). Without any power profile it is spread evenly over 06:00–18:00.
 */
export function energyByHour(generationKwh: number, profile: readonly number[]): number[] {
  const weights = Array.from({ length: 24 }, (_, h) => Math.max(0, profile[h] ?? 0));
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return Array.from({ length: 24 }, (_, h) => (h >= 6 && h < 18 ? generationKwh / 12 : 0));
  return weights.map((w) => (generationKwh * w) / sum);
}

/** The flow diagram's answer from the plant's signed powers. Load is what the balance leaves. */
export function energyFlowOf(input: {
  ts: string | null;
  pvW: number | null;
  gridW: number | null;
  batteryW: number | null;
  soc: number | null;
  hasBattery: boolean;
  hasMeter: boolean;
}): EnergyFlow {
  const pv = input.pvW === null ? null : Math.max(0, input.pvW);
  const loadW = input.hasMeter && input.gridW !== null ? Math.max(0, (pv ?? 0) + input.gridW + (input.batteryW ?? 0)) : null;
  return {
    ts: input.ts,
    pvW: pv,
    loadW,
    gridW: input.hasMeter ? input.gridW : null,
    batteryW: input.hasBattery ? input.batteryW : null,
    soc: input.hasBattery ? input.soc : null,
    gridState: gridState(input.hasMeter ? input.gridW : null),
    batteryState: batteryState(input.hasBattery ? input.batteryW : null),
    hasBattery: input.hasBattery,
    hasMeter: input.hasMeter,
  };
}

/** Adds [t, v] series on a common grid of `stepMs` (each series averaged per step first, then summed). */
export function sumOnGrid(series: readonly (readonly (readonly [number, number | null])[])[], stepMs: number): [number, number][] {
  const total = new Map<number, number>();
  for (const points of series) {
    const buckets = new Map<number, { sum: number; n: number }>();
    for (const [t, v] of points) {
      if (v === null || !Number.isFinite(v)) continue;
      const key = Math.floor(t / stepMs) * stepMs;
      const b = buckets.get(key) ?? { sum: 0, n: 0 };
      b.sum += v;
      b.n += 1;
      buckets.set(key, b);
    }
    for (const [key, b] of buckets) total.set(key, (total.get(key) ?? 0) + b.sum / b.n);
  }
  return [...total.entries()].sort((a, b) => a[0] - b[0]);
}

/** WMO weather interpretation code (as weather services report it) to the console's conditions. */
export function conditionOfWmoCode(code: number | null | undefined): WeatherCondition | null {
  if (code === null || code === undefined || !Number.isFinite(code)) return null;
  if (code === 0) return 'clear';
  if (code <= 2) return 'partlyCloudy';
  if (code === 3) return 'cloudy';
  if (code === 45 || code === 48) return 'fog';
  if (code >= 51 && code <= 57) return 'drizzle';
  if ((code >= 61 && code <= 67) || (code >= 80 && code <= 82)) return 'rain';
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) return 'snow';
  if (code >= 95) return 'storm';
  return null;
}
