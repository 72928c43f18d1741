import type { ProtocolDefinition, RegisterPoint } from '@sunward/protocol/types';
import { describe, expect, it } from 'vitest';
import { historyMapping, switchDiff } from './protocol-switch.js';

const point = (id: string, address: number, extra: Partial<RegisterPoint> = {}): RegisterPoint => ({
  id,
  label: { en: id, zh: id },
  functionCode: 3,
  address,
  count: 1,
  type: 'u16',
  operation: 'r',
  ...extra,
});

const map = (id: string, points: RegisterPoint[]): ProtocolDefinition => ({
  id,
  version: '1',
  name: { en: id, zh: id },
  family: 'inverter',
  manufacturer: 'Test',
  source: 'test',
  points,
  events: [],
});

const FROM = map('a', [
  point('P', 0, { unit: 'W' }),
  point('T', 1, { type: 's16', scale: 0.1, unit: '°C' }),
  point('U', 2),
  point('V', 3),
  point('S', 9, { operation: 'w' }),
]);
const TO = map('b', [point('P', 0, { unit: 'W', scale: 10 }), point('T', 1, { type: 's16', scale: 0.1, unit: '°C' }), point('X', 30)]);

describe('what a protocol switch would read differently', () => {
  it('reads the last reading with both maps: changed, same, gone, not in the report; registers left unread as ranges', () => {
    const { rows, uncovered } = switchDiff(FROM, TO, { P: 120, T: -2.5, U: 7, V: 8 });
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.before, r.after, r.status]]))).toEqual({
      P: [120, 1200, 'changed'],
      T: [-2.5, -2.5, 'same'],
      U: [7, null, 'removed'],
      V: [8, null, 'removed'],
      X: [null, null, 'no_data'],
    });
    // The write-only register is neither compared nor listed.
    expect(uncovered).toEqual([{ functionCode: 3, address: 2, count: 2 }]);
  });

  it('compares the definitions when the device has not reported yet', () => {
    const { rows } = switchDiff(FROM, TO, null);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      P: 'changed',
      T: 'same',
      U: 'removed',
      V: 'removed',
      X: 'added',
    });
    expect(rows.every((r) => r.before === null && r.after === null)).toBe(true);
  });
});

describe('carrying a device’s history to the new protocol', () => {
  it('takes each new point from the same point of the old order, and nothing for a point the old one lacks', () => {
    expect(historyMapping(['W', 'WH', 'Tmp', 'Evt'], ['WH', 'W', 'Code'])).toEqual([2, 1, null]);
    expect(historyMapping([], ['W'])).toEqual([null]);
    expect(historyMapping(['W'], [])).toEqual([]);
  });
});
