import { describe, expect, it } from 'vitest';
import type { ItemRecord } from './batch-tasks.repository.js';
import { waveFailed, wavesOf } from './batch-tasks.service.js';

const item = (wave: number, status: string): ItemRecord => ({
  id: 0,
  sn: 'X',
  wave,
  status,
  commandId: null,
  message: null,
  commandStatus: null,
  commandMessage: null,
});

describe('batch task waves', () => {
  it('puts the canary share first (at least one device), the rest after', () => {
    expect(wavesOf(['a', 'b', 'c', 'd'], 25).map((w) => w.wave)).toEqual([0, 1, 1, 1]);
    expect(wavesOf(['a', 'b', 'c'], 10).map((w) => w.wave)).toEqual([0, 1, 1]);
    expect(wavesOf(['a', 'b'], 0).map((w) => w.wave)).toEqual([1, 1]);
    expect(wavesOf(['a', 'b'], 100).map((w) => w.wave)).toEqual([0, 0]);
  });

  it('says a wave failed when its failures pass the threshold', () => {
    const items = [item(0, 'failed'), item(0, 'successful'), item(1, 'pending')];
    expect(waveFailed(items, 0, 49)).toEqual({ failed: 1, total: 2, over: true });
    expect(waveFailed(items, 0, 50)).toEqual({ failed: 1, total: 2, over: false });
    expect(waveFailed([], 0, 0).over).toBe(false);
  });
});
