/**
 * The pure decoder and encoder for register maps (spec 02 §3 Protocol). The server decodes what gateways
 * send with `decodeBlocks`; the simulator produces the same frames with `encodeValues`. Gateway input is
 * untrusted, so nothing here throws on bad input: whatever cannot be decoded becomes a readable problem.
 */
import type {
  DataType,
  DecodedValue,
  DecodeResult,
  EventDefinition,
  EventLevel,
  ProtocolDefinition,
  RegisterBlock,
  RegisterPoint,
} from './types.js';

/** Longest block accepted from a gateway; a Modbus read returns at most 125, so more means garbage. */
const MAX_BLOCK_REGISTERS = 2000;
/** SunSpec scale factors stay within ±10; anything else is a corrupt register, not a real exponent. */
const MAX_SCALE_FACTOR = 10;
/** A Modbus read returns at most 125 registers, so the encoder never builds longer blocks than a gateway reads. */
const ENCODE_BLOCK_REGISTERS = 125;
/** Gaps up to this size are read through (filled with 0) rather than starting a new block, as gateways do. */
const ENCODE_MAX_GAP = 32;
const ADDRESS_SPACE = 0x10000;

type FixedWidthType = Exclude<DataType, 'string'>;

const TYPE_REGISTERS: Record<FixedWidthType, number> = {
  u16: 1,
  s16: 1,
  u32: 2,
  s32: 2,
  u64: 4,
  f32: 2,
  bits16: 1,
  bits32: 2,
};

/** Registers a value of a fixed-width type occupies (strings take the point's own `count`). */
export function registersForType(type: FixedWidthType): number {
  return TYPE_REGISTERS[type];
}

// ---------------------------------------------------------------------------------------------------------
// Hex

// Nibble values by character code; -1 for anything that is not a hex digit.
const HEX_NIBBLES = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) HEX_NIBBLES[48 + c] = c;
for (let c = 0; c < 6; c++) {
  HEX_NIBBLES[65 + c] = 10 + c;
  HEX_NIBBLES[97 + c] = 10 + c;
}

function nibble(hex: string, at: number): number {
  const code = hex.charCodeAt(at);
  return code < 128 ? (HEX_NIBBLES[code] ?? -1) : -1;
}

/** Parses the hex form gateways use (4 hex digits per register, big-endian); null when it is not that form. */
export function registersFromHex(hex: string): number[] | null {
  if (typeof hex !== 'string' || hex.length % 4 !== 0) return null;
  // One pass over character codes: this runs for every block of every report.
  const registers = new Array<number>(hex.length / 4);
  for (let i = 0, r = 0; i < hex.length; i += 4, r++) {
    const a = nibble(hex, i);
    const b = nibble(hex, i + 1);
    const c = nibble(hex, i + 2);
    const d = nibble(hex, i + 3);
    if ((a | b | c | d) < 0) return null;
    registers[r] = (a << 12) | (b << 8) | (c << 4) | d;
  }
  return registers;
}

/** Inverse of `registersFromHex` (lower case). Values outside 0..65535 are cut to 16 bits, as on the wire. */
export function registersToHex(registers: readonly number[]): string {
  let hex = '';
  for (const register of registers) {
    const word = Number.isFinite(register) ? Math.trunc(register) & 0xffff : 0;
    hex += word.toString(16).padStart(4, '0');
  }
  return hex;
}

// ---------------------------------------------------------------------------------------------------------
// Shared helpers

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isFixedWidthType(type: unknown): type is FixedWidthType {
  return typeof type === 'string' && Object.hasOwn(TYPE_REGISTERS, type);
}

function isScaleFactor(value: number): boolean {
  return Number.isInteger(value) && Math.abs(value) <= MAX_SCALE_FACTOR;
}

/** The points referenced as scale factors: they are decoded and encoded as plain s16 exponents. */
function scaleFactorIds(points: readonly RegisterPoint[]): Set<string> {
  const ids = new Set<string>();
  for (const point of points) if (point.scaleFactorPoint !== undefined) ids.add(point.scaleFactorPoint);
  return ids;
}

/** The map's points, or none when what was passed is not a map (callers never throw). */
function pointsOf(protocol: ProtocolDefinition): RegisterPoint[] {
  // Write-only registers (operation w) are never read back, so they are no part of a decoded reading.
  return isRecord(protocol) && Array.isArray(protocol.points) ? protocol.points.filter((p) => isRecord(p) && p.operation !== 'w') : [];
}

