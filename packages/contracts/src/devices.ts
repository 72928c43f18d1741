import { z } from 'zod';
import { IdParamSchema, IdSchema } from './ids.js';
import { StatusCountsSchema } from './plants.js';

/*
 * Device families as the console lists them (spec 02 §2 Equipment): each list kind groups the stored
 * families it shows (an inverter list holds string, hybrid and micro inverters) and names its calls
 * (spec 01 §7: inverters, optimizers, meters, batteries, meteorological, boxs, switchs).
 */

export const DEVICE_KINDS = [
  'inverter',
  'battery',
  'meter',
  'optimizer',
  'weather_station',
  'combiner_box',
  'heat_pump',
  'ac_switch',
] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

export interface DeviceKindInfo {
  /** Stored families (devices.family) listed under this kind. */
  families: readonly string[];
  /** The list call: GET /api/v1/{plural}; one device: /api/v1/{singular}/{sn}. */
  plural: string;
  singular: string;
}

export const DEVICE_KIND_INFO: Record<DeviceKind, DeviceKindInfo> = {
  inverter: { families: ['inverter', 'hybrid_inverter', 'micro_inverter'], plural: 'inverters', singular: 'inverter' },
  battery: { families: ['battery'], plural: 'batteries', singular: 'battery' },
  meter: { families: ['meter'], plural: 'meters', singular: 'meter' },
  optimizer: { families: ['optimizer'], plural: 'optimizers', singular: 'optimizer' },
  weather_station: { families: ['weather_station'], plural: 'meteorological', singular: 'meteorological' },
  combiner_box: { families: ['combiner_box'], plural: 'boxs', singular: 'box' },
  heat_pump: { families: ['heat_pump'], plural: 'heatPumps', singular: 'heatPump' },
  ac_switch: { families: ['ac_switch'], plural: 'switchs', singular: 'switch' },
};

export function kindOfFamily(family: string): DeviceKind | undefined {
  return DEVICE_KINDS.find((k) => DEVICE_KIND_INFO[k].families.includes(family));
}

/** Spec 02 §5 and §9: at most 6 parameters and 6 units on one chart; lists page at most 100 rows. */
export const DEVICE_LIMITS = { chartPointsMax: 6, chartUnitsMax: 6, pageSizeMax: 100, exportRowsMax: 20_000, batchMax: 500 } as const;

/**
 * Spec 01 §3 inverter type display: 1, 10, 11 selling-first; 2 single-phase; 3 micro; 94 three-phase
 * high voltage; 93 three-phase low voltage; any other truthy value three-phase; empty "--".
 */
export type InverterTypeLabel = 'sellingFirst' | 'singlePhase' | 'micro' | 'threePhaseHv' | 'threePhaseLv' | 'threePhase' | 'none';

export function inverterTypeLabel(code: number | null | undefined): InverterTypeLabel {
  if (code === null || code === undefined || code === 0) return 'none';
  if (code === 1 || code === 10 || code === 11) return 'sellingFirst';
  if (code === 2) return 'singlePhase';
  if (code === 3) return 'micro';
  if (code === 94) return 'threePhaseHv';
  if (code === 93) return 'threePhaseLv';
  return 'threePhase';
}

const statusList = z
  .string()
  .regex(/^[1-6](,[1-6])*$/)
  .transform((s) => s.split(',').map(Number));

