import { z } from 'zod';
import { IdSchema } from './ids.js';

/*
 * Remote operation (spec 01 §7 Inverters: boot, shutdown, custom params, debug; spec 02 §4): what the
 * console sends and what it gets back. Destructive commands carry the user's password again; every
 * command carries an idempotency key so a retried request runs once.
 */

export const COMMAND_LIMITS = {
  /** Keys are the console's own (a UUID); anything printable up to 64 characters is accepted. */
  idempotencyKeyMax: 64,
  /** Registers one debug read may ask for (Modbus allows 125). */
  debugCountMax: 125,
} as const;

const IdempotencyKey = z
  .string()
  .min(8)
  .max(COMMAND_LIMITS.idempotencyKeyMax)
  .regex(/^[\w-]+$/);

export const CommandBodySchema = z.object({
  idempotencyKey: IdempotencyKey.optional(),
  /** The user's password again, for shutdown, parameter writes and register writes. */
  password: z.string().max(200).optional(),
});

export const ParamsWriteSchema = CommandBodySchema.extend({
  params: z.record(z.string().min(1).max(64), z.number()).refine((p) => Object.keys(p).length > 0 && Object.keys(p).length <= 20),
});

export const DEBUG_READ_CODES = [1, 2, 3, 4] as const;
export const DEBUG_WRITE_CODES = [5, 6, 15, 16] as const;

export const DebugRequestSchema = CommandBodySchema.extend({
  fc: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6), z.literal(15), z.literal(16)]),
  addr: z.number().int().min(0).max(65535),
  /** Reads: how many registers. */
  count: z.number().int().min(1).max(COMMAND_LIMITS.debugCountMax).optional(),
  /** Writes: the registers as hex, 4 digits each. */
  hex: z
    .string()
    .max(500)
    .regex(/^([0-9a-fA-F]{4})+$/)
    .optional(),
});
export type DebugRequest = z.infer<typeof DebugRequestSchema>;

/** queued: a gateway upgrade that waits for its gateway to come online. */
export const COMMAND_STATUSES = ['pending', 'queued', 'ok', 'error', 'timeout', 'refused'] as const;

/** The outcome of a command as the console shows it. */
export const CommandResultSchema = z.object({
  commandId: z.number(),
  status: z.enum(COMMAND_STATUSES),
  /** Read replies: the registers as hex. */
  hex: z.string().nullable(),
  /** The device's values after the command, or a read decoded with its register map, by point id. */
  values: z.record(z.string(), z.union([z.number(), z.string()])).nullable(),
  message: z.string().nullable(),
});
export type CommandResult = z.infer<typeof CommandResultSchema>;

export const WritableParamSchema = z.object({
  id: z.string(),
  label: z.string(),
  unit: z.string().nullable(),
  value: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  options: z.array(z.object({ value: z.number(), label: z.string() })).nullable(),
});
export type WritableParam = z.infer<typeof WritableParamSchema>;

export const SettingSupportSchema = z.object({
  /** The model's writable points can be read and written as custom parameters. */
  customParams: z.boolean(),
  /** The settings families (SETTINGS_FAMILIES) the model's register map carries. */
  families: z.array(z.string()),
  boot: z.boolean(),
  debug: z.boolean(),
});

export const CommandLogQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  sn: z.string().max(64).optional(),
  /** One operation or several, comma-separated (boot,shutdown / read,write / upgrade). */
  op: z
    .string()
    .max(200)
    .regex(/^[a-z_]+(,[a-z_]+)*$/)
    .optional(),
  /** One status or several, comma-separated (pending, queued, ok, error, timeout, refused). */
  status: z
    .string()
    .max(100)
    .regex(/^[a-z_]+(,[a-z_]+)*$/)
    .optional(),
  /** Sent at or after this time (ISO). */
  from: z.string().datetime({ offset: true }).optional(),
  /** Sent before this time (ISO). */
  to: z.string().datetime({ offset: true }).optional(),
});
export type CommandLogQuery = z.infer<typeof CommandLogQuerySchema>;

export const CommandLogRowSchema = z.object({
  id: z.number(),
  at: z.string(),
  account: z.string(),
  deviceSn: z.string(),
  op: z.string(),
  request: z.unknown(),
  status: z.string(),
  result: z.unknown(),
  finishedAt: z.string().nullable(),
  lateReplyAt: z.string().nullable(),
});
export const CommandLogPageSchema = z.object({ infos: z.array(CommandLogRowSchema), total: z.number() });

/** Spec 02 §4 upgrade results, with the progress while it runs. */
export const UpgradeProgressSchema = z.object({
  commandId: z.number(),
  /** waiting: a gateway upgrade queued until the gateway is online. */
  state: z.enum(['waiting', 'upgrading', 'successful', 'failed', 'cancelled']),
  progress: z.number(),
  version: z.string().nullable(),
  message: z.string().nullable(),
  at: z.string(),
});
export type UpgradeProgress = z.infer<typeof UpgradeProgressSchema>;

