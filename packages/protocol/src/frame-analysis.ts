/**
 * Protocol analysis (issue 19 item 4, spec 01 §2 management: protocol analysis): a Modbus RTU or TCP frame,
 * or a gateway report, read with a chosen register map. Every register the frame carries is named by the
 * point that covers it, each point decoded; addresses no point covers are flagged. Pure: the server runs it
 * with the map its protocol store holds.
 */
import { decodeBlocks, registersFromHex } from './codec.js';
import { crc16Modbus, hexToBytes, parseRtuFrame } from './modbus-frame.js';
import type { DecodedValue, ProtocolDefinition, RegisterBlock } from './types.js';

export type FrameFormat = 'rtu' | 'tcp' | 'report';

/** What the frame is, as read from its function code and length. */
export type FrameKind = 'read-response' | 'read-request' | 'write-single' | 'write-multiple' | 'exception' | 'report';

/** Why a frame cannot be read: the field it concerns and a reason the caller words in the user's language. */
export interface FrameProblem {
  field: 'frame' | 'startAddress';
  reason:
    | 'not_hex'
    | 'too_short'
    | 'crc'
    | 'mbap_length'
    | 'mbap_protocol'
    | 'byte_count'
    | 'function_code'
    | 'start_address_needed'
    | 'report_json'
    | 'report_blocks';
  /** For crc: the CRC the frame's bytes give and the one it carries, as hex. */
  expected?: string;
  found?: string;
}

export interface AnalysedRegister {
  address: number;
  hex: string;
  /** The point whose registers include this one, or null (an address the map does not describe). */
  pointId: string | null;
}

export interface AnalysedPoint {
  id: string;
  label: { en: string; zh: string };
  address: number;
  count: number;
  type: string;
  unit: string | null;
  /** The point's registers as hex, as the frame carries them. */
  hex: string;
  value: DecodedValue | null;
}

export interface FrameAnalysis {
  format: FrameFormat;
  kind: FrameKind;
  slave: number | null;
  functionCode: number | null;
  /** RTU: the CRC as computed and as sent; both equal, or the frame was refused. */
  crc: string | null;
  /** Modbus exception code of an exception response. */
  exceptionCode: number | null;
  /** A read request: the range it asks for (no values in it). */
  requested: { address: number; count: number } | null;
  registers: AnalysedRegister[];
  points: AnalysedPoint[];
  /** Address ranges in the frame that no point of the map covers. */
  unknown: { from: number; to: number }[];
  /** Points of the map that could not be decoded from the frame's registers (partly covered, bad type…). */
  problems: string[];
}

export type AnalyseResult = { ok: true; analysis: FrameAnalysis } | { ok: false; problem: FrameProblem };

const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
const word = (bytes: Uint8Array, at: number) => ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);

interface Pdu {
  slave: number | null;
  crc: string | null;
  pdu: Uint8Array;
}

function unwrap(format: 'rtu' | 'tcp', text: string): { ok: true; value: Pdu } | { ok: false; problem: FrameProblem } {
  const bytes = hexToBytes(text);
  if (!bytes) return { ok: false, problem: { field: 'frame', reason: 'not_hex' } };
  if (format === 'rtu') {
    const frame = parseRtuFrame(bytes);
    if (!frame.ok) return { ok: false, problem: { field: 'frame', reason: 'too_short' } };
    const found = ((bytes[bytes.length - 1] ?? 0) << 8) | (bytes[bytes.length - 2] ?? 0);
    if (!frame.crcOk)
      return { ok: false, problem: { field: 'frame', reason: 'crc', expected: hex4(frame.expectedCrc), found: hex4(found) } };
    return {
      ok: true,
      value: { slave: frame.slave, crc: hex4(crc16Modbus(bytes.subarray(0, bytes.length - 2))), pdu: bytes.subarray(1, -2) },
    };
  }
  if (bytes.length < 8) return { ok: false, problem: { field: 'frame', reason: 'too_short' } };
  if (word(bytes, 2) !== 0) return { ok: false, problem: { field: 'frame', reason: 'mbap_protocol' } };
  if (word(bytes, 4) !== bytes.length - 6) return { ok: false, problem: { field: 'frame', reason: 'mbap_length' } };
  return { ok: true, value: { slave: bytes[6] ?? 0, crc: null, pdu: bytes.subarray(7) } };
}

