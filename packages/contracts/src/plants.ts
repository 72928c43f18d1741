/**
 * Plants (spec 02 §3 Plant, §5 Plants, §6 sharing; spec 01 §7 plant calls): the request and response
 * shapes of every plant call, the rules both the wizard and the server apply, and the pure money and
 * benefit arithmetic. One file so the console and the server cannot drift apart.
 */

import { z } from 'zod';
import { PlantType } from './device-status.js';
import { IdSchema } from './ids.js';
import { isPhone, isPlainText, isSerialNumber, isUnitPrice } from './validators.js';

// ---------------------------------------------------------------------------------------------------------
// Limits (spec 02 §5 Plants, §9)
// ---------------------------------------------------------------------------------------------------------

export const PLANT_LIMITS = {
  nameMin: 5,
  nameMax: 32,
  capacityMinKwp: 0.01,
  capacityMaxKwp: 50_000,
  priceMax: 9999,
  /** "Value fields at most 9999999.00" (spec 02 §5): total investment. */
  valueMax: 9_999_999,
  touSegmentsMax: 6,
  /** Plant picture: 3 MB by default; PLANT_PICTURE_MAX_MB=6 allows the other reading. */
  pictureMaxBytesDefault: 3 * 1024 * 1024,
  pictureTypes: ['image/jpeg', 'image/png'] as readonly string[],
  pictureExtensions: ['jpg', 'jpeg', 'png'] as readonly string[],
  /** Generation download and export (spec 02 §5). */
  downloadRowsMax: 20_000,
  compareMax: 6,
  searchHistoryMax: 10,
  pageSizeMax: 100,
  gatewaysPerPlantMax: 20,
  textMax: 64,
  addressMax: 200,
} as const;

export const PLANT_TYPES = [PlantType.GRID, PlantType.AC_COUPLED_STORAGE, PlantType.DC_COUPLED_STORAGE] as const;

export function isStoragePlant(type: number): boolean {
  return type === PlantType.AC_COUPLED_STORAGE || type === PlantType.DC_COUPLED_STORAGE;
}

/**
 * The built-in currencies (ISO 4217): the dictionary starts with them; platform administrators add more
 * (issue 24), so a plant's currency is any three-letter code the dictionary offers (checked by the server).
 */
export const CURRENCIES = [
  'EUR',
  'USD',
  'CNY',
  'GBP',
  'AUD',
  'BRL',
  'CZK',
  'PLN',
  'TRY',
  'VND',
  'INR',
  'JPY',
  'ZAR',
  'MXN',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'HUF',
  'RON',
  'CAD',
  'CLP',
  'PKR',
  'PHP',
  'THB',
  'MYR',
  'IDR',
  'KRW',
  'AED',
  'SAR',
  'EGP',
  'NGN',
  'KES',
  'UAH',
] as const;
export type Currency = (typeof CURRENCIES)[number];

/** A currency code as the dictionary keeps it. */
export const CURRENCY_CODE = /^[A-Z]{3}$/;

// ---------------------------------------------------------------------------------------------------------
// Field rules, pure so the form checks them as the user types
// ---------------------------------------------------------------------------------------------------------

export function isPlantName(value: string): boolean {
  const length = [...value].length;
  return length >= PLANT_LIMITS.nameMin && length <= PLANT_LIMITS.nameMax && isPlainText(value) && value.trim() === value;
}

