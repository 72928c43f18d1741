import type { LiveEvent } from '@sunward/contracts/live-events';
import { describe, expect, it } from 'vitest';
import { createCoalescingQueue, NOTIFY_PAYLOAD_MAX_BYTES, packPayloads, unpackPayload } from './live-batch.js';

const device = (deviceId: number, powerW: number): LiveEvent => ({
  type: 'device',
  deviceId,
  plantId: 1,
  status: 1,
  powerW,
  soc: null,
  ts: '2026-11-28T06:00:00.000Z',
});
const opened = (deviceId: number, code: number): LiveEvent => ({
  type: 'event',
  change: 'opened',
  deviceId,
  plantId: 1,
  code,
  level: 'fault',
  ts: '2026-11-28T06:00:00.000Z',
});

describe('live bus batching', () => {
  it('keeps the newest state of a device in its first place, and every opened or cleared event', () => {
    const queue = createCoalescingQueue(100);
    queue.push(device(1, 10));
    queue.push(opened(1, 7));
    queue.push(device(2, 20));
    queue.push(device(1, 11));
    queue.push(opened(1, 7));
    expect(queue.take()).toEqual([device(1, 11), opened(1, 7), device(2, 20), opened(1, 7)]);
    expect(queue.length).toBe(0);
  });

  it('drops new events beyond its limit and counts them', () => {
    const queue = createCoalescingQueue(2);
    for (let i = 0; i < 5; i++) queue.push(device(i, i));
    queue.push(device(1, 99));
    expect(queue.take()).toEqual([device(0, 0), device(1, 99)]);
    expect(queue.takeDropped()).toBe(3);
  });

  it('packs thousands of events into payloads under the NOTIFY limit, in order, and reads them back', () => {
    const events = Array.from({ length: 3000 }, (_, i) => device(i, i * 1.5));
    const { payloads, oversized } = packPayloads('origin-a', events);
    expect(oversized).toBe(0);
    expect(payloads.length).toBeGreaterThan(40);
    expect(payloads.length).toBeLessThan(80);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(NOTIFY_PAYLOAD_MAX_BYTES);
    const back = payloads.flatMap((p) => unpackPayload(p)?.events ?? []);
    expect(back).toEqual(events);
    expect(unpackPayload(payloads[0] ?? '')?.origin).toBe('origin-a');
  });

  it('counts multi-byte characters in bytes, and leaves out an event too large for any payload', () => {
    const upgrade = (sn: string): LiveEvent => ({ type: 'upgrade', deviceId: 1, plantId: 1, sn, progress: 1, status: 'upgrading' });
    const { payloads, oversized } = packPayloads(
      'o',
      [upgrade('é'.repeat(300)), upgrade('x'.repeat(9000)), upgrade('ü'.repeat(300))],
      1000,
    );
    expect(oversized).toBe(1);
    expect(payloads).toHaveLength(2);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(1000);
  });

  it('skips payloads that are not the bus’s and events that are not live events', () => {
    expect(unpackPayload('not json')).toBeUndefined();
    expect(unpackPayload('{"x":1}')).toBeUndefined();
    expect(unpackPayload(JSON.stringify({ o: 'b', e: [{ type: 'nope' }, device(3, 1)] }))?.events).toEqual([device(3, 1)]);
  });
});
