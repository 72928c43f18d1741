import { describe, expect, it } from 'vitest';
import { energyByDay } from './energy-days.js';

const dayOf = (ts: number) => new Date(ts).toISOString().slice(0, 10);
const at = (day: string, hour: number) => Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);

describe('the energy model', () => {
  it('counts each step in the day of the later reading, whatever the order the readings come in', () => {
    const readings = [
      { ts: at('2026-11-01', 10), wh: 1000 },
      { ts: at('2026-11-01', 22), wh: 1500 },
      { ts: at('2026-11-02', 1), wh: 1700 },
      { ts: at('2026-11-02', 12), wh: 2700 },
    ];
    const shuffled = [readings[2], readings[0], readings[3], readings[1], readings[0]].filter((r) => r !== undefined);
    for (const list of [readings, shuffled]) {
      expect(energyByDay(undefined, list, dayOf).map((d) => [d.day, d.energyWh, d.dropWh])).toEqual([
        ['2026-11-01', 500, 0],
        ['2026-11-02', 1200, 0],
      ]);
    }
  });

  it('starts again after a reset without negative energy, remembering the fall', () => {
    const days = energyByDay(
      { ts: at('2026-11-01', 9), wh: 9000 },
      [
        { ts: at('2026-11-01', 10), wh: 9500 },
        { ts: at('2026-11-01', 11), wh: 0 },
        { ts: at('2026-11-01', 12), wh: 300 },
      ],
      dayOf,
    );
    expect(days).toEqual([
      {
        day: '2026-11-01',
        firstTs: at('2026-11-01', 10),
        firstWh: 9500,
        lastTs: at('2026-11-01', 12),
        lastWh: 300,
        energyWh: 800,
        dropWh: 9500,
      },
    ]);
    // Lifetime = newest counter + falls = first counter + energy.
    expect(300 + 9500).toBe(9000 + 800);
  });

  it('ignores readings not after the previous one (already counted) and non-finite counters', () => {
    expect(
      energyByDay(
        { ts: at('2026-11-01', 12), wh: 100 },
        [
          { ts: at('2026-11-01', 11), wh: 50 },
          { ts: at('2026-11-01', 13), wh: Number.NaN },
        ],
        dayOf,
      ),
    ).toEqual([]);
  });
});