/** Decimal places of a number as typed (1.5 → 1, 2 → 0). */
export function decimalPlaces(value: number): number {
  const text = String(value);
  if (text.includes('e')) return Number.POSITIVE_INFINITY;
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

export function isCapacityKwp(value: number): boolean {
  return (
    Number.isFinite(value) && value >= PLANT_LIMITS.capacityMinKwp && value <= PLANT_LIMITS.capacityMaxKwp && decimalPlaces(value) <= 3
  );
}

/** Prices: 0–9999, at most two decimals. */
export function isPrice(value: number): boolean {
  return Number.isFinite(value) && value >= 0 && value <= PLANT_LIMITS.priceMax && isUnitPrice(value);
}

export function isMoneyValue(value: number): boolean {
  return Number.isFinite(value) && value >= 0 && value <= PLANT_LIMITS.valueMax && isUnitPrice(value);
}

export function isLatitude(value: number): boolean {
  return Number.isFinite(value) && value >= -90 && value <= 90;
}

export function isLongitude(value: number): boolean {
  return Number.isFinite(value) && value >= -180 && value <= 180;
}

/** "HH:mm" on the quarter hour grid the picker offers is not required: any minute is fine; 24:00 ends a day. */
const CLOCK = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

export function minutesOfClock(value: string): number {
  const [h, m] = value.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

export interface TouSegment {
  start: string;
  end: string;
  price: number;
}

export type TouProblem = 'count' | 'format' | 'firstStart' | 'lastEnd' | 'gap' | 'order' | 'price';

/**
 * Time-of-use segments (spec 02 §5): 1–6, contiguous from 00:00, each ending after it starts, the
 * last ending at 24:00, each price valid. Returns the first problem and the segment it is in.
 */
export function checkTouSegments(segments: readonly TouSegment[]): { problem: TouProblem; index: number } | null {
  if (segments.length === 0 || segments.length > PLANT_LIMITS.touSegmentsMax) return { problem: 'count', index: 0 };
  for (const [index, s] of segments.entries()) {
    if (!CLOCK.test(s.start) || !CLOCK.test(s.end) || s.start === '24:00') return { problem: 'format', index };
    if (index === 0 && s.start !== '00:00') return { problem: 'firstStart', index };
    if (minutesOfClock(s.end) <= minutesOfClock(s.start)) return { problem: 'order', index };
    const previous = segments[index - 1];
    if (previous && previous.end !== s.start) return { problem: 'gap', index };
    if (!isPrice(s.price)) return { problem: 'price', index };
  }
  if (segments[segments.length - 1]?.end !== '24:00') return { problem: 'lastEnd', index: segments.length - 1 };
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Schemas: requests
// ---------------------------------------------------------------------------------------------------------

const plainText = (max: number) => z.string().max(max).refine(isPlainText, { message: 'validation.specialCharacters' });

export const GatewayBindingSchema = z.object({
  sn: z.string().min(1).refine(isSerialNumber, { message: 'validation.invalidFormat' }),
  key: z.string().min(1).refine(isSerialNumber, { message: 'validation.invalidFormat' }),
});
export type GatewayBinding = z.infer<typeof GatewayBindingSchema>;

/** POST /api/v1/gateways/check answers this for a gateway that may be bound: whether it is online and what it reports. */
export const GatewayCheckSchema = z.object({ sn: z.string(), online: z.boolean(), deviceCount: z.number() });
export type GatewayCheck = z.infer<typeof GatewayCheckSchema>;

export const PricingMethod = { CONSTANT: 'constant', TIME_OF_USE: 'tou', GENERATION: 'generation' } as const;
export const PRICING_METHODS = ['constant', 'tou', 'generation'] as const;
export type PricingMethodValue = (typeof PRICING_METHODS)[number];

const priceSchema = z.number().refine(isPrice, { message: 'validation.price' });

/**
 * The tariff. constant: one price per kWh generated. tou: a price per time segment of the plant's
 * local day. generation: a feed-in price for exported energy and a self-use price for energy the
 * site consumed itself (docs/decisions.md, "pricing by generation").
 */
export const TariffSchema = z
  .object({
    currency: z.string().regex(CURRENCY_CODE),
    pricingMethod: z.enum(PRICING_METHODS),
    price: priceSchema.optional(),
    segments: z
      .array(z.object({ start: z.string(), end: z.string(), price: z.number() }))
      .max(PLANT_LIMITS.touSegmentsMax)
      .optional(),
    feedInPrice: priceSchema.optional(),
    selfUsePrice: priceSchema.optional(),
    totalInvestment: z.number().refine(isMoneyValue, { message: 'validation.money' }).optional(),
  })
  .superRefine((tariff, ctx) => {
    if (tariff.pricingMethod === 'constant' && tariff.price === undefined)
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'validation.required' });
    if (tariff.pricingMethod === 'generation') {
      if (tariff.feedInPrice === undefined) ctx.addIssue({ code: 'custom', path: ['feedInPrice'], message: 'validation.required' });
      if (tariff.selfUsePrice === undefined) ctx.addIssue({ code: 'custom', path: ['selfUsePrice'], message: 'validation.required' });
    }
    if (tariff.pricingMethod === 'tou') {
      const problem = checkTouSegments(tariff.segments ?? []);
      if (problem) ctx.addIssue({ code: 'custom', path: ['segments', problem.index], message: `validation.tou.${problem.problem}` });
    }
  });
export type Tariff = z.infer<typeof TariffSchema>;

export const METERING_TOPOLOGIES = ['gross', 'net'] as const;
export type MeteringTopology = (typeof METERING_TOPOLOGIES)[number];

/** The plant's own fields, as the wizard's third step and the edit page send them. */
export const PlantFieldsSchema = z.object({
  name: z.string().refine(isPlantName, { message: 'validation.plantName' }),
  alias: plainText(PLANT_LIMITS.nameMax).optional(),
  capacityKwp: z.number().refine(isCapacityKwp, { message: 'validation.capacity' }),
  plantType: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  gridDate: z.iso.date().optional(),
  /** Checked by the service rather than here so a bad coordinate answers code 10 (spec 02 §8). */
  latitude: z.number(),
  longitude: z.number(),
  address: z.string().max(PLANT_LIMITS.addressMax).optional(),
  region: plainText(PLANT_LIMITS.textMax).optional(),
  timezone: z.string().min(1).max(64),
  picture: z.string().max(300).optional(),
  contactName: plainText(PLANT_LIMITS.textMax).optional(),
  contactPhone: z.string().refine(isPhone, { message: 'validation.phone' }).optional(),
  installer: plainText(PLANT_LIMITS.textMax).optional(),
  ownerName: plainText(PLANT_LIMITS.textMax).optional(),
  meteringTopology: z.enum(METERING_TOPOLOGIES).default('gross'),
});
export type PlantFields = z.infer<typeof PlantFieldsSchema>;

/** POST /api/v1/plant: the three wizard steps in one call, stored in one transaction. */
export const PlantCreateSchema = PlantFieldsSchema.extend({
  gateways: z.array(GatewayBindingSchema).min(1).max(PLANT_LIMITS.gatewaysPerPlantMax),
  tariff: TariffSchema,
});
export type PlantCreate = z.infer<typeof PlantCreateSchema>;

/** POST /api/v1/plant/{id}: the plant's fields; the tariff has its own call (income). */
export const PlantUpdateSchema = PlantFieldsSchema;

export const PLANT_SORT_FIELDS = [
  'name',
  'capacityKwp',
  'powerW',
  'energyTodayWh',
  'energyTotalWh',
  'specificYield',
  'status',
  'lastUpdateAt',
  'createdAt',
] as const;
export type PlantSortField = (typeof PLANT_SORT_FIELDS)[number];

const csvNumbers = z
  .string()
  .regex(/^\d+(,\d+)*$/)
  .transform((s) => s.split(',').map(Number));

/** GET /api/v1/plants: the list query; search and filters are served by the database. */
export const PlantListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(PLANT_LIMITS.pageSizeMax).default(20),
  keyword: z.string().max(64).optional(),
  status: csvNumbers.optional(),
  plantType: csvNumbers.optional(),
  capacityMin: z.coerce.number().min(0).optional(),
  capacityMax: z.coerce.number().min(0).optional(),
  region: z.string().max(64).optional(),
  gridDateFrom: z.iso.date().optional(),
  gridDateTo: z.iso.date().optional(),
  sort: z.enum(PLANT_SORT_FIELDS).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type PlantListQuery = z.input<typeof PlantListQuerySchema>;

export const ShareRoles = ['guest', 'maintainer'] as const;
export type ShareRole = (typeof ShareRoles)[number];

export const PlantShareSchema = z.object({ account: z.string().min(1).max(64), role: z.enum(ShareRoles) });
export const PlantCancelShareSchema = z.object({ userId: IdSchema });
export const PlantTransferSchema = z.object({ account: z.string().min(1).max(64), password: z.string().min(1).max(128) });

// ---------------------------------------------------------------------------------------------------------
// Schemas: responses
// ---------------------------------------------------------------------------------------------------------

/** What a caller may do with one plant (the server decides; the console only hides buttons by it). */
export const PLANT_ACCESS_LEVELS = ['view', 'operate', 'manage'] as const;
export type PlantAccessLevel = (typeof PLANT_ACCESS_LEVELS)[number];

export const PlantRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  picture: z.string().nullable(),
  plantType: z.number(),
  capacityKwp: z.number(),
  status: z.number(),
  powerW: z.number().nullable(),
  energyTodayWh: z.number().nullable(),
  energyTotalWh: z.number().nullable(),
  /** kWh per kWp today. */
  specificYield: z.number().nullable(),
  lastUpdateAt: z.string().nullable(),
  region: z.string().nullable(),
  address: z.string().nullable(),
  timezone: z.string(),
  createdAt: z.string(),
  /** 'manage' for owners and their company, 'view' or 'operate' for shared plants. */
  access: z.enum(PLANT_ACCESS_LEVELS),
  shared: z.boolean(),
});
export type PlantRow = z.infer<typeof PlantRowSchema>;

