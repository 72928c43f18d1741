import { crc16Modbus, crc32, hexToBytes, type ModbusFunctionCode } from '@sunward/protocol/modbus-frame';

/*
 * The toolbox's conversions (spec 02 §1 toolbox; spec 01 §5 input rules: a binary string of 0 and 1 only,
 * a positive integer without leading zero, a hex string with at least one hex digit, ASCII only). Plain
 * functions; the page only shows them.
 */

export type Base = 2 | 8 | 10 | 16;
export type ConvertFrom = Base | 'ascii';

/** Why a value cannot be read in the chosen form (a text key under toolbox.error.*). */
export type InputProblem = 'binary' | 'octal' | 'decimal' | 'hex' | 'ascii' | 'empty';

const PATTERNS: Record<Base, { pattern: RegExp; problem: InputProblem; prefix: string }> = {
  2: { pattern: /^[01]+$/, problem: 'binary', prefix: '0b' },
  8: { pattern: /^[0-7]+$/, problem: 'octal', prefix: '0o' },
  // A positive integer without leading zero (spec 01 §5); 0 itself is a number too.
  10: { pattern: /^(0|[1-9][0-9]*)$/, problem: 'decimal', prefix: '' },
  16: { pattern: /^[0-9a-fA-F]+$/, problem: 'hex', prefix: '0x' },
};

export interface Converted {
  binary: string;
  octal: string;
  decimal: string;
  hex: string;
  /** The bytes as ASCII, or null where a byte is not printable ASCII. */
  ascii: string | null;
  /** The bytes (big-endian, at least one) in hex, a space between bytes. */
  bytes: string;
}

function isAscii(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code > 0x7e || code < 0x20) return false;
  }
  return true;
}

function bytesOf(value: bigint): number[] {
  const bytes: number[] = [];
  let rest = value;
  do {
    bytes.unshift(Number(rest & 0xffn));
    rest >>= 8n;
  } while (rest > 0n);
  return bytes;
}

/** A number (any size) or ASCII text in every base at once; a problem when the text is not of its form. */
export function convert(text: string, from: ConvertFrom): { ok: true; value: Converted } | { ok: false; problem: InputProblem } {
  const input = from === 'ascii' ? text : text.trim().replace(/^0[bBoOxX](?=.)/, '');
  if (input === '') return { ok: false, problem: 'empty' };
  let value: bigint;
  if (from === 'ascii') {
    if (!isAscii(input)) return { ok: false, problem: 'ascii' };
    value = 0n;
    for (const char of input) value = (value << 8n) | BigInt(char.codePointAt(0) ?? 0);
  } else {
    const { pattern, problem, prefix } = PATTERNS[from];
    if (!pattern.test(input)) return { ok: false, problem };
    value = BigInt(`${prefix}${input}`);
  }
  const bytes = from === 'ascii' ? Array.from(input, (c) => c.codePointAt(0) ?? 0) : bytesOf(value);
  const asText = String.fromCharCode(...bytes);
  return {
    ok: true,
    value: {
      binary: value.toString(2),
      octal: value.toString(8),
      decimal: value.toString(10),
      hex: value.toString(16).toUpperCase(),
      ascii: isAscii(asText) ? asText : null,
      bytes: bytes.map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' '),
    },
  };
}

export interface Checksums {
  byteCount: number;
  crc16: string;
  /** CRC-16/MODBUS as sent on the line: low byte first. */
  crc16Frame: string;
  crc32: string;
}

const hex = (value: number, digits: number) => value.toString(16).toUpperCase().padStart(digits, '0');

/** CRC-16/MODBUS and CRC-32 of hex bytes or ASCII text. */
export function checksums(text: string, as: 'hex' | 'ascii'): { ok: true; value: Checksums } | { ok: false; problem: InputProblem } {
  if (text.trim() === '') return { ok: false, problem: 'empty' };
  let bytes: Uint8Array | undefined;
  if (as === 'hex') bytes = hexToBytes(text);
  else bytes = isAscii(text) ? new TextEncoder().encode(text) : undefined;
  if (!bytes) return { ok: false, problem: as === 'hex' ? 'hex' : 'ascii' };
  const crc = crc16Modbus(bytes);
  return {
    ok: true,
    value: {
      byteCount: bytes.length,
      crc16: hex(crc, 4),
      crc16Frame: `${hex(crc & 0xff, 2)} ${hex(crc >> 8, 2)}`,
      crc32: hex(crc32(bytes), 8),
    },
  };
}

/** Digits per value a write asks for: a register is 4 hex digits (the spec's {num}), a coil 1 (0 or 1). */
export function digitsPerValue(fc: ModbusFunctionCode): number {
  return fc === 5 || fc === 15 ? 1 : 4;
}

/**
 * The values of a write as typed: registers as 4 hex digits each, coils as 0 or 1, separated by spaces or
 * commas. The problem names the first value that is not of its form.
 */
export function parseWriteValues(
  text: string,
  fc: ModbusFunctionCode,
): { ok: true; values: number[] } | { ok: false; index: number; digits: number } | { ok: false; index: -1; digits: number } {
  const digits = digitsPerValue(fc);
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  if (parts.length === 0) return { ok: false, index: -1, digits };
  const pattern = digits === 1 ? /^[01]$/ : /^[0-9a-fA-F]{4}$/;
  const bad = parts.findIndex((p) => !pattern.test(p));
  if (bad >= 0) return { ok: false, index: bad, digits };
  return { ok: true, values: parts.map((p) => Number.parseInt(p, 16)) };
}
