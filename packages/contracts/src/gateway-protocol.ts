import { z } from 'zod';

/**
 * The gateway protocol over MQTT (docs/gateway-protocol.md): topics and payloads. A gateway's client
 * id and username are its SN, its password the registration key; it may only use its own topics.
 */
export const GATEWAY_PROTOCOL_VERSION = 1;
export const TOPIC_ROOT = 'sunward/v1/gw';

export type GatewayTopicKind = 'report' | 'event' | 'status' | 'reply' | 'cmd';

/** Topics a gateway publishes on (up) or subscribes to (down). */
export function gatewayTopic(sn: string, kind: GatewayTopicKind): string {
  return `${TOPIC_ROOT}/${sn}/${kind}`;
}

/** Reads `sunward/v1/gw/{sn}/{kind}`; undefined for anything else (wrong root, wildcards, extra levels). */
export function parseGatewayTopic(topic: string): { sn: string; kind: GatewayTopicKind } | undefined {
  const parts = topic.split('/');
  if (parts.length !== 5 || `${parts[0]}/${parts[1]}/${parts[2]}` !== TOPIC_ROOT) return undefined;
  const sn = parts[3] ?? '';
  const kind = parts[4] as GatewayTopicKind;
  if (!GATEWAY_SN_PATTERN.test(sn) || !['report', 'event', 'status', 'reply', 'cmd'].includes(kind)) return undefined;
  return { sn, kind };
}

/** Serial numbers: 2–32 letters, digits, dash or underscore (spec 01 §5 allows 2–22 for entry; devices may be longer). */
export const GATEWAY_SN_PATTERN = /^[A-Za-z0-9_-]{2,32}$/;

/** 4 hex digits per register. A loop over character codes: it checks every block of every report, 2× faster than a regex. */
export function isHexRegisters(hex: string): boolean {
  if (hex.length % 4 !== 0) return false;
  for (let i = 0; i < hex.length; i++) {
    const c = hex.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

const HexRegisters = z.string().max(8000).refine(isHexRegisters, 'registers as hex, 4 digits each');

export const RegisterBlockPayloadSchema = z.object({
  /** Modbus function code the registers were read with (3 holding, 4 input). */
  fc: z.union([z.literal(3), z.literal(4)]),
  /** Start address (PDU, 0-based). */
  addr: z.number().int().min(0).max(65535),
  /** The registers, big-endian, 4 hex digits each. */
  hex: HexRegisters,
});

export const DeviceReadingSchema = z.object({
  sn: z.string().regex(GATEWAY_SN_PATTERN),
  /** Protocol (register map) identifier, e.g. sunspec-inverter-3p. */
  proto: z.string().min(1).max(64),
  blocks: z.array(RegisterBlockPayloadSchema).max(64),
  /** Values the gateway decoded itself, by point id; used where no register block covers a point. */
  values: z.record(z.string().max(64), z.number()).optional(),
  /** A battery slave pack names its master pack (same gateway); read when the device is first seen. */
  parent: z.string().regex(GATEWAY_SN_PATTERN).optional(),
});
export type DeviceReading = z.infer<typeof DeviceReadingSchema>;

export const ReportPayloadSchema = z.object({
  v: z.literal(GATEWAY_PROTOCOL_VERSION),
  /** Per-gateway report number, +1 per report; lets the server see gaps. */
  seq: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1),
  /** When the registers were read, ms since the epoch (UTC). */
  ts: z.number().int().min(0),
  devices: z.array(DeviceReadingSchema).min(1).max(256),
});
export type ReportPayload = z.infer<typeof ReportPayloadSchema>;

export const StatusPayloadSchema = z.object({
  v: z.literal(GATEWAY_PROTOCOL_VERSION),
  online: z.boolean(),
  fw: z.string().max(32).optional(),
  hw: z.string().max(32).optional(),
  /** The gateway's maker and model as the hardware list names them: its firmware range applies to upgrades. */
  make: z.string().trim().min(1).max(64).optional(),
  model: z.string().trim().min(1).max(64).optional(),
  rssi: z.number().int().min(-150).max(0).optional(),
  comm: z.enum(['4G', 'WiFi', 'Ethernet', 'NB-IoT']).optional(),
  iccid: z.string().max(24).optional(),
  /** Seconds between reports, so the server knows when silence means offline. */
  interval: z.number().int().min(1).max(3600).optional(),
  /** The gateway's own settings as it now has them (see GatewayConfigStateSchema). */
  config: z.lazy(() => GatewayConfigStateSchema).optional(),
});
export type StatusPayload = z.infer<typeof StatusPayloadSchema>;

/** host:port the gateway connects to: a host name or IPv4 address and a port 1–65535. */
export const SERVER_ADDRESS_PATTERN =
  /^(?=.{1,253}:)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*:(?:[1-9]\d{0,3}|[1-5]\d{4}|6[0-4]\d{3}|65[0-4]\d{2}|655[0-2]\d|6553[0-5])$/;

/**
 * op `configure`: settings of the gateway itself (no `device`). Only the fields given change. A locked
 * gateway refuses every change but `locked: false` (answered `locked`); the connection (Wi-Fi or
 * Bluetooth) password is 8–24 characters with upper case, lower case and digits.
 */
export const GatewayConfigSchema = z
  .object({
    serverAddress: z.string().regex(SERVER_ADDRESS_PATTERN).optional(),
    locked: z.boolean().optional(),
    digitalOutput: z.boolean().optional(),
    connectionPassword: z
      .string()
      .regex(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)[\x21-\x7E]{8,24}$/)
      .optional(),
  })
  .refine((c) => Object.values(c).some((v) => v !== undefined), 'at least one setting');
