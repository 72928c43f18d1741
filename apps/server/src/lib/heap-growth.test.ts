import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { applyHeapGrowth } from './heap-growth.js';

describe('heap growth (HEAP_GROWTH_PERCENT)', () => {
  it('is 50 % unless set, and 0 leaves V8 its own heuristic', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(50);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '120' }).heapGrowthPercent).toBe(120);
  });

  it('refuses what is not a whole percentage from 0 to 1000', () => {
    for (const bad of ['-1', '1001', '12.5', 'half'])
      expect(() => loadConfig({ HEAP_GROWTH_PERCENT: bad }), bad).toThrow(/HEAP_GROWTH_PERCENT/);
  });

  it('sets V8’s heap growing factor, and nothing at 0', () => {
    const set: string[] = [];
    expect(applyHeapGrowth(50, (flags) => set.push(flags))).toBe(true);
    expect(applyHeapGrowth(0, (flags) => set.push(flags))).toBe(false);
    expect(set).toEqual(['--heap-growing-percent=50']);
  });

  it('is a flag this Node.js knows', () => {
    // setFlagsFromString ignores a flag V8 does not have: a Node.js upgrade that dropped it would go unnoticed.
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    expect(options).toContain('--heap-growing-percent');
  });
});