/** Why a point cannot be read or written at all (a map error), or null when its shape is sound. */
function pointShapeProblem(point: RegisterPoint): string | null {
  if (!Number.isInteger(point.address) || point.address < 0 || point.address >= ADDRESS_SPACE) return `address ${point.address} is invalid`;
  if (!Number.isInteger(point.count) || point.count < 1 || point.address + point.count > ADDRESS_SPACE) {
    return `register count ${point.count} is invalid`;
  }
  if (point.type === 'string') {
    const skip = point.skipBytes ?? 0;
    if (!Number.isInteger(skip) || skip < 0 || skip > point.count * 2) return `skipBytes ${skip} is invalid`;
    return null;
  }
  if (!isFixedWidthType(point.type)) return `type ${String(point.type)} is unknown`;
  if (point.count !== TYPE_REGISTERS[point.type])
    return `type ${point.type} needs ${TYPE_REGISTERS[point.type]} registers, not ${point.count}`;
  const scale = point.scale ?? 1;
  const base = point.base ?? 0;
  if (!Number.isFinite(scale) || scale === 0) return `scale ${scale} is invalid`;
  if (!Number.isFinite(base)) return `base ${base} is invalid`;
  return null;
}

/** x × 10^exponent, dividing for negative exponents because 10^-n is not exact in binary but 10^n is. */
function shiftDecimal(value: number, exponent: number): number {
  return exponent >= 0 ? value * 10 ** exponent : value / 10 ** -exponent;
}

/** Decimal places of a number as written (0.1 → 1, 0.025 → 3, 1e-7 → 7), so results can be rounded to them. */
function decimalsOf(value: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return 0;
  const text = String(Math.abs(value));
  const exponentAt = text.indexOf('e-');
  if (exponentAt >= 0) {
    const mantissa = text.slice(0, exponentAt);
    const dot = mantissa.indexOf('.');
    return Number(text.slice(exponentAt + 2)) + (dot >= 0 ? mantissa.length - dot - 1 : 0);
  }
  const dot = text.indexOf('.');
  return dot >= 0 ? text.length - dot - 1 : 0;
}

/** Rounds away binary noise (230.10000000000002 → 230.1); toFixed is exact decimal rounding of the double. */
function roundTo(value: number, decimals: number): number {
  // Fast path for the usual case: exact while value × 10^decimals stays an integer-safe double.
  if (decimals <= 15) {
    const factor = 10 ** decimals;
    const shifted = value * factor;
    if (Math.abs(shifted) < 2 ** 52) {
      const rounded = Math.round(shifted) / factor;
      return rounded === 0 ? 0 : rounded;
    }
  }
  const rounded = Number.parseFloat(value.toFixed(Math.min(decimals, 100)));
  return rounded === 0 ? 0 : rounded;
}

// decimalsOf works on strings: remember it per number, as maps use a handful of scales and bases.
const decimalsCache = new Map<number, number>();
function cachedDecimalsOf(value: number): number {
  let known = decimalsCache.get(value);
  if (known === undefined) {
    known = decimalsOf(value);
    if (decimalsCache.size < 10_000) decimalsCache.set(value, known);
  }
  return known;
}

/** The shortest decimal that is still the same float32, so 230.1f reads as 230.1 and re-encodes bit for bit. */
function shortestFloat32(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value === 0 ? 0 : value;
  for (let precision = 1; precision < 9; precision++) {
    const candidate = Number(value.toPrecision(precision));
    if (Math.fround(candidate) === value) return candidate;
  }
  return Number(value.toPrecision(9));
}

// ---------------------------------------------------------------------------------------------------------
// Decoding

/** A raw value that cannot be used, with the reason (rare: allocated only for bad registers). */
class RawProblem {
  constructor(readonly reason: string) {}
}

function swapBytes(word: number): number {
  return ((word & 0xff) << 8) | (word >> 8);
}

// One view for all float conversions: the decoder is synchronous, so it is never shared mid-use.
const FLOAT_VIEW = new DataView(new ArrayBuffer(4));

function float32FromWords(high: number, low: number): number {
  FLOAT_VIEW.setUint16(0, high);
  FLOAT_VIEW.setUint16(2, low);
  return FLOAT_VIEW.getFloat32(0);
}

/**
 * Word `k` of a point in value order (high word first), from its registers starting at `offset`, with
 * the device's byte and word order undone; 0 beyond the point's width.
 */
function wordOf(point: RegisterPoint, registers: readonly number[], offset: number, k: number): number {
  if (k >= point.count) return 0;
  const word = registers[offset + (point.wordSwap ? point.count - 1 - k : k)] ?? 0;
  return point.byteSwap ? swapBytes(word) : word;
}