export const PlantPageSchema = z.object({ total: z.number(), page: z.number(), size: z.number(), records: z.array(PlantRowSchema) });
export type PlantPage = z.infer<typeof PlantPageSchema>;

/** How many plants or devices are in each status of spec 01 §4. */
export const StatusCountsSchema = z.object({
  normal: z.number(),
  offline: z.number(),
  warning: z.number(),
  fault: z.number(),
  upgrading: z.number(),
  protect: z.number(),
});
export type StatusCounts = z.infer<typeof StatusCountsSchema>;

export const PlantStatusCountSchema = StatusCountsSchema.extend({ total: z.number() });
export type PlantStatusCount = z.infer<typeof PlantStatusCountSchema>;

/** Map markers are compact: [id, latitude, longitude, status] per plant, for 10,000 markers in one answer. */
export const PlantMapSchema = z.object({ markers: z.array(z.tuple([z.number(), z.number(), z.number(), z.number()])) });
export type PlantMap = z.infer<typeof PlantMapSchema>;

export const PlantDetailSchema = z.object({
  id: z.number(),
  name: z.string(),
  alias: z.string().nullable(),
  plantType: z.number(),
  capacityKwp: z.number(),
  gridDate: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  address: z.string().nullable(),
  region: z.string().nullable(),
  timezone: z.string(),
  picture: z.string().nullable(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  installer: z.string().nullable(),
  ownerName: z.string().nullable(),
  meteringTopology: z.enum(METERING_TOPOLOGIES),
  status: z.number(),
  companyId: z.number().nullable(),
  ownerId: z.number().nullable(),
  ownerAccount: z.string().nullable(),
  createdAt: z.string(),
  access: z.enum(PLANT_ACCESS_LEVELS),
  shared: z.boolean(),
  tariff: TariffSchema.nullable(),
});
export type PlantDetail = z.infer<typeof PlantDetailSchema>;

export const PlantGatewaySchema = z.object({
  id: z.number(),
  sn: z.string(),
  alias: z.string().nullable(),
  online: z.boolean(),
  status: z.number(),
  lastOnlineAt: z.string().nullable(),
  fwVersion: z.string().nullable(),
  rssi: z.number().nullable(),
  deviceCount: z.number(),
});
export type PlantGateway = z.infer<typeof PlantGatewaySchema>;

export const ShareUserSchema = z.object({
  userId: z.number(),
  account: z.string(),
  nickname: z.string(),
  role: z.enum(ShareRoles),
  sharedAt: z.string(),
});
export type ShareUser = z.infer<typeof ShareUserSchema>;

/** GET /api/v1/dict/*: value and the label in the caller's language. */
export const DictEntrySchema = z.object({ value: z.union([z.string(), z.number()]), label: z.string() });
export type DictEntry = z.infer<typeof DictEntrySchema>;

// ---------------------------------------------------------------------------------------------------------
// Money and benefits (pure)
// ---------------------------------------------------------------------------------------------------------

/** Environmental factors per kWh generated; defaults are common published grid-average figures, settings override them. */
export interface BenefitFactors {
  co2KgPerKwh: number;
  so2KgPerKwh: number;
  coalKgPerKwh: number;
  /** kg of CO2 one tree absorbs in a year. */
  co2KgPerTree: number;
}

export const DEFAULT_BENEFIT_FACTORS: BenefitFactors = { co2KgPerKwh: 0.475, so2KgPerKwh: 0.03, coalKgPerKwh: 0.4, co2KgPerTree: 18.3 };

export interface Benefits {
  co2Kg: number;
  so2Kg: number;
  coalKg: number;
  trees: number;
}

export function environmentalBenefits(energyKwh: number, factors: BenefitFactors): Benefits {
  const co2Kg = energyKwh * factors.co2KgPerKwh;
  return {
    co2Kg,
    so2Kg: energyKwh * factors.so2KgPerKwh,
    coalKg: energyKwh * factors.coalKgPerKwh,
    trees: factors.co2KgPerTree > 0 ? co2Kg / factors.co2KgPerTree : 0,
  };
}

/** Energy of one period split the ways the tariffs need: by hour of the local day, and exported versus self-used. */
export interface PeriodEnergy {
  /** kWh generated in each local hour 0..23 of the period (summed over its days). */
  byHourKwh: readonly number[];
  generationKwh: number;
  exportKwh: number | null;
}

export function priceAtMinute(segments: readonly TouSegment[], minute: number): number {
  for (const s of segments) if (minute >= minutesOfClock(s.start) && minute < minutesOfClock(s.end)) return s.price;
  return segments[segments.length - 1]?.price ?? 0;
}

/**
 * Income of a period under the plant's tariff. Time-of-use prices each hour at the segment covering
 * its middle; "by generation" pays exported energy at the feed-in price and the rest at the self-use
 * price (all of it at feed-in when no meter says what was exported).
 */
export function incomeOf(tariff: Tariff, energy: PeriodEnergy): number {
  switch (tariff.pricingMethod) {
    case 'constant':
      return energy.generationKwh * (tariff.price ?? 0);
    case 'tou':
      return energy.byHourKwh.reduce((sum, kwh, hour) => sum + kwh * priceAtMinute(tariff.segments ?? [], hour * 60 + 30), 0);
    case 'generation': {
      const exported = energy.exportKwh === null ? energy.generationKwh : Math.min(energy.exportKwh, energy.generationKwh);
      return exported * (tariff.feedInPrice ?? 0) + (energy.generationKwh - exported) * (tariff.selfUsePrice ?? 0);
    }
  }
}

/**
 * Return on investment: income so far over the investment, and the payback estimate from the
 * average daily income since the first measured day. Null parts when there is nothing to go on.
 */
export function returnOnInvestment(
  totalIncome: number,
  totalInvestment: number | undefined,
  measuredDays: number,
): { roiPercent: number | null; paybackYears: number | null; remainingYears: number | null } {
  if (!totalInvestment || totalInvestment <= 0) return { roiPercent: null, paybackYears: null, remainingYears: null };
  const roiPercent = (totalIncome / totalInvestment) * 100;
  if (measuredDays <= 0 || totalIncome <= 0) return { roiPercent, paybackYears: null, remainingYears: null };
  const perYear = (totalIncome / measuredDays) * 365;
  const paybackYears = totalInvestment / perYear;
  return { roiPercent, paybackYears, remainingYears: Math.max(0, (totalInvestment - totalIncome) / perYear) };
}

/** Specific yield: kWh per kWp. */
export function specificYield(energyKwh: number, capacityKwp: number): number | null {
  return capacityKwp > 0 ? energyKwh / capacityKwp : null;
}

/** Performance ratio: yield over the reference yield from irradiation (kWh/m² over 1 kW/m²). */
export function performanceRatio(energyKwh: number, capacityKwp: number, irradiationKwhPerM2: number): number | null {
  if (capacityKwp <= 0 || irradiationKwhPerM2 <= 0) return null;
  return energyKwh / (capacityKwp * irradiationKwhPerM2);
}

/** Energy-flow states of spec 02 §4, derived from the signed powers (W). */
export type FlowState = 'selling' | 'buying' | 'charging' | 'discharging' | 'idle';

/** Grid power is positive when importing; battery power positive when discharging. */
export function gridState(gridW: number | null, thresholdW = 10): FlowState {
  if (gridW === null || Math.abs(gridW) < thresholdW) return 'idle';
  return gridW > 0 ? 'buying' : 'selling';
}

export function batteryState(batteryW: number | null, thresholdW = 10): FlowState {
  if (batteryW === null || Math.abs(batteryW) < thresholdW) return 'idle';
  return batteryW > 0 ? 'discharging' : 'charging';
}

export const EnergyFlowSchema = z.object({
  ts: z.string().nullable(),
  pvW: z.number().nullable(),
  loadW: z.number().nullable(),
  /** + import, − export. */
  gridW: z.number().nullable(),
  /** + discharge, − charge. */
  batteryW: z.number().nullable(),
  soc: z.number().nullable(),
  gridState: z.enum(['selling', 'buying', 'charging', 'discharging', 'idle']),
  batteryState: z.enum(['selling', 'buying', 'charging', 'discharging', 'idle']),
  hasBattery: z.boolean(),
  hasMeter: z.boolean(),
});
export type EnergyFlow = z.infer<typeof EnergyFlowSchema>;

/** Masks a serial number as * plus its last 4 characters (spec 01 §9). */
export function maskSerial(sn: string): string {
  return sn.length <= 4 ? sn : `*${sn.slice(-4)}`;
}
