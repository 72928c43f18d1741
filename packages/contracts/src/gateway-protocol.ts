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

const HexRegisters = z
  .string()
  .max(8000)
  .regex(/^([0-9a-fA-F]{4})*$/, 'registers as hex, 4 digits each');

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
  rssi: z.number().int().min(-150).max(0).optional(),
  comm: z.enum(['4G', 'WiFi', 'Ethernet', 'NB-IoT']).optional(),
  iccid: z.string().max(24).optional(),
  /** Seconds between reports, so the server knows when silence means offline. */
  interval: z.number().int().min(1).max(3600).optional(),
});
export type StatusPayload = z.infer<typeof StatusPayloadSchema>;