/**
 * Printable ASCII as is, anything else (a corrupt byte) as the replacement character; the value ends at
 * the first NUL (C string), trailing blanks trimmed. Null when empty: SunSpec's "not implemented".
 */
function stringAt(point: RegisterPoint, registers: readonly number[], offset: number): string | null {
  let text = '';
  for (let j = point.skipBytes ?? 0; j < point.count * 2; j++) {
    let word = registers[offset + (j >> 1)] ?? 0;
    if (point.byteSwap) word = swapBytes(word);
    const byte = j % 2 === 0 ? word >> 8 : word & 0xff;
    if (byte === 0) break;
    text += byte >= 0x20 && byte <= 0x7e ? String.fromCharCode(byte) : '\uFFFD';
  }
  text = text.replace(/ +$/, '');
  return text === '' ? null : text;
}

/** A fixed-width point's raw number from its words in value order; null for SunSpec's "not implemented" sentinels. */
function numericRaw(point: RegisterPoint, w0: number, w1: number, w2: number, w3: number): number | null | RawProblem {
  // SunSpec accumulators use 0 for "not implemented".
  const accumulator = point.accumulator === true;
  switch (point.type) {
    case 'u16':
    case 'bits16':
      return w0 === 0xffff || (accumulator && w0 === 0) ? null : w0;
    case 's16':
      return w0 === 0x8000 ? null : w0 >= 0x8000 ? w0 - 0x10000 : w0;
    case 'u32':
    case 'bits32': {
      const value = w0 * 0x10000 + w1;
      return value === 0xffffffff || (accumulator && value === 0) ? null : value;
    }
    case 's32': {
      const value = w0 * 0x10000 + w1;
      return value === 0x80000000 ? null : value >= 0x80000000 ? value - 0x100000000 : value;
    }
    case 'u64': {
      if (w0 === 0xffff && w1 === 0xffff && w2 === 0xffff && w3 === 0xffff) return null;
      // Numbers are exact only below 2^53: w0 must stay under 0x20 for the value to fit.
      if (w0 >= 0x20) return new RawProblem('u64 value is above 2^53 and cannot be represented exactly');
      const value = ((w0 * 0x10000 + w1) * 0x10000 + w2) * 0x10000 + w3;
      return accumulator && value === 0 ? null : value;
    }
    case 'f32': {
      const value = float32FromWords(w0, w1);
      if (Number.isNaN(value)) return null;
      if (!Number.isFinite(value)) return new RawProblem('f32 value is infinite');
      return shortestFloat32(value);
    }
    default:
      return new RawProblem(`type ${String(point.type)} is unknown`);
  }
}

/** Raw value of a point whose `count` registers (checked 0..65535) start at `offset`; null when absent. */
function rawAt(point: RegisterPoint, registers: readonly number[], offset: number): number | string | null | RawProblem {
  if (point.type === 'string') return stringAt(point, registers, offset);
  return numericRaw(
    point,
    wordOf(point, registers, offset, 0),
    wordOf(point, registers, offset, 1),
    wordOf(point, registers, offset, 2),
    wordOf(point, registers, offset, 3),
  );
}

/** Engineering value: raw × 10^sf × scale + base, rounded to the decimals those factors can produce. */
function engineeringValue(point: RegisterPoint, raw: number, scaleFactor: number, fixedDecimals: number): number {
  const scale = point.scale ?? 1;
  const base = point.base ?? 0;
  if (scaleFactor === 0 && scale === 1 && base === 0) return raw;
  const value = shiftDecimal(raw, scaleFactor) * scale + base;
  if (point.type === 'f32') return Number(value.toPrecision(12)); // floats carry their own decimals; trim the noise only
  return roundTo(value, fixedDecimals + Math.max(0, -scaleFactor));
}

interface ParsedBlock {
  functionCode: 3 | 4;
  address: number;
  registers: readonly number[];
}

interface Image {
  /** Filled only when blocks overlap; otherwise points are read straight from their block. */
  registers: Map<number, number>;
  blocks: ParsedBlock[];
  overlapping: boolean;
  /** Function code and range of each block, which fixes where every point sits (see Layout). */
  signature: string;
  problems: string[];
}

/** Where a point sits in a report's blocks: a block index ≥ 0, or one of these. */
const NOT_IN_REPORT = -1;
const PARTLY_IN_REPORT = -2;
/** Spread over two adjacent blocks: its registers are gathered one by one. */
const ACROSS_BLOCKS = -3;

interface Layout {
  blockOf: Int32Array;
  offsetOf: Int32Array;
}

