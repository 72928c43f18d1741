import { z } from 'zod';
import { CommandLogQuerySchema } from './commands.js';

/*
 * The logger family (issue 21, spec 01 §2 /log: maintenance, communication, debug): the gateways'
 * communication history (connects, disconnects, refused reports) and the maintenance log (the operation
 * log of every change to equipment). Calls: GET logger/communication, logger/maintenance and their
 * POST …/export (a file in the download centre).
 */

export const CONNECTION_LOG_KINDS = ['connect', 'disconnect', 'refused'] as const;
export type ConnectionLogKind = (typeof CONNECTION_LOG_KINDS)[number];

export const OPERATION_RESULTS = ['ok', 'refused', 'failed'] as const;

export const LOG_LIMITS = { pageSizeMax: 100 } as const;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;
/** A period bound: a day (UTC) or an ISO date-time with its offset. */
const bound = z
  .string()
  .trim()
  .refine((s) => DATE_TIME.test(s) && !Number.isNaN(Date.parse(s)), { message: 'validation.invalidFormat' });

const text = z.string().trim().max(64).optional();

const connectionFilter = {
  /** Gateway SN, substring, case-insensitive. */
  sn: text,
  kind: z.enum(CONNECTION_LOG_KINDS).optional(),
  from: bound.optional(),
  to: bound.optional(),
};

export const ConnectionLogQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(LOG_LIMITS.pageSizeMax).default(20),
  ...connectionFilter,
});
export type ConnectionLogQuery = z.infer<typeof ConnectionLogQuerySchema>;
export const ConnectionLogExportSchema = z.object({ format: z.enum(['csv', 'xlsx']).default('xlsx'), ...connectionFilter });
export type ConnectionLogExport = z.infer<typeof ConnectionLogExportSchema>;

export const ConnectionLogRowSchema = z.object({
  id: z.number(),
  at: z.string(),
  gatewaySn: z.string(),
  kind: z.enum(CONNECTION_LOG_KINDS),
  address: z.string().nullable(),
  reason: z.string().nullable(),
  sessionSeconds: z.number().nullable(),
  /** Refused reports: how many in that second. */
  count: z.number().nullable(),
});
export type ConnectionLogRow = z.infer<typeof ConnectionLogRowSchema>;
export const ConnectionLogPageSchema = z.object({ infos: z.array(ConnectionLogRowSchema), total: z.number() });
export type ConnectionLogPage = z.infer<typeof ConnectionLogPageSchema>;

const maintenanceFilter = {
  /** Who: account, substring. */
  account: text,
  /** What was acted on: SN or id, substring. */
  target: text,
  /** The action, e.g. device.alias, gateway.lock (prefix). */
  action: text,
  result: z.enum(OPERATION_RESULTS).optional(),
  from: bound.optional(),
  to: bound.optional(),
};

export const MaintenanceLogQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(LOG_LIMITS.pageSizeMax).default(20),
  ...maintenanceFilter,
});
export type MaintenanceLogQuery = z.infer<typeof MaintenanceLogQuerySchema>;
export const MaintenanceLogExportSchema = z.object({ format: z.enum(['csv', 'xlsx']).default('xlsx'), ...maintenanceFilter });
export type MaintenanceLogExport = z.infer<typeof MaintenanceLogExportSchema>;

export const MaintenanceLogRowSchema = z.object({
  id: z.number(),
  at: z.string(),
  account: z.string(),
  action: z.string(),
  targetType: z.string(),
  target: z.string(),
  plantId: z.number().nullable(),
  result: z.string(),
  detail: z.string().nullable(),
});
export type MaintenanceLogRow = z.infer<typeof MaintenanceLogRowSchema>;
export const MaintenanceLogPageSchema = z.object({ infos: z.array(MaintenanceLogRowSchema), total: z.number() });
export type MaintenanceLogPage = z.infer<typeof MaintenanceLogPageSchema>;

/** The command audit (upgrade records, communication commands, debug reads and writes) as a file: the page's filters. */
export const CommandLogExportSchema = CommandLogQuerySchema.omit({ page: true, size: true }).extend({
  format: z.enum(['csv', 'xlsx']).default('xlsx'),
});
export type CommandLogExport = z.infer<typeof CommandLogExportSchema>;
