import { describe, expect, it } from 'vitest';
import { checksums, convert, parseWriteValues } from './tools';

describe('toolbox conversions', () => {
  it('shows a number in every base, with its bytes and their ASCII', () => {
    const result = convert('16706', 10);
    expect(result).toEqual({
      ok: true,
      value: { binary: '100000101000010', octal: '40502', decimal: '16706', hex: '4142', ascii: 'AB', bytes: '41 42' },
    });
    expect(convert('0x4142', 16)).toEqual(result);
    expect(convert('Sun', 'ascii')).toMatchObject({ ok: true, value: { hex: '53756E', decimal: '5469550', bytes: '53 75 6E' } });
    // Larger than 2^53: no precision lost.
    expect(convert('FFFFFFFFFFFFFFFFFF', 16)).toMatchObject({ ok: true, value: { decimal: '4722366482869645213695' } });
  });

  it('names what is wrong with the input by the spec’s rules', () => {
    expect(convert('0102', 2)).toEqual({ ok: false, problem: 'binary' });
    expect(convert('0123', 10)).toEqual({ ok: false, problem: 'decimal' });
    expect(convert('-5', 10)).toEqual({ ok: false, problem: 'decimal' });
    expect(convert('12G', 16)).toEqual({ ok: false, problem: 'hex' });
    expect(convert('89', 8)).toEqual({ ok: false, problem: 'octal' });
    expect(convert('grüße', 'ascii')).toEqual({ ok: false, problem: 'ascii' });
    expect(convert('  ', 16)).toEqual({ ok: false, problem: 'empty' });
    expect(convert('0', 10)).toMatchObject({ ok: true, value: { hex: '0', bytes: '00', ascii: null } });
  });

  it('computes CRC-16/MODBUS (low byte first on the line) and CRC-32', () => {
    expect(checksums('01 03 00 00 00 0A', 'hex')).toEqual({
      ok: true,
      value: { byteCount: 6, crc16: 'CDC5', crc16Frame: 'C5 CD', crc32: expect.stringMatching(/^[0-9A-F]{8}$/) },
    });
    expect(checksums('123456789', 'ascii')).toMatchObject({ ok: true, value: { crc16: '4B37', crc32: 'CBF43926' } });
    expect(checksums('01 0', 'hex')).toEqual({ ok: false, problem: 'hex' });
  });

  it('reads write values as 4 hex digits per register or 0/1 per coil, naming the first bad one', () => {
    expect(parseWriteValues('000A, 0102', 16)).toEqual({ ok: true, values: [10, 258] });
    expect(parseWriteValues('000A 12', 16)).toEqual({ ok: false, index: 1, digits: 4 });
    expect(parseWriteValues('1 0 1', 15)).toEqual({ ok: true, values: [1, 0, 1] });
    expect(parseWriteValues('2', 5)).toEqual({ ok: false, index: 0, digits: 1 });
    expect(parseWriteValues('', 6)).toEqual({ ok: false, index: -1, digits: 4 });
  });
});
