/**
 * Modbus frames as the field sees them (Modbus Application Protocol V1.1b3, Modbus over serial line V1.02):
 * the request PDU of the read and write function codes, wrapped as RTU (slave, PDU, CRC-16 low byte first)
 * or TCP (MBAP header). Plus the checksums the toolbox offers. Pure functions, shared by the console's
 * toolbox and the server.
 */

/** CRC-16/MODBUS: polynomial 0xA001 (reflected 0x8005), initial 0xFFFF. Sent low byte first. */
export function crc16Modbus(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

const CRC32_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, as zip and PNG use it). */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC32_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Hex text to bytes; spaces allowed between bytes. Undefined when it is not whole bytes of hex digits. */
export function hexToBytes(text: string): Uint8Array | undefined {
  const hex = text.replace(/\s+/g, '');
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Bytes as upper-case hex, a space between bytes. */
export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
}

export const READ_FUNCTION_CODES = [1, 2, 3, 4] as const;
export const WRITE_FUNCTION_CODES = [5, 6, 15, 16] as const;
export type ModbusReadCode = (typeof READ_FUNCTION_CODES)[number];
export type ModbusFunctionCode = ModbusReadCode | (typeof WRITE_FUNCTION_CODES)[number];

export function isReadCode(fc: ModbusFunctionCode): fc is ModbusReadCode {
  return fc <= 4;
}

/** Protocol limits per request (Modbus Application Protocol §6). */
export const MODBUS_LIMITS = { 1: 2000, 2: 2000, 3: 125, 4: 125, 15: 1968, 16: 123 } as const;

export interface ModbusRequest {
  slave: number;
  functionCode: ModbusFunctionCode;
  address: number;
  /** Reads: how many coils, inputs or registers. */
  count?: number;
  /**
   * Writes: 05 one coil (0 or 1), 06 one register (0–65535), 15 coils (0 or 1 each), 16 registers
   * (0–65535 each).
   */
  values?: readonly number[];
}

export type ModbusProblem =
  | { field: 'slave'; reason: 'range' }
  | { field: 'address'; reason: 'range' }
  | { field: 'count'; reason: 'range'; max: number }
  | { field: 'values'; reason: 'count'; max: number }
  | { field: 'values'; reason: 'value'; index: number; max: number };

/** What is wrong with a request, field by field; empty when it can be sent. */
export function checkRequest(request: ModbusRequest): ModbusProblem[] {
  const problems: ModbusProblem[] = [];
  const { slave, functionCode: fc, address } = request;
  if (!Number.isInteger(slave) || slave < 0 || slave > 247) problems.push({ field: 'slave', reason: 'range' });
  if (!Number.isInteger(address) || address < 0 || address > 0xffff) problems.push({ field: 'address', reason: 'range' });
  if (isReadCode(fc)) {
    const max = MODBUS_LIMITS[fc];
    const count = request.count ?? 0;
    if (!Number.isInteger(count) || count < 1 || count > max || address + count > 0x10000)
      problems.push({ field: 'count', reason: 'range', max });
    return problems;
  }
  const values = request.values ?? [];
  const single = fc === 5 || fc === 6;
  const maxCount = single ? 1 : MODBUS_LIMITS[fc];
  if (values.length < 1 || values.length > maxCount) problems.push({ field: 'values', reason: 'count', max: maxCount });
  const maxValue = fc === 5 || fc === 15 ? 1 : 0xffff;
  values.forEach((value, index) => {
    if (!Number.isInteger(value) || value < 0 || value > maxValue)
      problems.push({ field: 'values', reason: 'value', index, max: maxValue });
  });
  return problems;
}

/** The request's PDU: function code and data. Throws on a request checkRequest refuses. */
export function requestPdu(request: ModbusRequest): Uint8Array {
  const problems = checkRequest(request);
  if (problems.length > 0) throw new Error(`invalid Modbus request: ${problems.map((p) => p.field).join(', ')}`);
  const { functionCode: fc, address } = request;
  const word = (n: number) => [(n >> 8) & 0xff, n & 0xff];
  if (isReadCode(fc)) return Uint8Array.from([fc, ...word(address), ...word(request.count ?? 0)]);
  const values = request.values ?? [];
  if (fc === 5) return Uint8Array.from([fc, ...word(address), values[0] ? 0xff : 0x00, 0x00]);
  if (fc === 6) return Uint8Array.from([fc, ...word(address), ...word(values[0] ?? 0)]);
  if (fc === 15) {
    const bytes = new Uint8Array(Math.ceil(values.length / 8));
    values.forEach((value, i) => {
      if (value) bytes[i >> 3] = (bytes[i >> 3] ?? 0) | (1 << (i & 7));
    });
    return Uint8Array.from([fc, ...word(address), ...word(values.length), bytes.length, ...bytes]);
  }
  return Uint8Array.from([fc, ...word(address), ...word(values.length), values.length * 2, ...values.flatMap(word)]);
}

/** An RTU frame: slave, PDU, CRC-16/MODBUS low byte first. */
export function rtuFrame(slave: number, pdu: Uint8Array): Uint8Array {
  const body = Uint8Array.from([slave, ...pdu]);
  const crc = crc16Modbus(body);
  return Uint8Array.from([...body, crc & 0xff, crc >> 8]);
}

/** A Modbus TCP frame: MBAP header (transaction, protocol 0, length, unit) and PDU. */
export function tcpFrame(unit: number, pdu: Uint8Array, transaction = 1): Uint8Array {
  const length = pdu.length + 1;
  return Uint8Array.from([(transaction >> 8) & 0xff, transaction & 0xff, 0, 0, (length >> 8) & 0xff, length & 0xff, unit, ...pdu]);
}

/** Reads an RTU frame: slave, function code, data, and whether its CRC is right. */
export function parseRtuFrame(
  bytes: Uint8Array,
):
  | { ok: true; slave: number; functionCode: number; data: Uint8Array; crcOk: boolean; expectedCrc: number }
  | { ok: false; reason: 'too_short' } {
  if (bytes.length < 4) return { ok: false, reason: 'too_short' };
  const body = bytes.subarray(0, bytes.length - 2);
  const expectedCrc = crc16Modbus(body);
  const sent = (bytes[bytes.length - 2] ?? 0) | ((bytes[bytes.length - 1] ?? 0) << 8);
  return { ok: true, slave: body[0] ?? 0, functionCode: body[1] ?? 0, data: body.subarray(2), crcOk: sent === expectedCrc, expectedCrc };
}
