import { z } from 'zod';
import { IdParamSchema } from './ids.js';

/*
 * Gateways (data loggers) as the console manages them (spec 02 §3 Gateway, §4; spec 01 §7 family
 * "gateways" and gateway service addresses): the list, counts, one gateway with its devices, alias,
 * import from a spreadsheet, replacement, and the settings applied over the protocol.
 */

/** Lists page at most 100 rows; an import file holds at most 1,000 gateways; alias 32 bytes (spec 02 §5). */
export const GATEWAY_LIMITS = { pageSizeMax: 100, importRowsMax: 1000, aliasMaxBytes: 32, keyMaxLength: 64 } as const;

/** Spec 02 §9: serial numbers display as an asterisk plus the last 4 characters. */
export function maskSerial(sn: string): string {
  return `*${sn.slice(-4)}`;
}

const booleanText = z.enum(['true', 'false']).transform((v) => v === 'true');

export const GatewayListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(GATEWAY_LIMITS.pageSizeMax).default(20),
  /** SN or alias, substring, case-insensitive. */
  keyword: z.string().trim().max(64).optional(),
  plantId: IdParamSchema.optional(),
  status: z.enum(['online', 'offline']).optional(),
  locked: booleanText.optional(),
  sort: z.enum(['lastOnlineAt', 'sn']).default('sn'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type GatewayListQuery = z.infer<typeof GatewayListQuerySchema>;

export const GatewayRowSchema = z.object({
  id: z.number(),
  /** Whole for callers who operate or manage the gateway, "*" + last 4 for those who only view it. */
  sn: z.string(),
  snMasked: z.boolean(),
  alias: z.string().nullable(),
  plantId: z.number().nullable(),
  plantName: z.string().nullable(),
  online: z.boolean(),
  /** Signal strength in dBm (negative; closer to 0 is better). */
  rssi: z.number().nullable(),
  commType: z.string().nullable(),
  iccid: z.string().nullable(),
  hwVersion: z.string().nullable(),
  fwVersion: z.string().nullable(),
  lastOnlineAt: z.string().nullable(),
  lastIp: z.string().nullable(),
  locked: z.boolean(),
  /** host:port as last confirmed by the gateway. */
  serverAddress: z.string().nullable(),
  digitalOutput: z.boolean().nullable(),
  /** When the connection password was last set (the password itself is never kept). */
  connectionPasswordAt: z.string().nullable(),
  deviceCount: z.number(),
  /** What the caller may do with it: view, operate or manage. */
  access: z.enum(['view', 'operate', 'manage']),
});
export type GatewayRow = z.infer<typeof GatewayRowSchema>;

export const GatewayPageSchema = z.object({ infos: z.array(GatewayRowSchema), total: z.number() });
export type GatewayPage = z.infer<typeof GatewayPageSchema>;

export const GatewayCountsSchema = z.object({ online: z.number(), offline: z.number(), total: z.number() });
export type GatewayCounts = z.infer<typeof GatewayCountsSchema>;

export const GatewayDeviceSchema = z.object({
  id: z.number(),
  sn: z.string(),
  family: z.string(),
  alias: z.string().nullable(),
  status: z.number(),
});

export const GatewayDetailSchema = GatewayRowSchema.extend({ devices: z.array(GatewayDeviceSchema) });
export type GatewayDetail = z.infer<typeof GatewayDetailSchema>;

export const GatewayAliasBodySchema = z.object({ alias: z.string().max(200) });

/** A row-level problem of an import file; the server sends it in the caller's language. */
export const GATEWAY_IMPORT_PROBLEMS = [
  'snMissing',
  'snInvalid',
  'keyMissing',
  'keyInvalid',
  'aliasInvalid',
  'duplicateInFile',
  'alreadyRegistered',
] as const;
export type GatewayImportProblem = (typeof GATEWAY_IMPORT_PROBLEMS)[number];

export const GatewayImportResultSchema = z.object({
  imported: z.number(),
  errors: z.array(z.object({ row: z.number(), sn: z.string(), problem: z.string() })),
});
export type GatewayImportResult = z.infer<typeof GatewayImportResultSchema>;

export const GatewayReplaceBodySchema = z.object({
  newSn: z.string().trim().min(1).max(64),
  newKey: z.string().min(1).max(GATEWAY_LIMITS.keyMaxLength),
});
export type GatewayReplaceBody = z.infer<typeof GatewayReplaceBodySchema>;

export const GatewayReplaceResultSchema = z.object({ id: z.number(), sn: z.string(), movedDevices: z.number() });

/** A host name or IPv4 address: letters, digits, dots and dashes, at most 253 characters. */
export const SERVER_HOST_PATTERN =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export const ServerAddressBodySchema = z.object({
  host: z.string().trim().regex(SERVER_HOST_PATTERN),
  port: z.coerce.number().int().min(1).max(65535),
});
export type ServerAddressBody = z.infer<typeof ServerAddressBodySchema>;

export const ServerAddressSchema = z.object({ host: z.string().nullable(), port: z.number().nullable() });
export type ServerAddress = z.infer<typeof ServerAddressSchema>;

/** "host:port" → its parts; nulls when not set or not in that shape. */
export function splitServerAddress(address: string | null): ServerAddress {
  const m = address ? /^(.+):(\d{1,5})$/.exec(address) : null;
  return m ? { host: m[1] ?? null, port: Number(m[2]) } : { host: null, port: null };
}

export const DigitalOutputBodySchema = z.object({ on: z.boolean() });

export const ConnectionPasswordBodySchema = z.object({ password: z.string().max(64) });

/** What the gateway confirmed after a setting was applied (the stored state now). */
export const GatewaySettingsSchema = z.object({
  serverAddress: z.string().nullable(),
  locked: z.boolean(),
  digitalOutput: z.boolean().nullable(),
  connectionPasswordAt: z.string().nullable(),
});
export type GatewaySettings = z.infer<typeof GatewaySettingsSchema>;

/**
 * Registration over JSON (`POST /api/v1/gateways`, issue 25): one gateway, or up to 1,000 in `gateways`,
 * with the same rules as the spreadsheet import. Without `key` the server generates one (16 hex
 * characters, like the printed ones) and answers it this once; it keeps only its SHA-256.
 */
export const GatewayRegistrationSchema = z.object({
  sn: z.string().trim().max(64),
  /** The key printed on the gateway (1–64 characters, no spaces or special characters); omitted: generated. */
  key: z.string().trim().max(200).optional(),
  alias: z.string().trim().max(200).optional(),
});
export type GatewayRegistration = z.infer<typeof GatewayRegistrationSchema>;
export const GatewayRegisterBodySchema = z.union([
  GatewayRegistrationSchema.strict(),
  z.object({ gateways: z.array(GatewayRegistrationSchema).min(1).max(GATEWAY_LIMITS.importRowsMax) }).strict(),
]);
export type GatewayRegisterBody = z.infer<typeof GatewayRegisterBodySchema>;
export const GatewayRegisterResultSchema = z.object({
  /** Registered gateways with their key, shown this once. */
  registered: z.array(z.object({ id: z.number(), sn: z.string(), key: z.string(), generated: z.boolean() })),
  /** Entries not registered: their position in `gateways` (0 for a single one), the problem code and its text. */
  errors: z.array(z.object({ index: z.number(), sn: z.string(), problem: z.enum(GATEWAY_IMPORT_PROBLEMS), message: z.string() })),
});
export type GatewayRegisterResult = z.infer<typeof GatewayRegisterResultSchema>;

/** A refused report, command reply or login of one gateway, as its communication log keeps it. */
export const GatewayRefusalSchema = z.object({
  at: z.string(),
  /** What was refused. */
  of: z.enum(['report', 'reply', 'login']),
  /** The protocol's reason code (docs/gateway-protocol.md), `login_refused` / `login_locked`; null when unknown. */
  reason: z.string().nullable(),
  /** What was wrong, as the server logged it (English, technical). */
  detail: z.string().nullable(),
  /** How many within that second. */
  count: z.number(),
});
export type GatewayRefusal = z.infer<typeof GatewayRefusalSchema>;
export const GatewayRefusalsSchema = z.object({
  /** Refusals (summed counts) in the last 24 hours. */
  last24h: z.number(),
  infos: z.array(GatewayRefusalSchema),
});
export type GatewayRefusals = z.infer<typeof GatewayRefusalsSchema>;