export type GatewayConfig = z.infer<typeof GatewayConfigSchema>;

/** The settings a gateway reports (status, and its reply to `configure`): never the password itself. */
export const GatewayConfigStateSchema = z.object({
  serverAddress: z.string().max(300),
  locked: z.boolean(),
  digitalOutput: z.boolean(),
  /** When the connection password was last set, ms since the epoch; absent when never. */
  passwordSetAt: z.number().int().min(0).optional(),
});
export type GatewayConfigState = z.infer<typeof GatewayConfigStateSchema>;

/** Commands the server sends on `…/{sn}/cmd` (QoS 1); the gateway answers on `…/{sn}/reply` with the same id. */
export const CommandPayloadSchema = z.object({
  v: z.literal(GATEWAY_PROTOCOL_VERSION),
  /** Correlation id, unique per command. */
  id: z.string().min(1).max(64),
  /** Device SN behind the gateway; absent means the gateway itself. */
  device: z.string().regex(GATEWAY_SN_PATTERN).optional(),
  op: z.enum(['read', 'write', 'boot', 'shutdown', 'set', 'upgrade', 'cancel_upgrade', 'configure']),
  /** read: function code 1–4 and range; write: 5, 6, 15 or 16 with the registers as hex. */
  fc: z
    .union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6), z.literal(15), z.literal(16)])
    .optional(),
  addr: z.number().int().min(0).max(65535).optional(),
  count: z.number().int().min(1).max(125).optional(),
  hex: z
    .string()
    .max(1000)
    .regex(/^([0-9a-fA-F]{4})*$/)
    .optional(),
  /** set: engineering values by point id of the device's register map. */
  params: z.record(z.string().max(64), z.number()).optional(),
  /** upgrade: the image to fetch, with the hash the device checks before applying it. */
  firmware: z
    .object({
      url: z.string().url(),
      version: z.string().max(32),
      size: z.number().int().positive(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      /** The platform's Ed25519 signature over the SHA-256 digest (base64); the device refuses an image it does not verify. */
      signature: z.string().max(200).optional(),
    })
    .optional(),
  /** configure: the gateway settings to change. */
  config: GatewayConfigSchema.optional(),
  /** The gateway drops a command it receives after this time (ms since the epoch). */
  expiresAt: z.number().int().optional(),
});
export type CommandPayload = z.infer<typeof CommandPayloadSchema>;

export const COMMAND_ERRORS = [
  'device_offline',
  'device_upgrading',
  'unsupported',
  'bad_request',
  'out_of_range',
  'hash_mismatch',
  'signature_invalid',
  'incompatible',
  'download_failed',
  'expired',
  'cancelled',
  'locked',
] as const;