/** The register blocks a PDU carries (none for a read request or an exception), and what it is. */
function blocksOfPdu(
  pdu: Uint8Array,
  startAddress: number | undefined,
):
  | { ok: true; kind: FrameKind; fc: number; blocks: RegisterBlock[]; requested: FrameAnalysis['requested']; exception: number | null }
  | { ok: false; problem: FrameProblem } {
  const fc = pdu[0] ?? 0;
  const data = pdu.subarray(1);
  if (fc & 0x80) return { ok: true, kind: 'exception', fc: fc & 0x7f, blocks: [], requested: null, exception: data[0] ?? null };
  if (fc === 3 || fc === 4) {
    if (data.length === 4)
      return {
        ok: true,
        kind: 'read-request',
        fc,
        blocks: [],
        requested: { address: word(data, 0), count: word(data, 2) },
        exception: null,
      };
    const byteCount = data[0] ?? 0;
    if (byteCount !== data.length - 1 || byteCount % 2 !== 0) return { ok: false, problem: { field: 'frame', reason: 'byte_count' } };
    if (startAddress === undefined) return { ok: false, problem: { field: 'startAddress', reason: 'start_address_needed' } };
    const registers = Array.from({ length: byteCount / 2 }, (_, i) => word(data, 1 + i * 2));
    return {
      ok: true,
      kind: 'read-response',
      fc,
      blocks: [{ functionCode: fc, address: startAddress, registers }],
      requested: null,
      exception: null,
    };
  }
  if (fc === 6) {
    if (data.length !== 4) return { ok: false, problem: { field: 'frame', reason: 'byte_count' } };
    return {
      ok: true,
      kind: 'write-single',
      fc,
      blocks: [{ functionCode: 3, address: word(data, 0), registers: [word(data, 2)] }],
      requested: null,
      exception: null,
    };
  }
  if (fc === 16) {
    const count = word(data, 2);
    const byteCount = data[4] ?? 0;
    if (data.length < 5 || byteCount !== count * 2 || data.length !== 5 + byteCount)
      return { ok: false, problem: { field: 'frame', reason: 'byte_count' } };
    const registers = Array.from({ length: count }, (_, i) => word(data, 5 + i * 2));
    return {
      ok: true,
      kind: 'write-multiple',
      fc,
      blocks: [{ functionCode: 3, address: word(data, 0), registers }],
      requested: null,
      exception: null,
    };
  }
  return { ok: false, problem: { field: 'frame', reason: 'function_code' } };
}

/** A gateway report (docs/gateway-protocol.md): the blocks of its first device on this map, else its first device. */
function blocksOfReport(text: string, protocolId: string): { ok: true; blocks: RegisterBlock[] } | { ok: false; problem: FrameProblem } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: { field: 'frame', reason: 'report_json' } };
  }
  const object = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  // A whole report, one device's reading, or a bare list of blocks.
  let rawBlocks: unknown;
  if (object(json) && Array.isArray(json.devices)) {
    const devices = json.devices.filter(object);
    const device = devices.find((d) => d.proto === protocolId) ?? devices[0];
    rawBlocks = device?.blocks;
  } else if (object(json)) rawBlocks = json.blocks;
  else rawBlocks = json;
  if (!Array.isArray(rawBlocks) || rawBlocks.length === 0) return { ok: false, problem: { field: 'frame', reason: 'report_blocks' } };
  const blocks: RegisterBlock[] = [];
  for (const b of rawBlocks) {
    if (!object(b) || (b.fc !== 3 && b.fc !== 4) || typeof b.addr !== 'number' || typeof b.hex !== 'string')
      return { ok: false, problem: { field: 'frame', reason: 'report_blocks' } };
    const registers = registersFromHex(b.hex);
    if (!registers || !Number.isInteger(b.addr) || b.addr < 0 || b.addr + registers.length > 0x10000)
      return { ok: false, problem: { field: 'frame', reason: 'report_blocks' } };
    blocks.push({ functionCode: b.fc, address: b.addr, registers });
  }
  return { ok: true, blocks };
}

