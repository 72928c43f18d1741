import { type ReportPayload, ReportPayloadSchema } from '@sunward/contracts/gateway-protocol';
import { decodeBlocks, decodeEvents, numericPointIds, registersFromHex } from '@sunward/protocol/codec';
import type { ProtocolDefinition, RegisterBlock } from '@sunward/protocol/types';

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

function text(values: Record<string, number | string>, id: string): string | null {
  const value = values[id];
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 64) : null;
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
  order: string[];
  roles: Map<string, string>;
}

// Worked out once per map: the storage order and which point plays which role.
const plans = new WeakMap<ProtocolDefinition, StoragePlan>();
function storagePlan(protocol: ProtocolDefinition): StoragePlan {
  let plan = plans.get(protocol);
  if (!plan) {
    const roles = new Map<string, string>();
    for (const point of protocol.points) if (point.role && !roles.has(point.role)) roles.set(point.role, point.id);
    plan = { order: numericPointIds(protocol), roles };
    plans.set(protocol, plan);
  }
  return plan;
}

function pick(plan: StoragePlan, values: Record<string, number | string>, role: string): number | null {
  const id = plan.roles.get(role);
  const value = id === undefined ? undefined : values[id];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
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
    const decoded = decodeBlocks(protocol, blocks);
    if (badBlock || (decoded.problems.length > 0 && Object.keys(decoded.values).length === 0)) {
      rejected.push({ reason: 'bad_registers', sn: device.sn, detail: decoded.problems.slice(0, 3).join('; ') });
      continue;
    }
    const values: Record<string, number | string> = { ...device.values, ...decoded.values };
    const plan = storagePlan(protocol);
    readings.push({
      deviceId: known.id,
      ts,
      values: plan.order.map((id) => {
        const v = values[id];
        return typeof v === 'number' && Number.isFinite(v) ? v : Number.NaN;
      }),
      powerW: pick(plan, values, 'power'),
      energyTotalWh: pick(plan, values, 'energy_total'),
      soc: pick(plan, values, 'soc'),
      operatingState: pick(plan, values, 'operating_state'),
      activeEvents: decodeEvents(protocol, values).map((e) => ({ code: e.code, level: e.level })),
      nameplate: { brand: text(values, 'Mn'), model: text(values, 'Md'), firmware: text(values, 'Vr') },
    });
  }
  return { seq: report.seq, readings, rejected };
}
