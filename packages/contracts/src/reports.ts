import { z } from 'zod';
import { IdParamSchema, IdSchema } from './ids.js';
import { LANGUAGES } from './languages.js';

/**
 * Plant and device reports (issue 21): a day, a month or a year of one plant, a set of plants or a whole
 * customer, computed from the daily rollups; saved configurations per plant (spec 02 §5: at most 6
 * parameters and 6 units); reports e-mailed weekly or monthly with a send log.
 */

export const REPORT_PERIODS = ['day', 'month', 'year'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/** The figures a report can show; a configuration picks at most REPORT_MAX_PARAMETERS of them. */
export const REPORT_PARAMETERS = [
  'generation',
  'consumption',
  'feedIn',
  'purchase',
  'selfConsumption',
  'specificYield',
  'performanceRatio',
  'income',
  'availability',
  'charge',
  'discharge',
] as const;
export type ReportParameter = (typeof REPORT_PARAMETERS)[number];

/** Spec 02 §5: a chart or report selection holds at most 6 parameters and 6 units. */
export const REPORT_MAX_PARAMETERS = 6;
export const REPORT_MAX_UNITS = 6;
export const REPORT_DEFAULT_PARAMETERS: readonly ReportParameter[] = [
  'generation',
  'consumption',
  'feedIn',
  'purchase',
  'selfConsumption',
  'specificYield',
];
/** Added to the default figures where a plant of the report has storage. */
export const REPORT_STORAGE_PARAMETERS: readonly ReportParameter[] = ['charge', 'discharge'];
/** A set of plants named by id at most; a customer's report takes all of the customer's plants. */
export const REPORT_MAX_PLANT_IDS = 1000;
export const REPORT_MAX_RECIPIENTS = 10;
/** Events listed in a report (the count covers them all). */
export const REPORT_MAX_EVENTS = 200;

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const YEAR = /^\d{4}$/;

const idList = z
  .union([z.string(), z.array(z.coerce.number())])
  .transform((v) =>
    Array.isArray(v)
      ? v
      : v
          .split(',')
          .filter((s) => s.trim() !== '')
          .map(Number),
  )
  .pipe(z.array(IdSchema).max(REPORT_MAX_PLANT_IDS));

export const ReportScopeSchema = z.enum(['plant', 'plants', 'customer']);
export type ReportScope = z.infer<typeof ReportScopeSchema>;

/** GET /api/v1/reports (and .pdf / .xlsx): what to report on and for which period. */
export const ReportQuerySchema = z
  .object({
    scope: ReportScopeSchema.default('plant'),
    plantId: IdParamSchema.optional(),
    plantIds: idList.optional(),
    customerId: IdParamSchema.optional(),
    period: z.enum(REPORT_PERIODS).default('month'),
    /** YYYY-MM-DD for a day, YYYY-MM for a month, YYYY for a year; default: the current one in the plant's zone. */
    date: z.string().max(10).optional(),
    configId: IdParamSchema.optional(),
    format: z.enum(['pdf', 'xlsx']).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.date !== undefined) {
      const pattern = q.period === 'day' ? DAY : q.period === 'month' ? MONTH : YEAR;
      if (!pattern.test(q.date)) ctx.addIssue({ code: 'custom', path: ['date'], message: 'validation.invalidFormat' });
    }
    if (q.scope === 'plant' && q.plantId === undefined) ctx.addIssue({ code: 'custom', path: ['plantId'], message: 'validation.required' });
    if (q.scope === 'plants' && (q.plantIds?.length ?? 0) === 0)
      ctx.addIssue({ code: 'custom', path: ['plantIds'], message: 'validation.required' });
    if (q.scope === 'customer' && q.customerId === undefined)
      ctx.addIssue({ code: 'custom', path: ['customerId'], message: 'validation.required' });
  });
export type ReportQuery = z.infer<typeof ReportQuerySchema>;

const wh = z.number().nullable();

/** One plant's (or the sum of several plants') figures for the period; null where nothing measures it. */
export const ReportFiguresSchema = z.object({
  generationWh: z.number(),
  consumptionWh: wh,
  feedInWh: wh,
  purchaseWh: wh,
  selfConsumptionWh: wh,
  /** 0..1 */
  selfConsumptionRate: z.number().nullable(),
  /** kWh/kWp */
  specificYield: z.number().nullable(),
  /** 0..1; needs a weather station's irradiance */
  performanceRatio: z.number().nullable(),
  income: z.number().nullable(),
  /** 0..1: share of the generating devices' time in the period without a fault event */
  availability: z.number().nullable(),
  capacityKwp: z.number(),
  /** The batteries' charge and discharge (their counters, as the overview's use/*); null without storage. */
  chargeWh: wh,
  dischargeWh: wh,
});
export type ReportFigures = z.infer<typeof ReportFiguresSchema>;

