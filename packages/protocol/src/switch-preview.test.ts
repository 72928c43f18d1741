import { describe, expect, it } from 'vitest';
import { SUNSPEC_INVERTER_3P } from './maps/index.js';
import { sampleValues } from './sample-values.js';
import { switchPreview } from './switch-preview.js';
import type { ProtocolDefinition } from './types.js';

describe('a protocol switch’s preview', () => {
  it('reads the last reading with both maps and marks what would decode differently', () => {
    const last = sampleValues(SUNSPEC_INVERTER_3P);
    const w = SUNSPEC_INVERTER_3P.points.find((p) => p.id === 'W');
    if (!w) throw new Error('no W');
    // Another brand's map of the same registers: W scaled tenfold and renamed unit, Hz left out.
    const other: ProtocolDefinition = {
      ...SUNSPEC_INVERTER_3P,
      id: 'other-3p',
      points: SUNSPEC_INVERTER_3P.points
        .filter((p) => p.id !== 'Hz')
        .map((p) => (p.id === 'W' ? { ...p, scale: (p.scale ?? 1) * 10, unit: 'daW' } : p)),
    };
    const rows = switchPreview(SUNSPEC_INVERTER_3P, other, last);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get('W')).toMatchObject({ before: last.W, after: Number(last.W) * 10, unitBefore: 'W', unitAfter: 'daW', changed: true });
    expect(byId.get('Hz')).toMatchObject({ before: last.Hz, after: null, changed: true });
    expect(byId.get('WH')).toMatchObject({ before: last.WH, after: last.WH, changed: false });
    expect(rows.filter((r) => r.changed).map((r) => r.id)).toEqual(['W', 'Hz']);
    // The same map: nothing changes.
    expect(switchPreview(SUNSPEC_INVERTER_3P, SUNSPEC_INVERTER_3P, last).some((r) => r.changed)).toBe(false);
  });
});