interface DecodePlan {
  points: RegisterPoint[];
  byId: Map<string, RegisterPoint>;
  shapes: (string | null)[];
  /** Per point: the slot of its scale factor point, or -1. */
  scaleFactorSlot: Int32Array;
  /** Per slot: the scale factor point's id and index (-1 when the map lacks it). */
  scaleFactors: { id: string; index: number }[];
  /** Decimals the point's `scale` and `base` can produce. */
  fixedDecimals: Int32Array;
  /** Per point: the index of the event bits it feeds, for `decodeEventsIndexed`. */
  events: { event: EventDefinition; index: number }[];
  /** Point layouts by block signature: a gateway sends the same blocks every time. */
  layouts: Map<string, Layout>;
}

/** Bounds the layouts kept per map, so a gateway that varies its blocks cannot grow memory. */
const MAX_LAYOUTS_PER_MAP = 64;

// A map is decoded thousands of times a second: what depends only on the map is worked out once.
const plans = new WeakMap<ProtocolDefinition, DecodePlan>();
function planOf(protocol: ProtocolDefinition): DecodePlan {
  const cached = isRecord(protocol) ? plans.get(protocol) : undefined;
  if (cached) return cached;
  const points = pointsOf(protocol);
  const byId = new Map<string, RegisterPoint>();
  const indexById = new Map<string, number>();
  points.forEach((point, index) => {
    if (!byId.has(point.id)) {
      byId.set(point.id, point);
      indexById.set(point.id, index);
    }
  });
  const slotById = new Map<string, number>();
  const scaleFactors: DecodePlan['scaleFactors'] = [];
  const scaleFactorSlot = new Int32Array(points.length).fill(-1);
  const fixedDecimals = new Int32Array(points.length);
  points.forEach((point, index) => {
    fixedDecimals[index] = cachedDecimalsOf(point.scale ?? 1) + cachedDecimalsOf(point.base ?? 0);
    const id = point.scaleFactorPoint;
    if (id === undefined) return;
    let slot = slotById.get(id);
    if (slot === undefined) {
      slot = scaleFactors.length;
      slotById.set(id, slot);
      scaleFactors.push({ id, index: indexById.get(id) ?? -1 });
    }
    scaleFactorSlot[index] = slot;
  });
  const events = (isRecord(protocol) && Array.isArray(protocol.events) ? protocol.events : [])
    .filter(isRecord)
    .map((event) => ({ event, index: indexById.get(event.point) ?? -1 }));
  const plan: DecodePlan = {
    points,
    byId,
    shapes: points.map(pointShapeProblem),
    scaleFactorSlot,
    scaleFactors,
    fixedDecimals,
    events,
    layouts: new Map(),
  };
  if (isRecord(protocol)) plans.set(protocol, plan);
  return plan;
}

function imageKey(functionCode: number, address: number): number {
  return functionCode * ADDRESS_SPACE + address;
}

function describeBlock(index: number, block: Record<string, unknown>): string {
  return `block ${index} (function ${String(block.functionCode)}, address ${String(block.address)})`;
}

/** A sound block from a gateway, or the reason it is rejected. */
function parseBlock(block: Record<string, unknown>): ParsedBlock | string {
  const { functionCode, address, registers } = block;
  if (functionCode !== 3 && functionCode !== 4) return 'function code is not 3 (holding) or 4 (input)';
  if (typeof address !== 'number' || !Number.isInteger(address) || address < 0 || address >= ADDRESS_SPACE) {
    return 'address is not an integer 0..65535';
  }
  if (!Array.isArray(registers)) return 'registers are not a list';
  if (registers.length > MAX_BLOCK_REGISTERS) return `${registers.length} registers is more than ${MAX_BLOCK_REGISTERS}`;
  if (address + registers.length > ADDRESS_SPACE) return 'registers run past address 65535';
  for (let i = 0; i < registers.length; i++) {
    const register: unknown = registers[i];
    if (typeof register !== 'number' || !Number.isInteger(register) || register < 0 || register > 0xffff) {
      return `register ${i} is ${String(register)}, not an integer 0..65535`;
    }
  }
  return { functionCode, address, registers };
}

/**
 * One register image per report: blocks are merged so a point may straddle two reads. Where blocks
 * overlap the first one wins, so a late duplicate cannot change a value already taken.
 */
