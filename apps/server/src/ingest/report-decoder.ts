import { type ReportPayload, ReportPayloadSchema, type ReportRefusalReason } from '@sunward/contracts/gateway-protocol';
import { decodeBlocksIndexed, decodeEventsIndexed, mapPoints, numericPointIndexes, registersFromHex } from '@sunward/protocol/codec';
import type { PointRole, ProtocolDefinition, RegisterBlock } from '@sunward/protocol/types';
import { hasScript, runInstalledScript, type ScriptInput, type ScriptOutcome } from './protocol-scripts.js';
import { fastCheckedReport } from './report-fast-check.js';

/** Why a report or one device of it was not stored; counted, logged and answered by the pipeline. */
export type RejectReason = ReportRefusalReason;

/**
 * The accepted window for what a gateway sends (docs/gateway-protocol.md, "Refused readings"). A reading
 * before 2000 is a gateway whose clock was never set; after now + maxFutureMs (or past what a Date can
 * hold) a clock gone wrong. Numbers beyond ±1e15 (a petawatt-hour counter) are a scale-factor or register
 * glitch that would wreck the energy rollups.
 */
export const REPORT_LIMITS = {
  /** 2000-01-01T00:00:00Z. */
  minTs: Date.UTC(2000, 0, 1),
  maxAbsValue: 1e15,
  /** A report's payload (256 devices of a dozen blocks each are about 1 MB); larger is refused unparsed. */
  maxBytes: 4 * 1024 * 1024,
} as const;

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

/** A report that could not be read: the reason, the first wrong field, and its seq/ts where readable. */
export interface ReportParseFailure {
  ok: false;
  reason: RejectReason;
  detail: string;
  field?: string;
  seq: number | null;
  ts: number | null;
}

export function parseReport(payload: Buffer | string): { ok: true; report: ReportPayload } | ReportParseFailure {
  if (payload.length > REPORT_LIMITS.maxBytes)
    return { ok: false, reason: 'malformed_payload', detail: `${payload.length} bytes`, seq: null, ts: null };
  let json: unknown;
  try {
    json = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed_json', detail: 'not JSON', seq: null, ts: null };
  }
  // The common report needs no zod; anything else zod decides (and words the refusal).
  const plain = fastCheckedReport(json);
  if (plain) return { ok: true, report: plain };
  const parsed = ReportPayloadSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    // The sequence and time, when readable, so the gateway's answer names the report it refuses.
    const head = typeof json === 'object' && json !== null ? (json as { seq?: unknown; ts?: unknown }) : {};
    return {
      ok: false,
      reason: 'malformed_payload',
      detail: `${field}: ${issue?.message ?? ''}`,
      field,
      seq: Number.isSafeInteger(head.seq) ? (head.seq as number) : null,
      ts: Number.isSafeInteger(head.ts) ? (head.ts as number) : null,
    };
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
  const window = timestampRefusal(report.ts, context);
  if (window) return { seq: report.seq, readings: [], rejected: [window] };
  const ts = new Date(report.ts);
  const readings: DecodedReading[] = [];
  for (const device of report.devices) {
    // One device's data can never take the report (or the server) down with it.
    try {
      const outcome = decodeDevice(device, ts, context);
      if ('reason' in outcome) rejected.push(outcome);
      else readings.push(outcome);
    } catch (error) {
      rejected.push({
        reason: 'bad_registers',
        sn: device.sn,
        detail: error instanceof Error ? error.message.slice(0, 200) : 'decode failed',
      });
    }
  }
  return { seq: report.seq, readings, rejected };
}

/** Why a report's time is outside the accepted window, or null when it is inside. */
export function timestampRefusal(
  tsMs: number,
  context: Pick<DecodeContext, 'now' | 'maxAgeMs' | 'maxFutureMs'>,
): DecodedReport['rejected'][number] | null {
  const now = context.now.getTime();
  // NaN (a time past what a Date holds, ±8.64e15 ms) fails every comparison, hence the explicit checks.
  if (!Number.isFinite(tsMs) || !Number.isFinite(new Date(tsMs).getTime()) || tsMs > now + context.maxFutureMs)
    return { reason: 'timestamp_in_future', detail: String(tsMs) };
  if (tsMs < REPORT_LIMITS.minTs || tsMs < now - context.maxAgeMs) return { reason: 'timestamp_too_old', detail: String(tsMs) };
  return null;
}

/** The first numeric point outside ±REPORT_LIMITS.maxAbsValue (NaN is "absent" and fine), or null. */
function outOfRange(numbers: Float64Array, points: readonly { id: string }[]): string | null {
  for (let i = 0; i < numbers.length; i++) {
    const value = numbers[i] ?? Number.NaN;
    if (!Number.isNaN(value) && !(Math.abs(value) <= REPORT_LIMITS.maxAbsValue)) return `${points[i]?.id ?? i}: ${value}`;
  }
  return null;
}

type Refusal = DecodedReport['rejected'][number];

