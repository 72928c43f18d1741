import { describe, expect, it } from 'vitest';
import {
  CELL_LIMITS,
  cellLevel,
  cellStats,
  formatPointValue,
  inverterTypeName,
  orderSections,
  spreadLevel,
  stringOutliers,
} from './device-format';

describe('device formatting', () => {
  it('finds the lowest and highest cell and their spread', () => {
    expect(cellStats([3.31, null, 3.35, 3.29])).toEqual({ min: 3.29, max: 3.35, spread: 3.35 - 3.29, minIndex: 3, maxIndex: 2 });
    expect(cellStats([null])).toBeUndefined();
  });

  it('flags string currents far from the median, and nothing at night', () => {
    expect([...stringOutliers([9.1, 9.0, 2.1, 9.3, null])]).toEqual([2]);
    expect([...stringOutliers([0.1, 0.0, 0.2])]).toEqual([]);
    expect([...stringOutliers([9, 9])]).toEqual([]);
  });

  it('orders sections input first and status last, and formats values', () => {
    expect(orderSections([{ key: 'status' }, { key: 'output' }, { key: 'input' }]).map((s) => s.key)).toEqual([
      'input',
      'output',
      'status',
    ]);
    expect(formatPointValue(3172.456, null, 'en')).toBe('3,172.5');
    expect(formatPointValue(null, null, 'en')).toBe('--');
    expect(formatPointValue(4, 'MPPT', 'en')).toBe('MPPT');
    expect(formatPointValue(28_144_508, null, 'en', 'Wh')).toBe('28.14 MWh');
  });

  it('rates cells against the battery’s absolute limits, so a small spread between healthy cells is normal', () => {
    // 11 mV between healthy LFP cells: every cell and the spread normal (min/max scaling painted it red and blue).
    const cells = [3.301, 3.305, 3.312];
    expect(cells.map((v) => cellLevel(v, CELL_LIMITS.voltage))).toEqual(['normal', 'normal', 'normal']);
    expect(spreadLevel(0.011, CELL_LIMITS.voltage)).toBe('normal');
    expect(cellLevel(3.62, CELL_LIMITS.voltage)).toBe('warning');
    expect(cellLevel(3.7, CELL_LIMITS.voltage)).toBe('alarm');
    expect(cellLevel(2.4, CELL_LIMITS.voltage)).toBe('alarm');
    expect(spreadLevel(0.12, CELL_LIMITS.voltage)).toBe('alarm');
    expect(cellLevel(50, CELL_LIMITS.temperature)).toBe('warning');
  });

  it('names an inverter type from the shared catalogue, in the page language', () => {
    expect(inverterTypeName('de', 1)).toBe('Einspeisung zuerst');
    expect(inverterTypeName('en', null)).toBe('--');
  });
});