function buildImage(blocks: readonly RegisterBlock[]): Image {
  const image: Image = { registers: new Map(), blocks: [], overlapping: false, signature: '', problems: [] };
  if (!Array.isArray(blocks)) {
    image.problems.push('blocks are not a list');
    return image;
  }
  for (let index = 0; index < blocks.length; index++) {
    const block: unknown = blocks[index];
    if (!isRecord(block)) {
      image.problems.push(`block ${index} is not an object; ignored`);
      continue;
    }
    const parsed = parseBlock(block);
    if (typeof parsed === 'string') {
      image.problems.push(`${describeBlock(index, block)}: ${parsed}; block ignored`);
      continue;
    }
    image.blocks.push(parsed);
    image.signature += `${parsed.functionCode}:${parsed.address}:${parsed.registers.length};`;
  }
  const sorted = [...image.blocks].sort((a, b) => a.functionCode - b.functionCode || a.address - b.address);
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1];
    const current = sorted[i];
    if (
      previous &&
      current &&
      previous.functionCode === current.functionCode &&
      current.address < previous.address + previous.registers.length
    )
      image.overlapping = true;
  }
  // Overlapping blocks need one merged image so the first block wins register by register.
  if (image.overlapping) {
    for (const parsed of image.blocks) {
      parsed.registers.forEach((register, i) => {
        const key = imageKey(parsed.functionCode, parsed.address + i);
        if (!image.registers.has(key)) image.registers.set(key, register);
      });
    }
  }
  return image;
}

function registerRange(point: RegisterPoint): string {
  const last = point.address + point.count - 1;
  return `function ${point.functionCode}, ${last === point.address ? `register ${point.address}` : `registers ${point.address}..${last}`}`;
}

/** The point's registers, 'none' when the report has none of them, 'partial' when it has only some. */
function pointRegisters(image: Image, point: RegisterPoint): number[] | 'none' | 'partial' {
  const registers: number[] = [];
  for (let i = 0; i < point.count; i++) {
    const address = point.address + i;
    if (image.overlapping) {
      const register = image.registers.get(imageKey(point.functionCode, address));
      if (register !== undefined) registers.push(register);
      continue;
    }
    // Without overlaps each register is in at most one block.
    for (const block of image.blocks) {
      if (block.functionCode === point.functionCode && address >= block.address && address < block.address + block.registers.length) {
        const register = block.registers[address - block.address];
        if (register !== undefined) registers.push(register);
        break;
      }
    }
  }
  if (registers.length === point.count) return registers;
  return registers.length === 0 ? 'none' : 'partial';
}

/** Where each point of the map sits in blocks without overlaps, worked out once per block signature. */
function layoutOf(plan: DecodePlan, image: Image): Layout {
  const known = plan.layouts.get(image.signature);
  if (known) return known;
  const blockOf = new Int32Array(plan.points.length);
  const offsetOf = new Int32Array(plan.points.length);
  plan.points.forEach((point, index) => {
    const registers = plan.shapes[index] === null ? pointRegisters(image, point) : 'none';
    if (registers === 'none') blockOf[index] = NOT_IN_REPORT;
    else if (registers === 'partial') blockOf[index] = PARTLY_IN_REPORT;
    else {
      const whole = image.blocks.findIndex(
        (block) =>
          block.functionCode === point.functionCode &&
          point.address >= block.address &&
          point.address + point.count <= block.address + block.registers.length,
      );
      blockOf[index] = whole >= 0 ? whole : ACROSS_BLOCKS;
      offsetOf[index] = whole >= 0 ? point.address - (image.blocks[whole]?.address ?? 0) : 0;
    }
  });
  const layout = { blockOf, offsetOf };
  if (plan.layouts.size < MAX_LAYOUTS_PER_MAP) plan.layouts.set(image.signature, layout);
  return layout;
}

/** A point's raw value from the report, 'none' or 'partial' when its registers are not all there. */
function readPoint(
  image: Image,
  layout: Layout | null,
  point: RegisterPoint,
  index: number,
): number | string | null | RawProblem | 'none' | 'partial' {
  const where = layout ? (layout.blockOf[index] ?? NOT_IN_REPORT) : ACROSS_BLOCKS;
  if (where === NOT_IN_REPORT) return 'none';
  if (where === PARTLY_IN_REPORT) return 'partial';
  if (where >= 0) {
    const block = image.blocks[where];
    return block ? rawAt(point, block.registers, layout?.offsetOf[index] ?? 0) : 'none';
  }
  const registers = pointRegisters(image, point);
  return typeof registers === 'string' ? registers : rawAt(point, registers, 0);
}

/**
 * A scale factor point's exponent: a number, null when absent (not implemented: its dependants are
 * absent too), or the problem that stops its dependants.
 */