export const ReplyPayloadSchema = z.object({
  v: z.literal(GATEWAY_PROTOCOL_VERSION),
  id: z.string().min(1).max(64),
  status: z.enum(['ok', 'error', 'progress']),
  /** progress: percent done (upgrades). */
  progress: z.number().min(0).max(100).optional(),
  error: z.enum(COMMAND_ERRORS).optional(),
  message: z.string().max(500).optional(),
  /** read: the registers, 4 hex digits each. */
  hex: z.string().max(1000).optional(),
  /** set/read: engineering values by point id, as the device now has them. */
  values: z.record(z.string(), z.union([z.number(), z.string()])).optional(),
  /** upgrade: the version running after it. */
  version: z.string().max(32).optional(),
  /** configure: the gateway's settings after it. */
  config: GatewayConfigStateSchema.optional(),
});
export type ReplyPayload = z.infer<typeof ReplyPayloadSchema>;

/**
 * Why a report (or one device reading of it) was refused: acknowledged, not stored, answered on
 * `…/{sn}/report/refused` (docs/gateway-protocol.md, "Refused readings").
 */
export const REPORT_REFUSAL_REASONS = [
  'malformed_json',
  'malformed_payload',
  'unknown_device',
  'device_of_other_gateway',
  'unknown_protocol',
  'protocol_mismatch',
  'bad_registers',
  'timestamp_in_future',
  'timestamp_too_old',
  'value_out_of_range',
  'deleted_device',
  'unstorable',
  /** The protocol's script (issue 19) threw, overran its time or memory, or returned a point the protocol lacks. */
  'script_failed',
] as const;
export type ReportRefusalReason = (typeof REPORT_REFUSAL_REASONS)[number];

/** Why a command reply was refused (answered on `…/{sn}/reply/refused`); the command keeps waiting for a good one. */
export const REPLY_REFUSAL_REASONS = ['malformed_json', 'malformed_payload'] as const;
export type ReplyRefusalReason = (typeof REPLY_REFUSAL_REASONS)[number];

/** What a refusal answers: a report or a command reply. */
export type RefusedKind = 'report' | 'reply';

/** The topic on which the server answers a gateway's refused report or reply: `sunward/v1/gw/{sn}/report/refused`. */
export function gatewayRefusedTopic(sn: string, of: RefusedKind): string {
  return `${TOPIC_ROOT}/${sn}/${of}/refused`;
}

/** Reads `sunward/v1/gw/{sn}/{report|reply}/refused`; undefined for anything else. */
export function parseGatewayRefusedTopic(topic: string): { sn: string; of: RefusedKind } | undefined {
  const parts = topic.split('/');
  if (parts.length !== 6 || parts[5] !== 'refused') return undefined;
  const parsed = parseGatewayTopic(parts.slice(0, 5).join('/'));
  if (!parsed || (parsed.kind !== 'report' && parsed.kind !== 'reply')) return undefined;
  return { sn: parsed.sn, of: parsed.kind };
}

/** Server → gateway on `…/report/refused` (QoS 1): one message per refused report or device reading. */
export const ReportRefusalPayloadSchema = z.object({
  v: z.literal(GATEWAY_PROTOCOL_VERSION),
  /** The refused report's `seq`; null when the payload was not readable far enough to have one. */
  seq: z.number().int().nullable(),
  /** The report's `ts`, when readable. */
  ts: z.number().int().nullable(),
  reason: z.enum(REPORT_REFUSAL_REASONS),
  /** The device whose reading was refused; absent when the whole report was. */
  device: z.string().optional(),
  /** For malformed payloads: the path of the first wrong field, e.g. `devices.0.blocks`. */
  field: z.string().optional(),
  /** What was wrong, in English, for the gateway's own log. */
  detail: z.string().max(500).optional(),
});
export type ReportRefusalPayload = z.infer<typeof ReportRefusalPayloadSchema>;

/** Server → gateway on `…/reply/refused` (QoS 1): a command reply that could not be read. */
export const ReplyRefusalPayloadSchema = z.object({
  v: z.literal(GATEWAY_PROTOCOL_VERSION),
  /** The reply's `id` when readable, else null. */
  id: z.string().nullable(),
  reason: z.enum(REPLY_REFUSAL_REASONS),
  /** The first wrong field, e.g. `status`. */
  field: z.string().optional(),
  detail: z.string().max(500).optional(),
});
export type ReplyRefusalPayload = z.infer<typeof ReplyRefusalPayloadSchema>;

/** Registration keys the server generates (`POST /api/v1/gateways` without a key) are 16 hex characters, like the printed ones. */
export const GATEWAY_KEY_PATTERN = /^[0-9a-f]{16}$/;