/** The settings families of spec 01 §7 (Device settings families), each read with GET and written with POST. */
export const SETTINGS_FAMILIES = [
  'mt/setting',
  'gy/setting',
  'dy/store/single',
  'dy/store/threePhase',
  'dy/grid',
  'asw',
  'setting/uneet',
  'setting/sidaoer',
  'thinkPower',
  'setting/switch',
] as const;
export type SettingsFamily = (typeof SETTINGS_FAMILIES)[number];

/**
 * The families that are battery settings (the battery setting pages, /device/batt-setting and
 * /plants/batt-setting); every other family shows on the device setting pages.
 */
export const BATTERY_SETTINGS_FAMILIES: readonly SettingsFamily[] = ['dy/store/single', 'dy/store/threePhase', 'gy/setting'];

/** Which setting pages a family shows on. */
export const SETTINGS_SCOPES = ['device', 'battery'] as const;
export type SettingsScope = (typeof SETTINGS_SCOPES)[number];

export function settingsScopeOf(family: string): SettingsScope {
  return (BATTERY_SETTINGS_FAMILIES as readonly string[]).includes(family) ? 'battery' : 'device';
}

/** GET settings/devices: the devices of the caller's plants that carry a settings family of the page's scope. */
export const SettingsDevicesQuerySchema = z.object({
  scope: z.enum(SETTINGS_SCOPES).default('device'),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(50).default(10),
  plantId: z.coerce.number().int().min(1).optional(),
  /** SN or alias, substring, case-insensitive. */
  keyword: z.string().trim().max(64).optional(),
});
export type SettingsDevicesQuery = z.infer<typeof SettingsDevicesQuerySchema>;

/**
 * A limit written as an open (trip) and a closed (reclose) value (spec 02 §5): `above`, the device opens above
 * the open value, so open must exceed closed; `below` (under-voltage), it opens below it, so closed must
 * exceed open. Both are positive integers; the server refuses a pair in the wrong order with 4430.
 */
export const SettingPairSchema = z.object({ open: z.string(), closed: z.string(), trip: z.enum(['above', 'below']) });
export type SettingPair = z.infer<typeof SettingPairSchema>;

export const SettingsGroupSchema = z.object({
  family: z.enum(SETTINGS_FAMILIES),
  /** Its points with the device's last reported values, ranges, units and choices (from the protocol). */
  params: z.array(WritableParamSchema),
  /** The group's limits that go in open/closed pairs (the protocol's settingPairs), shown side by side. */
  pairs: z.array(SettingPairSchema),
});
export type SettingsGroup = z.infer<typeof SettingsGroupSchema>;

export const SettingsDeviceRowSchema = z.object({
  sn: z.string(),
  alias: z.string().nullable(),
  family: z.string(),
  protocolId: z.string(),
  plantId: z.number().nullable(),
  plantName: z.string().nullable(),
  status: z.number(),
  lastReportAt: z.string().nullable(),
  /** Whether the caller may write (plant level operate); a guest sees the settings only. */
  canWrite: z.boolean(),
  groups: z.array(SettingsGroupSchema),
});
export type SettingsDeviceRow = z.infer<typeof SettingsDeviceRowSchema>;
export const SettingsDevicePageSchema = z.object({ infos: z.array(SettingsDeviceRowSchema), total: z.number() });

export const SettingsWriteSchema = CommandBodySchema.extend({
  sn: z.string().min(1).max(64),
  values: z.record(z.string().min(1).max(64), z.number()).refine((v) => Object.keys(v).length > 0 && Object.keys(v).length <= 40),
});

export const BatchUpgradeResultSchema = z.object({
  started: z.number(),
  results: z.array(
    z.object({ sn: z.string(), started: z.boolean(), commandId: z.number().nullable(), code: z.number(), message: z.string().nullable() }),
  ),
});
export type BatchUpgradeResult = z.infer<typeof BatchUpgradeResultSchema>;

/** What an upgrade addresses: an inverter, a battery (its master pack) or a gateway itself. */
export const UPGRADE_TARGETS = ['inverter', 'battery', 'gateway'] as const;
export type UpgradeTarget = (typeof UPGRADE_TARGETS)[number];

/** battery/batchUpgrade/check and batchUpgrade: the batteries and the image. */
export const BatchUpgradeBodySchema = CommandBodySchema.extend({
  sns: z.array(z.string().min(1).max(64)).min(1).max(500),
  firmId: IdSchema,
});

/**
 * The check before a batch upgrade (spec 02 §4): for each SN whether it can take the image now and, if
 * not, why (code and message): not found, a slave, offline, upgrading, already on the version, not
 * compatible. The user then continues with the ones that can.
 */
export const BatchUpgradeCheckSchema = z.object({
  ready: z.number(),
  results: z.array(z.object({ sn: z.string(), ready: z.boolean(), code: z.number(), message: z.string().nullable() })),
});
export type BatchUpgradeCheck = z.infer<typeof BatchUpgradeCheckSchema>;