export const ReportBarSchema = z.object({
  key: z.string(),
  generationWh: z.number().nullable(),
  consumptionWh: wh,
  feedInWh: wh,
  purchaseWh: wh,
  chargeWh: wh,
  dischargeWh: wh,
});
export type ReportBar = z.infer<typeof ReportBarSchema>;

export const ReportPlantRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  timezone: z.string(),
  currency: z.string().nullable(),
  figures: ReportFiguresSchema,
});
export type ReportPlantRow = z.infer<typeof ReportPlantRowSchema>;

export const ReportDeviceRowSchema = z.object({
  plantId: z.number().int(),
  plantName: z.string(),
  id: z.number().int(),
  sn: z.string(),
  alias: z.string().nullable(),
  family: z.string(),
  model: z.string().nullable(),
  ratedPowerW: z.number().nullable(),
  /** From device_energy_daily; null for devices that do not generate. */
  energyWh: z.number().nullable(),
  specificYield: z.number().nullable(),
  events: z.number().int(),
  faultSeconds: z.number(),
});
export type ReportDeviceRow = z.infer<typeof ReportDeviceRowSchema>;

export const ReportEventRowSchema = z.object({
  plantName: z.string(),
  sn: z.string(),
  code: z.number().int(),
  level: z.string(),
  description: z.string(),
  openedAt: z.string(),
  clearedAt: z.string().nullable(),
  /** Within the period (an event open before or after it counts only its part inside). */
  durationSeconds: z.number(),
});
export type ReportEventRow = z.infer<typeof ReportEventRowSchema>;

export const ReportSchema = z.object({
  scope: ReportScopeSchema,
  period: z.enum(REPORT_PERIODS),
  /** The reported day, month or year. */
  date: z.string(),
  from: z.string(),
  to: z.string(),
  title: z.string(),
  generatedAt: z.string(),
  /** No plant measured anything in the period: the console shows an empty state, the files say so. */
  empty: z.boolean(),
  parameters: z.array(z.enum(REPORT_PARAMETERS)),
  /** One currency when every plant with a tariff uses it; null otherwise (income then per plant only). */
  currency: z.string().nullable(),
  totals: ReportFiguresSchema,
  bars: z.array(ReportBarSchema),
  plants: z.array(ReportPlantRowSchema),
  devices: z.array(ReportDeviceRowSchema),
  events: z.array(ReportEventRowSchema),
  eventsTotal: z.number().int(),
});
export type Report = z.infer<typeof ReportSchema>;

// ---- Configurations ----

export const ReportConfigInputSchema = z.object({
  plantId: IdParamSchema,
  name: z.string().trim().min(1, 'validation.required').max(60),
  period: z.enum(REPORT_PERIODS),
  /** More than REPORT_MAX_PARAMETERS is refused with code 1000 (not a validation error), as spec 02 §5 asks. */
  parameters: z.array(z.enum(REPORT_PARAMETERS)).min(1, 'validation.required').max(REPORT_PARAMETERS.length),
  /** Device ids; more than REPORT_MAX_UNITS is refused with code 1001. */
  units: z.array(IdSchema).max(100).default([]),
});
export type ReportConfigInput = z.infer<typeof ReportConfigInputSchema>;

export const ReportConfigSchema = z.object({
  id: z.number().int(),
  plantId: z.number().int(),
  name: z.string(),
  period: z.enum(REPORT_PERIODS),
  parameters: z.array(z.enum(REPORT_PARAMETERS)),
  units: z.array(z.number().int()),
  updatedAt: z.string(),
});
export type ReportConfig = z.infer<typeof ReportConfigSchema>;

export const ReportConfigListQuerySchema = z.object({ plantId: IdParamSchema });

// ---- Schedules and the send log ----

export const ReportRecipientSchema = z.object({
  email: z.string().trim().email('validation.invalidFormat').max(200),
  language: z.enum(LANGUAGES),
});
export type ReportRecipient = z.infer<typeof ReportRecipientSchema>;

export const ReportScheduleInputSchema = z
  .object({
    scope: z.enum(['plant', 'customer']),
    plantId: IdSchema.optional(),
    customerId: IdSchema.optional(),
    configId: IdSchema.nullable().default(null),
    frequency: z.enum(['weekly', 'monthly']),
    format: z.enum(['pdf', 'xlsx']).default('pdf'),
    recipients: z.array(ReportRecipientSchema).min(1, 'validation.required').max(REPORT_MAX_RECIPIENTS),
  })
  .superRefine((s, ctx) => {
    if (s.scope === 'plant' && s.plantId === undefined) ctx.addIssue({ code: 'custom', path: ['plantId'], message: 'validation.required' });
    if (s.scope === 'customer' && s.customerId === undefined)
      ctx.addIssue({ code: 'custom', path: ['customerId'], message: 'validation.required' });
  });
export type ReportScheduleInput = z.infer<typeof ReportScheduleInputSchema>;

/**
 * PUT /api/v1/reports/schedules/:id: pause or resume a schedule, change its recipients, format or frequency
 * (fields left out stay; a new frequency runs next at its next regular time).
 */
