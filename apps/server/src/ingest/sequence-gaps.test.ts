import { describe, expect, it } from 'vitest';
import { createSequenceGaps } from './sequence-gaps.js';

const run = (seqs: readonly number[]) => {
  const gaps = createSequenceGaps();
  return seqs.reduce((open, seq) => open + gaps.observe(1, seq), 0);
};

describe('gaps in a gateway’s report numbers', () => {
  it('counts numbers that never arrive', () => {
    expect(run([1, 2, 5, 6])).toBe(2);
  });

  it('counts no gap for out-of-order arrivals, redeliveries and resends', () => {
    expect(run([1, 3, 2, 3, 2, 5, 4, 6])).toBe(0);
    expect(run([10, 12, 11, 11, 12, 13])).toBe(0);
  });

  it('takes a gateway counting from 1 again as a restart, not as thousands of gaps', () => {
    expect(run([50_000, 50_001, 1, 2, 3])).toBe(0);
    expect(run([50_000, 1, 3])).toBe(1);
  });

  it('keeps gateways apart', () => {
    const gaps = createSequenceGaps();
    expect([gaps.observe(1, 1), gaps.observe(2, 7), gaps.observe(1, 3), gaps.observe(2, 8), gaps.observe(1, 2)]).toEqual([0, 0, 1, 0, -1]);
  });
});
