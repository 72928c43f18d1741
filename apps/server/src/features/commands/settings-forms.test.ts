import type { SettingPair } from '@sunward/contracts/commands';
import { describe, expect, it } from 'vitest';
import { limitPairProblem, settingPairsOf } from './settings-forms.js';

const CURRENT: SettingPair = { open: 'ALim', closed: 'ALimRcl', trip: 'above' };
const UNDER_VOLTAGE: SettingPair = { open: 'VLimLo', closed: 'VLimLoRcl', trip: 'below' };
const PAIRS = [CURRENT, UNDER_VOLTAGE];
const REPORTED = { ALim: 40, ALimRcl: 36, VLimLo: 184, VLimLoRcl: 196 };

describe('switch limit pairs (spec 02 §5)', () => {
  it('takes an over-limit whose open value exceeds its closed value, the half not asked as the device reports it', () => {
    expect(limitPairProblem(PAIRS, { ALim: 20, ALimRcl: 18 }, REPORTED)).toBeUndefined();
    expect(limitPairProblem(PAIRS, { ALim: 37 }, REPORTED)).toBeUndefined();
    expect(limitPairProblem(PAIRS, { ALimRcl: 39 }, REPORTED)).toBeUndefined();
  });

  it('refuses an over-limit whose open value does not exceed its closed value, equal included', () => {
    expect(limitPairProblem(PAIRS, { ALim: 30, ALimRcl: 30 }, REPORTED)).toEqual({ kind: 'order', pair: CURRENT });
    expect(limitPairProblem(PAIRS, { ALim: 20, ALimRcl: 25 }, REPORTED)).toEqual({ kind: 'order', pair: CURRENT });
    // One half written against the other as reported.
    expect(limitPairProblem(PAIRS, { ALim: 36 }, REPORTED)).toEqual({ kind: 'order', pair: CURRENT });
    expect(limitPairProblem(PAIRS, { ALimRcl: 41 }, REPORTED)).toEqual({ kind: 'order', pair: CURRENT });
  });

  it('reads an under-voltage pair the other way round: the closed value must exceed the open value', () => {
    expect(limitPairProblem(PAIRS, { VLimLo: 180, VLimLoRcl: 200 }, REPORTED)).toBeUndefined();
    expect(limitPairProblem(PAIRS, { VLimLoRcl: 190 }, REPORTED)).toBeUndefined();
    expect(limitPairProblem(PAIRS, { VLimLo: 200 }, REPORTED)).toEqual({ kind: 'order', pair: UNDER_VOLTAGE });
    expect(limitPairProblem(PAIRS, { VLimLo: 190, VLimLoRcl: 190 }, REPORTED)).toEqual({ kind: 'order', pair: UNDER_VOLTAGE });
  });

  it('wants positive integers for paired values, and judges no pair it does not touch or cannot complete', () => {
    expect(limitPairProblem(PAIRS, { ALim: 20.5 }, REPORTED)).toEqual({ kind: 'integer', id: 'ALim' });
    expect(limitPairProblem(PAIRS, { ALimRcl: 0 }, REPORTED)).toEqual({ kind: 'integer', id: 'ALimRcl' });
    expect(limitPairProblem(PAIRS, { VLimLoRcl: -5 }, REPORTED)).toEqual({ kind: 'integer', id: 'VLimLoRcl' });
    // A pair out of order on the device but not in the write, and an unpaired value, are not this write's business.
    expect(limitPairProblem(PAIRS, { Other: 0.5 }, { ...REPORTED, ALimRcl: 50 })).toBeUndefined();
    expect(limitPairProblem(PAIRS, { ALim: 20 }, { ALimRcl: null })).toBeUndefined();
  });

  it('reads the pairs from the protocol: the switch map pairs every limit of its form, other maps none', () => {
    expect(settingPairsOf('vendor-ac-switch', 'setting/switch').map((p) => `${p.open}/${p.closed}/${p.trip}`)).toEqual([
      'WLim/WLimRcl/above',
      'ALim/ALimRcl/above',
      'VLimHi/VLimHiRcl/above',
      'VLimLo/VLimLoRcl/below',
      'LeakLim/LeakLimRcl/above',
      'TmpLim/TmpLimRcl/above',
    ]);
    expect(settingPairsOf('vendor-heat-pump', 'mt/setting')).toEqual([]);
    expect(settingPairsOf('vendor-ac-switch', 'mt/setting')).toEqual([]);
  });
});