/** Reads a frame or report with a register map. */
export function analyseFrame(
  protocol: ProtocolDefinition,
  input: { format: FrameFormat; frame: string; startAddress?: number | undefined },
): AnalyseResult {
  let slave: number | null = null;
  let crc: string | null = null;
  let kind: FrameKind = 'report';
  let functionCode: number | null = null;
  let exceptionCode: number | null = null;
  let requested: FrameAnalysis['requested'] = null;
  let blocks: RegisterBlock[];
  if (input.format === 'report') {
    const read = blocksOfReport(input.frame, protocol.id);
    if (!read.ok) return read;
    blocks = read.blocks;
  } else {
    const unwrapped = unwrap(input.format, input.frame);
    if (!unwrapped.ok) return unwrapped;
    ({ slave, crc } = unwrapped.value);
    const read = blocksOfPdu(unwrapped.value.pdu, input.startAddress);
    if (!read.ok) return read;
    ({ kind, blocks, requested } = read);
    functionCode = read.fc;
    exceptionCode = read.exception;
  }

  // Which point covers each register (same function code: 3 holding, 4 input).
  const owner = new Map<string, string>();
  for (const point of protocol.points)
    for (let a = point.address; a < point.address + point.count; a++) owner.set(`${point.functionCode}:${a}`, point.id);
  const registers: AnalysedRegister[] = [];
  const unknown: FrameAnalysis['unknown'] = [];
  const byAddress = new Map<string, number>();
  for (const block of blocks)
    block.registers.forEach((value, i) => {
      const address = block.address + i;
      const pointId = owner.get(`${block.functionCode}:${address}`) ?? null;
      byAddress.set(`${block.functionCode}:${address}`, value);
      registers.push({ address, hex: hex4(value), pointId });
      const last = unknown[unknown.length - 1];
      if (pointId !== null) return;
      if (last && last.to === address - 1) last.to = address;
      else unknown.push({ from: address, to: address });
    });
  // A requested range without values: the points it would read.
  if (requested) {
    const { address, count } = requested;
    for (let a = address; a < address + count; a++) {
      const pointId = owner.get(`${functionCode}:${a}`) ?? null;
      registers.push({ address: a, hex: '', pointId });
      const last = unknown[unknown.length - 1];
      if (pointId !== null) continue;
      if (last && last.to === a - 1) last.to = a;
      else unknown.push({ from: a, to: a });
    }
  }

  const decoded = decodeBlocks(protocol, blocks);
  const present = new Set(registers.map((r) => r.pointId).filter((id): id is string => id !== null));
  const points: AnalysedPoint[] = protocol.points
    .filter((p) => present.has(p.id))
    .map((p) => ({
      id: p.id,
      label: p.label,
      address: p.address,
      count: p.count,
      type: p.type,
      unit: p.unit ?? null,
      hex: Array.from({ length: p.count }, (_, i) => byAddress.get(`${p.functionCode}:${p.address + i}`))
        .map((v) => (v === undefined ? '----' : hex4(v)))
        .join(' '),
      value: decoded.values[p.id] ?? null,
    }));
  return {
    ok: true,
    analysis: {
      format: input.format,
      kind,
      slave,
      functionCode,
      crc,
      exceptionCode,
      requested,
      registers,
      points,
      unknown,
      // The frame's own points (a partial frame leaves the rest of the map missing: not a problem here).
      problems: decoded.problems.filter(
        (p) => !p.startsWith('required point') && (!p.startsWith('point "') || present.has(p.slice(7, p.indexOf('"', 7)))),
      ),
    },
  };
}
