import { describe, expect, it } from 'vitest';
import { computed, nullable, rowsOf } from './rows.js';
import { deviceRealtime, plants } from './schema.js';

describe('rowsOf (raw rows typed and converted from the schema)', () => {
  it('reads schema columns as drizzle does, whatever the driver answered', () => {
    const [row] = rowsOf({ id: plants.id, capacity_kwp: plants.capacityKwp, created_at: plants.createdAt, soc: deviceRealtime.soc }, [
      { id: '7', capacity_kwp: '9.5', created_at: '2026-11-26 10:00:00+00', soc: null },
    ]);
    expect(row).toEqual({ id: 7, capacity_kwp: 9.5, created_at: new Date('2026-11-26T10:00:00Z'), soc: null });
  });

  it('reads computed values the same on both drivers (int8 as text on node-postgres)', () => {
    const [row] = rowsOf({ n: computed.number, flag: computed.boolean, day: nullable(computed.text), values: computed.numbers }, [
      { n: '12', flag: true, day: null, values: [1, null, '2.5'] },
    ]);
    expect(row).toEqual({ n: 12, flag: true, day: null, values: [1, Number.NaN, 2.5] });
  });

  it('refuses what the declaration does not allow: a missing column, null where not nullable, an unknown kind', () => {
    expect(() => rowsOf({ id: plants.id, name: plants.name }, [{ id: 1 }])).toThrow(/name/);
    expect(() => rowsOf({ n: computed.number }, [{ n: null }])).toThrow(/not null/);
    expect(() => rowsOf({ kind: computed.oneOf(['agent', 'customer']) }, [{ kind: 'other' }])).toThrow(/not one of/);
  });
});