function resolveScaleFactor(image: Image, layout: Layout | null, plan: DecodePlan, slot: number): number | null | string {
  const factor = plan.scaleFactors[slot];
  if (!factor) return 'scale factor slot is unknown';
  const point = plan.points[factor.index];
  if (point === undefined) return `scale factor point "${factor.id}" is not in the map`;
  if (plan.shapes[factor.index] !== null || point.type !== 's16') return `scale factor point "${factor.id}" is not a valid s16 point`;
  const raw = readPoint(image, layout, point, factor.index);
  if (raw === 'none' || raw === 'partial') return `scale factor "${factor.id}" (${registerRange(point)}) is missing from the report`;
  if (raw === null) return null;
  if (typeof raw === 'number' && isScaleFactor(raw)) return raw;
  return `scale factor "${factor.id}" is ${typeof raw === 'number' ? String(raw) : 'invalid'}, not an exponent -10..10`;
}

/** Decoded values by point index in `mapPoints(protocol)`: what the ingest pipeline stores. */
export interface IndexedDecodeResult {
  /** Numeric engineering values; NaN where the point is absent, a string, or could not be decoded. */
  numbers: Float64Array;
  /** String values (nameplate, serial number) by point index. */
  texts: Map<number, string>;
  problems: string[];
}

/** The map's points in the order `decodeBlocksIndexed` indexes them. */
export function mapPoints(protocol: ProtocolDefinition): readonly RegisterPoint[] {
  return planOf(protocol).points;
}

/**
 * Decodes a gateway's register blocks with a map. Values are engineering values (scale factors, `scale`
 * and `base` applied); points the device marks "not implemented" are simply absent. Never throws.
 */
export function decodeBlocksIndexed(protocol: ProtocolDefinition, blocks: readonly RegisterBlock[]): IndexedDecodeResult {
  const plan = planOf(protocol);
  const { points, shapes } = plan;
  const image = buildImage(blocks);
  const problems = image.problems;
  const layout = image.overlapping ? null : layoutOf(plan, image);
  const numbers = new Float64Array(points.length).fill(Number.NaN);
  const texts = new Map<number, string>();
  // Scale factors are needed by many points; resolve each once.
  const scaleFactors: (number | null | string | undefined)[] = new Array(plan.scaleFactors.length);
  for (let index = 0; index < points.length; index++) {
    const point = points[index];
    if (point === undefined) continue;
    const shape = shapes[index] ?? null;
    if (shape !== null) {
      problems.push(`point "${point.id}": ${shape}`);
      continue;
    }
    const raw = readPoint(image, layout, point, index);
    if (raw === 'partial') {
      problems.push(`point "${point.id}" (${registerRange(point)}) is only partly in the report`);
      continue;
    }
    if (raw === 'none') {
      if (point.required) problems.push(`required point "${point.id}" (${registerRange(point)}) is missing from the report`);
      continue;
    }
    if (raw === null) continue;
    if (raw instanceof RawProblem) {
      problems.push(`point "${point.id}": ${raw.reason}`);
      continue;
    }
    if (typeof raw === 'string') {
      texts.set(index, raw);
      continue;
    }
    let scaleFactor = 0;
    const slot = plan.scaleFactorSlot[index] ?? -1;
    if (slot >= 0) {
      let resolved = scaleFactors[slot];
      if (resolved === undefined) {
        resolved = resolveScaleFactor(image, layout, plan, slot);
        scaleFactors[slot] = resolved;
      }
      if (resolved === null) continue;
      if (typeof resolved === 'string') {
        problems.push(`point "${point.id}": ${resolved}`);
        continue;
      }
      scaleFactor = resolved;
    }
    const value = engineeringValue(point, raw, scaleFactor, plan.fixedDecimals[index] ?? 0);
    if (!Number.isFinite(value)) {
      problems.push(`point "${point.id}": scaled value is not finite`);
      continue;
    }
    numbers[index] = value;
  }
  return { numbers, texts, problems };
}

/** `decodeBlocksIndexed` as values by point id. */
export function decodeBlocks(protocol: ProtocolDefinition, blocks: readonly RegisterBlock[]): DecodeResult {
  const { points } = planOf(protocol);
  const { numbers, texts, problems } = decodeBlocksIndexed(protocol, blocks);
  const values: Record<string, DecodedValue> = {};
  points.forEach((point, index) => {
    const value = texts.get(index) ?? numbers[index];
    if (value !== undefined && !(typeof value === 'number' && Number.isNaN(value))) values[point.id] = value;
  });
  return { values, problems };
}

// ---------------------------------------------------------------------------------------------------------
// Encoding

export interface EncodeOptions {
  /** Only produce blocks for this function code (default: every function code the map uses). */
  functionCode?: 3 | 4;
}

