import { describe, expect, it } from 'vitest';
import { evaluateRule, inWindow, type RuleState } from './rule-evaluator.js';

const rule = { conditions: { pvSurplus: { aboveW: 2000, minutes: 2 } }, minIntervalMinutes: 10 };
const idle: RuleState = { holdingSince: null, active: false, lastFiredAt: null };
const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 10, minute));
const values = (pvSurplusW: number) => ({ pvSurplusW, soc: null, localTime: '12:00' });

/** Runs a rule over a series of (minute, surplus) readings; answers the minutes it fired at. */
function run(series: [number, number][]) {
  let state = idle;
  const fired: number[] = [];
  for (const [minute, surplus] of series) {
    const step = evaluateRule(rule, state, values(surplus), at(minute));
    state = step.state;
    if (step.fire) fired.push(minute);
  }
  return fired;
}

describe('rule evaluation', () => {
  it('fires once the surplus has held above the threshold for its minutes, and only once while it holds', () => {
    expect(
      run([
        [0, 2500],
        [1, 2500],
        [2, 2500],
        [3, 2600],
        [4, 2400],
      ]),
    ).toEqual([2]);
  });

  it('does not flap around the threshold: released only below the hysteresis (10 %, at least 100 W)', () => {
    // 1900 W is within 200 W of 2000 W: still held; 1700 W releases; back above fires again after the interval.
    expect(
      run([
        [0, 2100],
        [2, 2100],
        [3, 1900],
        [4, 2100],
        [5, 1700],
        [6, 2100],
        [8, 2100],
        [13, 2100],
      ]),
    ).toEqual([2, 13]);
  });

  it('starts holding again when the surplus drops before its minutes are up', () => {
    expect(
      run([
        [0, 2100],
        [1, 1500],
        [2, 2100],
        [3, 2100],
        [4, 2100],
      ]),
    ).toEqual([4]);
  });

  it('fails a condition whose value is missing, and reads time windows across midnight', () => {
    expect(evaluateRule({ conditions: { socAbove: 50 }, minIntervalMinutes: 1 }, idle, values(0), at(0)).fire).toBe(false);
    expect(inWindow('23:30', { from: '22:00', to: '06:00' })).toBe(true);
    expect(inWindow('12:00', { from: '22:00', to: '06:00' })).toBe(false);
    expect(inWindow('06:00', { from: '06:00', to: '18:00' })).toBe(true);
  });
});
