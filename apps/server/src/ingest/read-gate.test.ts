import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createReadGate } from './read-gate.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A stream that brings `chunk` bytes each time it is asked to read, and counts the asks. */
function source(chunk: number) {
  const stream = new Readable({
    highWaterMark: 1,
    read() {
      stream.asked++;
      this.push(Buffer.alloc(chunk));
    },
  }) as Readable & { asked: number };
  stream.asked = 0;
  // Paused mode, read when the consumer calls read(), as aedes does (its 'readable' listener).
  stream.on('readable', () => undefined);
  return stream;
}

describe('the broker’s read gate', () => {
  it('lets sockets read while little waits, parks them when the read-ahead is reached, resumes them when room comes', async () => {
    let waiting = 0;
    const gate = createReadGate({ waitingBytes: () => waiting, readAheadBytes: 100, resumePerTurn: 1 });
    const a = source(10);
    const b = source(10);
    gate.attach(a);
    gate.attach(b);
    expect(a.read()).toHaveLength(10);
    expect(gate.buffered()).toBe(0);
    // Reports waiting for the budget fill the read-ahead: nobody asks the kernel for more.
    waiting = 100;
    gate.changed();
    const askedBefore = a.asked + b.asked;
    a.read();
    b.read();
    await turn();
    expect(a.asked + b.asked).toBe(askedBefore);
    expect(gate.parked()).toBe(2);
    // Room again: one socket per turn goes back to reading, the longest parked first.
    waiting = 0;
    gate.changed();
    await turn();
    expect(gate.parked()).toBe(1);
    await turn();
    expect(gate.parked()).toBe(0);
    expect(a.asked + b.asked).toBe(askedBefore + 2);
  });

  it('counts what sockets read and the broker has not taken as read-ahead too', async () => {
    const gate = createReadGate({ waitingBytes: () => 0, readAheadBytes: 100, resumePerTurn: 4 });
    const big = source(150);
    gate.attach(big);
    // Asked once: 150 bytes arrive and sit unread, past the read-ahead.
    big.read(0);
    await turn();
    expect(gate.buffered()).toBe(150);
    const other = source(10);
    gate.attach(other);
    other.read(0);
    await turn();
    expect(other.asked).toBe(0);
    expect(gate.parked()).toBe(1);
    // The broker takes the bytes: room again, the parked socket reads.
    expect(big.read()).toHaveLength(150);
    expect(gate.buffered()).toBe(0);
    await turn();
    expect(other.asked).toBe(1);
  });
});