/** Inclusive raw ranges; the sentinel is left out so a clamped value still reads back as a value. */
const RAW_RANGES: Record<Exclude<FixedWidthType, 'f32'>, [number, number]> = {
  u16: [0, 0xfffe],
  s16: [-0x7fff, 0x7fff],
  u32: [0, 0xfffffffe],
  s32: [-0x7fffffff, 0x7fffffff],
  u64: [0, Number.MAX_SAFE_INTEGER],
  bits16: [0, 0xfffe],
  bits32: [0, 0xfffffffe],
};

const FLOAT32_MAX = 3.4028234663852886e38;

/** Big-endian words meaning "not implemented" for a type, written for points without a value. */
function sentinelWords(point: RegisterPoint): number[] {
  switch (point.type) {
    case 'u16':
    case 'bits16':
      return [point.accumulator ? 0 : 0xffff];
    case 's16':
      return [0x8000];
    case 'u32':
    case 'bits32':
      return point.accumulator ? [0, 0] : [0xffff, 0xffff];
    case 's32':
      return [0x8000, 0];
    case 'u64':
      return point.accumulator ? [0, 0, 0, 0] : [0xffff, 0xffff, 0xffff, 0xffff];
    case 'f32':
      return [0x7fc0, 0]; // quiet NaN
    default:
      return new Array<number>(point.count).fill(0); // strings: all NUL
  }
}