export const ReportScheduleUpdateSchema = z.object({
  enabled: z.boolean().optional(),
  format: z.enum(['pdf', 'xlsx']).optional(),
  frequency: z.enum(['weekly', 'monthly']).optional(),
  recipients: z.array(ReportRecipientSchema).min(1, 'validation.required').max(REPORT_MAX_RECIPIENTS).optional(),
});
export type ReportScheduleUpdate = z.infer<typeof ReportScheduleUpdateSchema>;

export const ReportScheduleSchema = z.object({
  id: z.number().int(),
  scope: z.enum(['plant', 'customer']),
  plantId: z.number().int().nullable(),
  customerId: z.number().int().nullable(),
  targetName: z.string(),
  configId: z.number().int().nullable(),
  frequency: z.enum(['weekly', 'monthly']),
  format: z.enum(['pdf', 'xlsx']),
  recipients: z.array(ReportRecipientSchema),
  enabled: z.boolean(),
  /** plant_deleted, customer_deleted, no_access */
  disabledReason: z.string().nullable(),
  nextRunAt: z.string(),
  lastRunAt: z.string().nullable(),
});
export type ReportSchedule = z.infer<typeof ReportScheduleSchema>;

export const ReportSendSchema = z.object({
  id: z.number().int(),
  scheduleId: z.number().int(),
  targetName: z.string(),
  period: z.string(),
  recipient: z.string(),
  language: z.string(),
  /** pending (in the outbox, retried with backoff), sent, failed, or error (the report could not be built) */
  status: z.enum(['pending', 'sent', 'failed', 'error']),
  attempts: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type ReportSend = z.infer<typeof ReportSendSchema>;

export const ReportSendListQuerySchema = z.object({
  scheduleId: IdParamSchema.optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export const ReportSendPageSchema = z.object({ total: z.number().int(), records: z.array(ReportSendSchema) });

export const ReportScheduleRunSchema = z.object({ sends: z.number().int(), disabled: z.boolean() });

// ---- Device reports ----

/** GET /api/v1/reports/devices?plantId=: the devices of a plant a device report can be made of. */
export const ReportDeviceOptionSchema = z.object({
  id: z.number().int(),
  sn: z.string(),
  alias: z.string().nullable(),
  family: z.string(),
  model: z.string().nullable(),
});
export type ReportDeviceOption = z.infer<typeof ReportDeviceOptionSchema>;

/** GET /api/v1/reports/device (and /device/file): one device of a plant for a day, month or year. */
export const DeviceReportQuerySchema = z
  .object({
    deviceId: IdParamSchema,
    period: z.enum(REPORT_PERIODS).default('month'),
    /** YYYY-MM-DD, YYYY-MM or YYYY; default: the current one in the device's zone. */
    date: z.string().max(10).optional(),
    format: z.enum(['pdf', 'xlsx']).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.date === undefined) return;
    const pattern = q.period === 'day' ? DAY : q.period === 'month' ? MONTH : YEAR;
    if (!pattern.test(q.date)) ctx.addIssue({ code: 'custom', path: ['date'], message: 'validation.invalidFormat' });
  });
export type DeviceReportQuery = z.infer<typeof DeviceReportQuerySchema>;

/**
 * A device's report: each energy counter of the device (the device detail page's bars, summed over the
 * period), its peak power and running hours from the power rollups, its availability and its events.
 */
export const DeviceReportSchema = z.object({
  period: z.enum(REPORT_PERIODS),
  date: z.string(),
  from: z.string(),
  to: z.string(),
  title: z.string(),
  generatedAt: z.string(),
  empty: z.boolean(),
  device: z.object({
    id: z.number().int(),
    sn: z.string(),
    alias: z.string().nullable(),
    family: z.string(),
    model: z.string().nullable(),
    ratedPowerW: z.number().nullable(),
    plantId: z.number().int(),
    plantName: z.string(),
    timezone: z.string(),
  }),
  /** One per energy counter of the device (generated, charged, imported …), Wh over the period; null: no reading. */
  counters: z.array(z.object({ key: z.string(), label: z.string(), energyWh: z.number().nullable() })),
  /** The counters per day (month), per month (year) or per hour (day: none, the day has one bar). */
  bars: z.object({ labels: z.array(z.string()), series: z.array(z.object({ key: z.string(), values: z.array(z.number().nullable()) })) }),
  /** Highest 5-minute mean power (day, month) or hourly mean (year), W; null without a power point. */
  peakPowerW: z.number().nullable(),
  peakAt: z.string().nullable(),
  /** Hours whose mean power was above zero (hourly rollup). */
  runningHours: z.number().nullable(),
  /** 0..1: the period's elapsed time without an open fault event. */
  availability: z.number().nullable(),
  faultSeconds: z.number(),
  events: z.array(ReportEventRowSchema),
  eventsTotal: z.number().int(),
});
export type DeviceReport = z.infer<typeof DeviceReportSchema>;