export const DeviceListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(DEVICE_LIMITS.pageSizeMax).default(20),
  /** SN or alias, substring, case-insensitive. */
  keyword: z.string().trim().max(64).optional(),
  status: statusList.optional(),
  plantId: IdParamSchema.optional(),
  /** Plant name, substring. */
  plantName: z.string().trim().max(64).optional(),
  brand: z.string().trim().max(64).optional(),
  model: z.string().trim().max(64).optional(),
  /** Inverter type code (spec 01 §3). */
  type: z.coerce.number().int().min(0).max(999).optional(),
  sort: z.enum(['sn', 'alias', 'status', 'powerW', 'energyTodayWh', 'energyTotalWh', 'lastReportAt', 'plantName']).default('sn'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type DeviceListQuery = z.infer<typeof DeviceListQuerySchema>;

export const DeviceRowSchema = z.object({
  id: z.number(),
  sn: z.string(),
  alias: z.string().nullable(),
  family: z.string(),
  protocolId: z.string(),
  brand: z.string().nullable(),
  model: z.string().nullable(),
  /** Spec 01 §3 type code for inverters, null for other kinds. */
  type: z.number().nullable(),
  ratedPowerW: z.number().nullable(),
  plantId: z.number().nullable(),
  plantName: z.string().nullable(),
  timezone: z.string(),
  gatewaySn: z.string().nullable(),
  status: z.number(),
  powerW: z.number().nullable(),
  energyTodayWh: z.number().nullable(),
  energyTotalWh: z.number().nullable(),
  soc: z.number().nullable(),
  lastReportAt: z.string().nullable(),
  /** Battery slave packs point at their master; masters list their slaves' count. */
  parentId: z.number().nullable(),
  slaveCount: z.number(),
  mainMeter: z.boolean(),
  /** The firmware version the device reports (upgrades compare with it). */
  firmwareVersion: z.string().nullable(),
  /** What the caller may do with it: view, operate or manage. */
  access: z.enum(['view', 'operate', 'manage']),
});
export type DeviceRow = z.infer<typeof DeviceRowSchema>;

export const DevicePageSchema = z.object({ infos: z.array(DeviceRowSchema), total: z.number() });
export type DevicePage = z.infer<typeof DevicePageSchema>;

export const DeviceCountsSchema = StatusCountsSchema.extend({ total: z.number() });
export type DeviceCounts = z.infer<typeof DeviceCountsSchema>;

/** A chartable numeric point of the device's register map. */
export const PointInfoSchema = z.object({ id: z.string(), label: z.string(), unit: z.string().nullable() });
export type PointInfo = z.infer<typeof PointInfoSchema>;

export const RealtimeValueSchema = PointInfoSchema.extend({
  value: z.number().nullable(),
  /** Enumerations and bit fields: the value's meaning in the caller's language. */
  text: z.string().nullable(),
});
export type RealtimeValue = z.infer<typeof RealtimeValueSchema>;

/** Sections of the detail page, each present only where the model has its points. */
export const SECTION_KEYS = [
  'input',
  'output',
  'operation',
  'grid',
  'meter',
  'battery',
  'eps',
  'load',
  'cells',
  'strings',
  'environment',
  'status',
  'settings',
  'other',
] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

export const RealtimeSectionSchema = z.object({ key: z.enum(SECTION_KEYS), values: z.array(RealtimeValueSchema) });
export type RealtimeSection = z.infer<typeof RealtimeSectionSchema>;

export const DeviceRealtimeSchema = z.object({ ts: z.string().nullable(), sections: z.array(RealtimeSectionSchema) });
export type DeviceRealtime = z.infer<typeof DeviceRealtimeSchema>;

/** DC input per string/MPPT: voltage, current, power (and energy where the map has it). */
export const StringInputSchema = z.object({
  index: z.number(),
  voltageV: z.number().nullable(),
  currentA: z.number().nullable(),
  powerW: z.number().nullable(),
  energyWh: z.number().nullable(),
});
export const PvIvSchema = z.object({ ts: z.string().nullable(), strings: z.array(StringInputSchema) });
export type PvIv = z.infer<typeof PvIvSchema>;

export const DeviceDetailSchema = z.object({
  device: DeviceRowSchema,
  firmware: z.string().nullable(),
  /** The sections this model has (where the detail page shows a card). */
  sections: z.array(z.enum(SECTION_KEYS)),
  /** Points the day chart can draw, with the default selection first. */
  points: z.array(PointInfoSchema),
  defaultPoints: z.array(z.string()),
  /** Battery masters: their slave packs. */
  slaves: z.array(z.object({ id: z.number(), sn: z.string(), status: z.number(), soc: z.number().nullable() })),
  settings: z.record(z.string(), z.unknown()).nullable(),
});
export type DeviceDetail = z.infer<typeof DeviceDetailSchema>;

const DAY = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const DayQuerySchema = z.object({
  /** The device's local day; today when absent. */
  date: DAY.optional(),
  /** Comma-separated point ids, at most 6 (and 6 units); the model's default when absent. */
  points: z.string().max(400).optional(),
  /** Days ending with `date` (spec 02 §9 quick ranges: 1, 3, 7, 30, 60); longer ranges read averaged tiers. */
  days: z.coerce.number().int().min(1).max(60).default(1),
});

export const PeriodQuerySchema = z.object({
  /** month: YYYY-MM (days of it); year: YYYY (months of it); total: every year. */
  date: z
    .string()
    .regex(/^\d{4}(-\d{2})?$/)
    .optional(),
});

export const SeriesSchema = PointInfoSchema.extend({ points: z.array(z.tuple([z.number(), z.number().nullable()])) });
export const DaySeriesSchema = z.object({ date: DAY, days: z.number(), timezone: z.string(), series: z.array(SeriesSchema) });
export type DaySeries = z.infer<typeof DaySeriesSchema>;

/** Energy by bucket for month (days), year (months) and total (years): one bar series per counter. */
export const EnergyBarsSchema = z.object({
  period: z.enum(['month', 'year', 'total']),
  date: z.string().nullable(),
  labels: z.array(z.string()),
  series: z.array(z.object({ key: z.string(), label: z.string(), values: z.array(z.number().nullable()) })),
});
export type EnergyBars = z.infer<typeof EnergyBarsSchema>;

export const AliasBodySchema = z.object({ alias: z.string().max(200) });

export const BatchDeleteBodySchema = z.object({ ids: z.array(IdSchema).min(1).max(DEVICE_LIMITS.batchMax) });

/** Delete answers which devices went and which the caller may not delete (spec 02 §6: listed). */
export const DeleteResultSchema = z.object({
  deleted: z.array(z.string()),
  refused: z.array(z.object({ sn: z.string(), reason: z.enum(['noPermission', 'notFound']) })),
  /** Battery masters: the slave packs deleted with them. */
  slavesDeleted: z.array(z.string()),
});
export type DeleteResult = z.infer<typeof DeleteResultSchema>;

/** Meter settings of spec 02 §3 (Energy meter). */
export const MeterSettingsSchema = z.object({
  ctRatio: z.number().positive().max(100_000).nullable(),
  ptRatio: z.number().positive().max(100_000).nullable(),
  buyOffsetKwh: z.number().min(-9_999_999).max(9_999_999).nullable(),
  sellOffsetKwh: z.number().min(-9_999_999).max(9_999_999).nullable(),
  prices: z.object({
    tip: z.number().min(0).max(9999).nullable(),
    peak: z.number().min(0).max(9999).nullable(),
    flat: z.number().min(0).max(9999).nullable(),
    valley: z.number().min(0).max(9999).nullable(),
  }),
  discount: z.number().min(0).max(1).nullable(),
});
export type MeterSettings = z.infer<typeof MeterSettingsSchema>;

export const WorkdataQuerySchema = z.object({
  sn: z.string().min(1).max(64),
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(DEVICE_LIMITS.pageSizeMax).default(50),
});

/** Operation data records: the device's stored readings, newest first, one column per point. */
export const WorkdataPageSchema = z.object({
  columns: z.array(PointInfoSchema),
  infos: z.array(z.object({ ts: z.string(), values: z.array(z.number().nullable()) })),
  total: z.number(),
});
export type WorkdataPage = z.infer<typeof WorkdataPageSchema>;
