import { z } from 'zod';
import { DEVICE_KIND_INFO, DEVICE_KINDS } from './devices.js';
import { IdParamSchema } from './ids.js';
import { LIMITS } from './limits.js';
import { EVENT_LEVELS } from './plant-energy.js';

/*
 * The event list (/device/event, issue 5): device events opened and cleared by the ingest pipeline from
 * each register map's event table, over every device the caller sees. Calls: GET events, events/count,
 * events/export.
 */

export { EVENT_LEVELS };
export type EventLevel = (typeof EVENT_LEVELS)[number];

export const EVENT_STATUSES = ['active', 'cleared'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const EVENT_EXPORT_FORMATS = ['csv', 'xlsx'] as const;

export const EVENT_LIMITS = {
  pageSizeMax: 100,
  /** Days the list covers when the caller names no period. */
  defaultDays: 7,
  exportRowsMax: LIMITS.exportRowsMax,
} as const;

/** Device kinds (the list a device belongs to) and stored families: either filters by family. */
export const EVENT_FAMILY_FILTERS: readonly string[] = [
  ...new Set([...DEVICE_KINDS, ...DEVICE_KINDS.flatMap((k) => DEVICE_KIND_INFO[k].families)]),
];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
// An ISO date-time with an offset or Z (a bare local time would be read in the server's zone).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A period bound: an ISO date-time, or a day (YYYY-MM-DD, a UTC day: `from` its start, `to` its end). */
const bound = z
  .string()
  .trim()
  .refine((s) => (DAY.test(s) || DATE_TIME.test(s)) && !Number.isNaN(Date.parse(DAY.test(s) ? `${s}T00:00:00Z` : s)), {
    message: 'validation.invalidFormat',
  });

/** The instant a bound stands for; a day as `to` means the end of that day. */
export function boundInstant(value: string, side: 'from' | 'to'): number {
  if (!DAY.test(value)) return Date.parse(value);
  const start = Date.parse(`${value}T00:00:00Z`);
  return side === 'from' ? start : start + 86_400_000;
}

/** A comma-separated list of allowed words ("fault,warning"), as the other list filters take it. */
function wordList<const T extends string>(allowed: readonly T[]) {
  return z
    .string()
    .trim()
    .transform((s) => s.split(',').filter((w) => w !== ''))
    .refine((words) => words.length > 0 && words.every((w) => (allowed as readonly string[]).includes(w)), {
      message: 'validation.invalidValue',
    })
    .transform((words) => [...new Set(words)] as T[]);
}

const filterFields = {
  from: bound.optional(),
  to: bound.optional(),
  level: wordList(EVENT_LEVELS).optional(),
  status: z.enum(EVENT_STATUSES).optional(),
  /** Device SN, substring, case-insensitive. */
  deviceSn: z.string().trim().max(64).optional(),
  plantId: IdParamSchema.optional(),
  family: wordList(EVENT_FAMILY_FILTERS).optional(),
  /** Code, SN, alias, plant name or description (in English or Chinese), substring. */
  keyword: z.string().trim().max(64).optional(),
};

function checkPeriod(q: { from?: string; to?: string }, ctx: z.RefinementCtx) {
  if (q.from && q.to && boundInstant(q.to, 'to') <= boundInstant(q.from, 'from'))
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.invalidValue' });
}

export const EventFilterSchema = z.object(filterFields).superRefine(checkPeriod);
export type EventFilter = z.infer<typeof EventFilterSchema>;

export const EventListQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(EVENT_LIMITS.pageSizeMax).default(20),
    ...filterFields,
  })
  .superRefine(checkPeriod);
export type EventListQuery = z.infer<typeof EventListQuerySchema>;

export const EventExportQuerySchema = z
  .object({ format: z.enum(EVENT_EXPORT_FORMATS).default('xlsx'), ...filterFields })
  .superRefine(checkPeriod);
export type EventExportQuery = z.infer<typeof EventExportQuerySchema>;

export const EventRowSchema = z.object({
  id: z.number(),
  code: z.number(),
  level: z.string(),
  /** The list the device belongs to (a device kind: inverter, battery, meter...). */
  type: z.string(),
  deviceId: z.number(),
  deviceSn: z.string(),
  deviceAlias: z.string().nullable(),
  /** The stored device family (inverter, hybrid_inverter, micro_inverter...). */
  family: z.string(),
  plantId: z.number().nullable(),
  plantName: z.string().nullable(),
  openedAt: z.string(),
  clearedAt: z.string().nullable(),
  status: z.enum(EVENT_STATUSES),
  /** From the device's register map, in Chinese for cn and English otherwise; null for a code the map lacks. */
  description: z.string().nullable(),
  solution: z.string().nullable(),
});
export type EventRow = z.infer<typeof EventRowSchema>;

export const EventPageSchema = z.object({ infos: z.array(EventRowSchema), total: z.number() });
export type EventPage = z.infer<typeof EventPageSchema>;

/**
 * Badges: events open now by level and in all (whatever the period, as overview/eventCount counts
 * them), and every event the list shows for the period (all levels and statuses).
 */
export const EventCountsSchema = z.object({
  active: z.object({ fault: z.number(), warning: z.number(), protect: z.number() }),
  activeTotal: z.number(),
  total: z.number(),
});
export type EventCounts = z.infer<typeof EventCountsSchema>;
