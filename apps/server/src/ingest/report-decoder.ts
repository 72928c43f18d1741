import { type ReportPayload, ReportPayloadSchema } from '@sunward/contracts/gateway-protocol';
import { decodeBlocksIndexed, decodeEventsIndexed, mapPoints, numericPointIndexes, registersFromHex } from '@sunward/protocol/codec';
import type { PointRole, ProtocolDefinition, RegisterBlock } from '@sunward/protocol/types';

/** Why a report or one device of it was not stored; counted and logged by the pipeline. */
export type RejectReason =
  | 'malformed_json'
  | 'malformed_payload'
  | 'unknown_device'
  | 'device_of_other_gateway'
  | 'unknown_protocol'
  | 'protocol_mismatch'
  | 'bad_registers'
  | 'timestamp_in_future'
  | 'timestamp_too_old';

export interface KnownDevice {
  id: number;
  gatewayId: number | null;
  protocolId: string;
}

export interface DecodedReading {
  deviceId: number;
  ts: Date;
  /** Numeric points in the protocol's storage order (numericPointIds); NaN where absent. */
  values: number[];
  powerW: number | null;
  energyTotalWh: number | null;
  soc: number | null;
  operatingState: number | null;
  /** Event codes whose bits are set, with their level. */
  activeEvents: { code: number; level: string }[];
  /** The device's own nameplate strings (SunSpec Mn, Md, Vr), when the report carries them. */
  nameplate: { brand: string | null; model: string | null; firmware: string | null };
}

export interface DecodeContext {
  gatewayId: number;
  now: Date;
  /** Oldest accepted reading (store-and-forward replays older than this are refused). */
  maxAgeMs: number;
  /** Readings further ahead than this (clock skew) are refused. */
  maxFutureMs: number;
  findDevice(sn: string): KnownDevice | undefined;
  findProtocol(id: string): ProtocolDefinition | undefined;
}

export interface DecodedReport {
  seq: number;
  readings: DecodedReading[];
  rejected: { reason: RejectReason; sn?: string; detail?: string }[];
}

export function parseReport(
  payload: Buffer | string,
): { ok: true; report: ReportPayload } | { ok: false; reason: RejectReason; detail: string } {
  let json: unknown;
  try {
    json = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed_json', detail: 'not JSON' };
  }
  const parsed = ReportPayloadSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: 'malformed_payload', detail: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}` };
  }
  return { ok: true, report: parsed.data };
}

interface StoragePlan {
  /** Point indexes (of `mapPoints`) stored, in storage order. */
  order: number[];
  indexById: Map<string, number>;
  roles: Map<PointRole, number>;
}

// Worked out once per map: the storage order and which point plays which role.
const plans = new WeakMap<ProtocolDefinition, StoragePlan>();
function storagePlan(protocol: ProtocolDefinition): StoragePlan {
  let plan = plans.get(protocol);
  if (!plan) {
    const indexById = new Map<string, number>();
    const roles = new Map<PointRole, number>();
    mapPoints(protocol).forEach((point, index) => {
      if (!indexById.has(point.id)) indexById.set(point.id, index);
      if (point.role && !roles.has(point.role)) roles.set(point.role, index);
    });
    plan = { order: numericPointIndexes(protocol), indexById, roles };
    plans.set(protocol, plan);
  }
  return plan;
}

function pick(plan: StoragePlan, numbers: Float64Array, role: PointRole): number | null {
  const value = numbers[plan.roles.get(role) ?? -1];
  return value !== undefined && Number.isFinite(value) ? value : null;
}

function text(plan: StoragePlan, texts: Map<number, string>, id: string): string | null {
  const value = texts.get(plan.indexById.get(id) ?? -1)?.trim();
  return value ? value.slice(0, 64) : null;
}

/**
 * Turns a validated report into readings ready to store. Pure: device and protocol lookups are
 * passed in. A device that cannot be decoded is rejected alone; the rest of the report is kept.
 */
export function decodeReport(report: ReportPayload, context: DecodeContext): DecodedReport {
  const rejected: DecodedReport['rejected'] = [];
  const ts = new Date(report.ts);
  if (ts.getTime() > context.now.getTime() + context.maxFutureMs) {
    return { seq: report.seq, readings: [], rejected: [{ reason: 'timestamp_in_future', detail: ts.toISOString() }] };
  }
  if (ts.getTime() < context.now.getTime() - context.maxAgeMs) {
    return { seq: report.seq, readings: [], rejected: [{ reason: 'timestamp_too_old', detail: ts.toISOString() }] };
  }
  const readings: DecodedReading[] = [];
  for (const device of report.devices) {
    const known = context.findDevice(device.sn);
    if (!known) {
      rejected.push({ reason: 'unknown_device', sn: device.sn });
      continue;
    }
    if (known.gatewayId !== context.gatewayId) {
      rejected.push({ reason: 'device_of_other_gateway', sn: device.sn });
      continue;
    }
    if (device.proto !== known.protocolId) {
      rejected.push({ reason: 'protocol_mismatch', sn: device.sn, detail: device.proto });
      continue;
    }
    const protocol = context.findProtocol(device.proto);
    if (!protocol) {
      rejected.push({ reason: 'unknown_protocol', sn: device.sn, detail: device.proto });
      continue;
    }
    const blocks: RegisterBlock[] = [];
    let badBlock = false;
    for (const block of device.blocks) {
      const registers = registersFromHex(block.hex);
      if (!registers) badBlock = true;
      else blocks.push({ functionCode: block.fc, address: block.addr, registers });
    }
    const decoded = decodeBlocksIndexed(protocol, blocks);
    const { numbers, texts } = decoded;
    if (badBlock || (decoded.problems.length > 0 && texts.size === 0 && numbers.every(Number.isNaN))) {
      rejected.push({ reason: 'bad_registers', sn: device.sn, detail: decoded.problems.slice(0, 3).join('; ') });
      continue;
    }
    const plan = storagePlan(protocol);
    // Values the gateway decoded itself fill the points no register block carried.
    for (const [id, value] of Object.entries(device.values ?? {})) {
      const index = plan.indexById.get(id);
      if (index !== undefined && Number.isNaN(numbers[index]) && !texts.has(index) && Number.isFinite(value)) numbers[index] = value;
    }
    const values = new Array<number>(plan.order.length);
    for (let i = 0; i < plan.order.length; i++) values[i] = numbers[plan.order[i] ?? -1] ?? Number.NaN;
    readings.push({
      deviceId: known.id,
      ts,
      values,
      powerW: pick(plan, numbers, 'power'),
      energyTotalWh: pick(plan, numbers, 'energy_total'),
      soc: pick(plan, numbers, 'soc'),
      operatingState: pick(plan, numbers, 'operating_state'),
      activeEvents: decodeEventsIndexed(protocol, numbers).map((e) => ({ code: e.code, level: e.level })),
      nameplate: { brand: text(plan, texts, 'Mn'), model: text(plan, texts, 'Md'), firmware: text(plan, texts, 'Vr') },
    });
  }
  return { seq: report.seq, readings, rejected };
}
