import { describe, expect, it } from 'vitest';
import { bytesToHex, checkRequest, crc16Modbus, crc32, hexToBytes, parseRtuFrame, requestPdu, rtuFrame, tcpFrame } from './modbus-frame.js';

const ascii = (text: string) => new TextEncoder().encode(text);

describe('checksums', () => {
  it('computes the catalogue check values of CRC-16/MODBUS and CRC-32', () => {
    expect(crc16Modbus(ascii('123456789'))).toBe(0x4b37);
    expect(crc32(ascii('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
  });
});

describe('hex text', () => {
  it('reads bytes with or without spaces and refuses odd or non-hex text', () => {
    expect(bytesToHex(hexToBytes('01 03 00 0a') ?? new Uint8Array())).toBe('01 03 00 0A');
    expect(hexToBytes('0103000')).toBeUndefined();
    expect(hexToBytes('01 0G')).toBeUndefined();
    expect(hexToBytes('')).toBeUndefined();
  });
});

describe('Modbus requests', () => {
  it('frames a read of 10 holding registers as RTU with its well-known CRC, and as TCP', () => {
    const pdu = requestPdu({ slave: 1, functionCode: 3, address: 0, count: 10 });
    expect(bytesToHex(rtuFrame(1, pdu))).toBe('01 03 00 00 00 0A C5 CD');
    expect(bytesToHex(tcpFrame(1, pdu, 7))).toBe('00 07 00 00 00 06 01 03 00 00 00 0A');
  });

  it('frames the four writes as the specification shows them', () => {
    expect(bytesToHex(requestPdu({ slave: 1, functionCode: 5, address: 172, values: [1] }))).toBe('05 00 AC FF 00');
    expect(bytesToHex(requestPdu({ slave: 1, functionCode: 6, address: 1, values: [3] }))).toBe('06 00 01 00 03');
    expect(bytesToHex(requestPdu({ slave: 1, functionCode: 15, address: 19, values: [1, 0, 1, 1, 0, 0, 1, 1, 1, 0] }))).toBe(
      '0F 00 13 00 0A 02 CD 01',
    );
    expect(bytesToHex(requestPdu({ slave: 1, functionCode: 16, address: 1, values: [0x000a, 0x0102] }))).toBe(
      '10 00 01 00 02 04 00 0A 01 02',
    );
  });

  it('names each field that is out of range', () => {
    expect(checkRequest({ slave: 248, functionCode: 3, address: 70_000, count: 126 }).map((p) => p.field)).toEqual([
      'slave',
      'address',
      'count',
    ]);
    expect(checkRequest({ slave: 1, functionCode: 6, address: 0, values: [1, 2] })).toEqual([{ field: 'values', reason: 'count', max: 1 }]);
    expect(checkRequest({ slave: 1, functionCode: 15, address: 0, values: [2] })).toEqual([
      { field: 'values', reason: 'value', index: 0, max: 1 },
    ]);
    expect(() => requestPdu({ slave: 1, functionCode: 3, address: 65_535, count: 2 })).toThrow(/count/);
  });

  it('reads back an RTU frame and tells a wrong CRC', () => {
    const good = parseRtuFrame(hexToBytes('01 03 00 00 00 0A C5 CD') ?? new Uint8Array());
    expect(good).toMatchObject({ ok: true, slave: 1, functionCode: 3, crcOk: true });
    const bad = parseRtuFrame(hexToBytes('01 03 00 00 00 0A C5 CE') ?? new Uint8Array());
    expect(bad).toMatchObject({ ok: true, crcOk: false, expectedCrc: 0xcdc5 });
    expect(parseRtuFrame(new Uint8Array([1, 3]))).toEqual({ ok: false, reason: 'too_short' });
  });
});
