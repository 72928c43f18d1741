import { describe, expect, it } from 'vitest';
import { createFrameSizeTracker } from './mqtt-frame-guard.js';

/** A QoS 0 PUBLISH as MQTT 3.1.1 frames it: type byte, remaining length (7 bits a byte), topic, payload. */
function publish(bytes: number): Buffer {
  const topic = Buffer.from('sunward/v1/gw/GW1/report');
  const body = Buffer.concat([Buffer.from([topic.length >> 8, topic.length & 0xff]), topic, Buffer.alloc(bytes)]);
  const length: number[] = [];
  let rest = body.length;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    length.push(byte);
  } while (rest > 0);
  return Buffer.concat([Buffer.from([0x30, ...length]), body]);
}

describe('MQTT frame size guard', () => {
  it('passes packets within the limit, however the stream is cut', () => {
    // Lengths of 1, 2 and 3 bytes (127, 16,383 and more); cut byte by byte where it matters, at the headers.
    const stream = Buffer.concat([publish(10), publish(20_000), publish(0), publish(100), publish(16_383)]);
    for (const cut of [1, 2, 3, 7, 1000, stream.length]) {
      const tracker = createFrameSizeTracker(30_000);
      const refusals: string[] = [];
      for (let at = 0; at < stream.length; at += cut) {
        const refused = tracker.feed(stream.subarray(at, at + cut));
        if (refused !== undefined) refusals.push(refused);
      }
      expect(refusals).toEqual([]);
    }
  });

  it('refuses the first packet larger than the limit from its header alone', () => {
    const tracker = createFrameSizeTracker(100_000);
    expect(tracker.feed(publish(50))).toBeUndefined();
    const big = publish(100_001);
    // The fixed header (type and 3 length bytes) is enough; the body need not arrive.
    expect(tracker.feed(big.subarray(0, 4))).toMatch(/limit 100000/);
  });

  it('refuses a remaining length longer than four bytes', () => {
    const tracker = createFrameSizeTracker(Number.MAX_SAFE_INTEGER);
    expect(tracker.feed(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]))).toBe('malformed remaining length');
  });
});