function encodeString(point: RegisterPoint, text: string): number[] {
  const bytes = new Array<number>(point.count * 2).fill(0);
  let at = point.skipBytes ?? 0;
  for (const char of text) {
    if (at >= bytes.length) break;
    const code = char.codePointAt(0) ?? 0x3f;
    bytes[at++] = code >= 0x20 && code <= 0x7e ? code : 0x3f; // ASCII only: anything else becomes '?'
  }
  const words: number[] = [];
  for (let i = 0; i < bytes.length; i += 2) words.push(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
  return words;
}

/** Big-endian words of an unsigned integer below 2^53, `count` registers wide. */
function wordsOf(value: number, count: number): number[] {
  const words = new Array<number>(count).fill(0);
  let rest = value;
  for (let i = count - 1; i >= 0; i--) {
    words[i] = rest % 0x10000;
    rest = Math.floor(rest / 0x10000);
  }
  return words;
}

function numericValue(value: DecodedValue | undefined): number | null {
  if (typeof value === 'number') return Number.isNaN(value) ? null : value;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

/** Big-endian words of a point's value (absent or unusable → the type's sentinel), before any swapping. */
function valueWords(point: RegisterPoint, value: DecodedValue | undefined, scaleFactor: number): number[] {
  if (point.type === 'string') return value === undefined ? sentinelWords(point) : encodeString(point, String(value));
  const engineering = numericValue(value);
  if (engineering === null || !isFixedWidthType(point.type)) return sentinelWords(point);
  const raw = shiftDecimal((engineering - (point.base ?? 0)) / (point.scale ?? 1), -scaleFactor);
  if (point.type === 'f32') {
    const view = new DataView(new ArrayBuffer(4));
    view.setFloat32(0, Math.min(FLOAT32_MAX, Math.max(-FLOAT32_MAX, raw)));
    return [view.getUint16(0), view.getUint16(2)];
  }
  const [min, max] = RAW_RANGES[point.type];
  const integer = Math.min(max, Math.max(min, Math.round(raw)));
  return wordsOf(integer < 0 ? integer + 2 ** (16 * point.count) : integer, point.count);
}

/** Registers of one point as they go on the wire, with the device's word and byte order. */
function encodePoint(point: RegisterPoint, value: DecodedValue | undefined, scaleFactor: number): number[] {
  const words = valueWords(point, value, scaleFactor);
  if (point.wordSwap && point.type !== 'string') words.reverse();
  return point.byteSwap ? words.map(swapBytes) : words;
}

/**
 * Registers for engineering values, as a gateway would read them: contiguous blocks per function code
 * (at most 125 registers, short gaps read through as 0). Points without a value get their "not
 * implemented" sentinel; scale factor points without a value are written as 0, the exponent used for
 * their dependants. Values beyond a type's range are clamped. Never throws.
 */
export function encodeValues(protocol: ProtocolDefinition, values: Record<string, DecodedValue>, options?: EncodeOptions): RegisterBlock[] {
  const points = pointsOf(protocol);
  const given: Record<string, DecodedValue> = isRecord(values) ? values : {};
  const factorIds = scaleFactorIds(points);
  const scaleFactorOf = (id: string | undefined): number => {
    if (id === undefined || !Object.hasOwn(given, id)) return 0;
    const value = numericValue(given[id]);
    return value !== null && isScaleFactor(value) ? value : 0;
  };

  const encoded: { point: RegisterPoint; words: number[] }[] = [];
  for (const point of points) {
    if (options?.functionCode !== undefined && point.functionCode !== options.functionCode) continue;
    if (point.functionCode !== 3 && point.functionCode !== 4) continue;
    if (pointShapeProblem(point) !== null) continue;
    const value = Object.hasOwn(given, point.id) ? given[point.id] : undefined;
    const words = factorIds.has(point.id)
      ? encodePoint(point, scaleFactorOf(point.id), 0)
      : encodePoint(point, value, scaleFactorOf(point.scaleFactorPoint));
    encoded.push({ point, words });
  }
  encoded.sort((a, b) => a.point.functionCode - b.point.functionCode || a.point.address - b.point.address);

  const blocks: { functionCode: number; address: number; registers: number[] }[] = [];
  for (const { point, words } of encoded) {
    const current = blocks.at(-1);
    const end = point.address + point.count;
    const joins =
      current !== undefined &&
      current.functionCode === point.functionCode &&
      point.address <= current.address + current.registers.length + ENCODE_MAX_GAP &&
      end - current.address <= ENCODE_BLOCK_REGISTERS;
    const block = joins ? current : { functionCode: point.functionCode, address: point.address, registers: [] };
    if (!joins) blocks.push(block);
    while (block.address + block.registers.length < end) block.registers.push(0);
    words.forEach((word, i) => {
      block.registers[point.address - block.address + i] = word;
    });
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------------------
// Events and storage order

export interface ActiveEvent {
  code: number;
  level: EventLevel;
  bit: number;
  point: string;
}

/** The event when its bit is set in the value of its point, else null. */
function eventIfSet(event: EventDefinition, value: unknown): ActiveEvent | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return null;
  if (!Number.isInteger(event.bit) || event.bit < 0 || event.bit > 63) return null;
  // Arithmetic rather than bit operators: those work on 32-bit signed integers only.
  if (Math.floor(value / 2 ** event.bit) % 2 !== 1) return null;
  return { code: event.code, level: event.level, bit: event.bit, point: event.point };
}

/** The map's events whose bit is set in decoded values, in map order. */
export function decodeEvents(protocol: ProtocolDefinition, values: Record<string, DecodedValue>): ActiveEvent[] {
  const active: ActiveEvent[] = [];
  if (!isRecord(protocol) || !Array.isArray(protocol.events) || !isRecord(values)) return active;
  for (const event of protocol.events) {
    const set = eventIfSet(event, Object.hasOwn(values, event.point) ? values[event.point] : undefined);
    if (set) active.push(set);
  }
  return active;
}

/** `decodeEvents` over the numbers of `decodeBlocksIndexed`. */
export function decodeEventsIndexed(protocol: ProtocolDefinition, numbers: Float64Array): ActiveEvent[] {
  const active: ActiveEvent[] = [];
  for (const { event, index } of planOf(protocol).events) {
    const value = numbers[index];
    // No bit is set in 0, the usual value, and NaN (absent) is no bit field at all.
    if (value === undefined || value === 0 || Number.isNaN(value)) continue;
    const set = eventIfSet(event, value);
    if (set) active.push(set);
  }
  return active;
}

/**
 * Indexes (in `mapPoints`) of the numeric points a report stores, in map order: everything except
 * strings and points that only serve as scale factors (already applied to the values). The server keeps
 * a report as a real[] in exactly this order, so the order is part of the storage format.
 */
export function numericPointIndexes(protocol: ProtocolDefinition): number[] {
  const points = pointsOf(protocol);
  // An edited map keeps the storage order of its first version (append-only); -1 marks a removed point.
  if (Array.isArray(protocol.storageOrder)) {
    const indexById = new Map<string, number>();
    points.forEach((point, index) => {
      if (!indexById.has(point.id)) indexById.set(point.id, index);
    });
    return protocol.storageOrder.map((id) => indexById.get(id) ?? -1);
  }
  const factorIds = scaleFactorIds(points);
  const indexes: number[] = [];
  points.forEach((point, index) => {
    if (point.type !== 'string' && !factorIds.has(point.id)) indexes.push(index);
  });
  return indexes;
}

/** Ids of the points `numericPointIndexes` names, in the same order. */
export function numericPointIds(protocol: ProtocolDefinition): string[] {
  if (Array.isArray(protocol.storageOrder)) return [...protocol.storageOrder];
  const points = pointsOf(protocol);
  return numericPointIndexes(protocol).map((index) => points[index]?.id ?? '');
}