function decodeDevice(device: ReportPayload['devices'][number], ts: Date, context: DecodeContext): DecodedReading | Refusal {
  const known = context.findDevice(device.sn);
  if (!known) return { reason: 'unknown_device', sn: device.sn };
  if (known.gatewayId !== context.gatewayId) return { reason: 'device_of_other_gateway', sn: device.sn };
  if (device.proto !== known.protocolId) return { reason: 'protocol_mismatch', sn: device.sn, detail: device.proto };
  const protocol = context.findProtocol(device.proto);
  if (!protocol) return { reason: 'unknown_protocol', sn: device.sn, detail: device.proto };
  const blocks: RegisterBlock[] = [];
  let badBlock = false;
  for (const block of device.blocks) {
    const registers = registersFromHex(block.hex);
    if (!registers) badBlock = true;
    else blocks.push({ functionCode: block.fc, address: block.addr, registers });
  }
  const decoded = decodeBlocksIndexed(protocol, blocks);
  const { numbers, texts } = decoded;
  if (badBlock || (decoded.problems.length > 0 && texts.size === 0 && numbers.every(Number.isNaN)))
    return { reason: 'bad_registers', sn: device.sn, detail: decoded.problems.slice(0, 3).join('; ') };
  const plan = storagePlan(protocol);
  // Values the gateway decoded itself fill the points no register block carried.
  for (const [id, value] of Object.entries(device.values ?? {})) {
    const index = plan.indexById.get(id);
    if (index !== undefined && Number.isNaN(numbers[index]) && !texts.has(index)) numbers[index] = value;
  }
  // The protocol's script (issue 19), when its configuration version has one: a failure refuses the reading. Its
  // input (every point and register by name) is only built for a protocol that has one: for the rest that work
  // was a third of the ingest's CPU (bench/ingest.ts).
  const scriptError = hasScript(protocol.id)
    ? applyScript(protocol, blocks, numbers, (input) => runInstalledScript(protocol.id, input))
    : null;
  if (scriptError !== null) return { reason: 'script_failed', sn: device.sn, detail: scriptError };
  const wild = outOfRange(numbers, mapPoints(protocol));
  if (wild !== null) return { reason: 'value_out_of_range', sn: device.sn, detail: wild };
  const values = new Array<number>(plan.order.length);
  for (let i = 0; i < plan.order.length; i++) values[i] = numbers[plan.order[i] ?? -1] ?? Number.NaN;
  return {
    deviceId: known.id,
    ts,
    values,
    powerW: pick(plan, numbers, 'power'),
    energyTotalWh: pick(plan, numbers, 'energy_total'),
    soc: pick(plan, numbers, 'soc'),
    operatingState: pick(plan, numbers, 'operating_state'),
    activeEvents: decodeEventsIndexed(protocol, numbers).map((e) => ({ code: e.code, level: e.level })),
    nameplate: { brand: text(plan, texts, 'Mn'), model: text(plan, texts, 'Md'), firmware: text(plan, texts, 'Vr') },
  };
}

/** A script's input: the decoded numeric points (null where absent) and the raw registers by address. */
export function scriptInputOf(protocol: ProtocolDefinition, blocks: readonly RegisterBlock[], numbers: Float64Array): ScriptInput {
  const points: Record<string, number | null> = {};
  mapPoints(protocol).forEach((point, index) => {
    if (point.type === 'string' || point.id in points) return;
    const value = numbers[index] ?? Number.NaN;
    points[point.id] = Number.isNaN(value) ? null : value;
  });
  const holding: Record<string, number> = {};
  const input: Record<string, number> = {};
  for (const block of blocks) {
    const target = block.functionCode === 4 ? input : holding;
    block.registers.forEach((value, i) => {
      target[block.address + i] = value;
    });
  }
  return { points, holding, input };
}

/**
 * Runs a protocol's script on a decoded reading: the points it returns replace or fill the decoded ones
 * (null clears one). Null when it ran (or there is none), else why it failed: the script's own error, an
 * overrun, or a point the protocol does not have, named.
 */
export function applyScript(
  protocol: ProtocolDefinition,
  blocks: readonly RegisterBlock[],
  numbers: Float64Array,
  run: (input: ScriptInput) => ScriptOutcome | undefined,
): string | null {
  const plan = storagePlan(protocol);
  const outcome = run(scriptInputOf(protocol, blocks, numbers));
  if (outcome === undefined) return null;
  if (!outcome.ok) return `transform: ${outcome.error}`;
  for (const id of Object.keys(outcome.values)) {
    const index = plan.indexById.get(id);
    const point = index === undefined ? undefined : mapPoints(protocol)[index];
    if (index === undefined || point?.type === 'string') return `transform: the protocol has no numeric point ${id.slice(0, 64)}`;
  }
  for (const [id, value] of Object.entries(outcome.values)) numbers[plan.indexById.get(id) ?? -1] = value ?? Number.NaN;
  return null;
}
