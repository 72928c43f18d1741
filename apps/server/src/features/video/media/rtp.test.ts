import { describe, expect, it } from 'vitest';
import { detectContainer, parseRtp, ssrcNumber } from './rtp.js';

function rtp(options: {
  payloadType: number;
  payload: Buffer;
  csrc?: number;
  extensionWords?: number;
  padding?: number;
  ssrc?: number;
}): Buffer {
  const header = Buffer.alloc(12 + (options.csrc ?? 0) * 4);
  header[0] = 0x80 | (options.extensionWords !== undefined ? 0x10 : 0) | (options.padding ? 0x20 : 0) | (options.csrc ?? 0);
  header[1] = options.payloadType;
  header.writeUInt16BE(7, 2);
  header.writeUInt32BE(90_000, 4);
  header.writeUInt32BE(options.ssrc ?? 123_456_789, 8);
  const extension = options.extensionWords === undefined ? Buffer.alloc(0) : Buffer.alloc(4 + options.extensionWords * 4);
  if (options.extensionWords !== undefined) extension.writeUInt16BE(options.extensionWords, 2);
  const padding = options.padding ? Buffer.alloc(options.padding, 0) : Buffer.alloc(0);
  if (options.padding) padding[options.padding - 1] = options.padding;
  return Buffer.concat([header, extension, options.payload, padding]);
}

describe('RTP', () => {
  const ts = Buffer.alloc(188 * 7, 0);
  ts[0] = 0x47;
  const ps = Buffer.from([0, 0, 1, 0xba, 0x44, 0, 4, 0]);

  it('reads the payload past CSRCs, a header extension and padding', () => {
    const packet = parseRtp(rtp({ payloadType: 33, payload: ts, csrc: 2, extensionWords: 1, padding: 4, ssrc: 42 }));
    expect(packet).toMatchObject({ payloadType: 33, sequence: 7, timestamp: 90_000, ssrc: 42 });
    expect(packet?.payload.equals(ts)).toBe(true);
  });

  it('ignores what is not RTP: short, another version, RTCP, a lying extension length', () => {
    expect(parseRtp(Buffer.alloc(8))).toBeUndefined();
    expect(parseRtp(Buffer.from([0x40, 33, ...Buffer.alloc(20)]))).toBeUndefined();
    expect(parseRtp(Buffer.from([0x80, 200, ...Buffer.alloc(20)]))).toBeUndefined();
    const lying = rtp({ payloadType: 96, payload: ps, extensionWords: 0 });
    lying.writeUInt16BE(500, 14);
    expect(parseRtp(lying)).toBeUndefined();
  });

  it('tells MPEG-TS from MPEG-PS, and waits on a PS stream caught mid-pack', () => {
    expect(detectContainer(parseRtp(rtp({ payloadType: 33, payload: ts })) ?? expect.fail())).toBe('mpegts');
    expect(detectContainer(parseRtp(rtp({ payloadType: 96, payload: ps })) ?? expect.fail())).toBe('mpeg-ps');
    expect(detectContainer(parseRtp(rtp({ payloadType: 96, payload: Buffer.from([1, 2, 3, 4]) })) ?? expect.fail())).toBeUndefined();
  });

  it('reads a y= SSRC as the header number', () => {
    expect(ssrcNumber('0100000001')).toBe(100_000_001);
  });
});
