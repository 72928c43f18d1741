import { readFileSync } from 'node:fs';
import { protocolDraftProblems } from '@sunward/contracts/protocols';
import { numericPointIds } from '@sunward/protocol/codec';
import { BUILT_IN_PROTOCOLS } from '@sunward/protocol/maps/index';
import { describe, expect, it } from 'vitest';
import { contentOfMap, seedName, storageOrderAfter, toDefinition } from './protocol-definition.js';
import { draftFromSunspec, SunspecModelSchema } from './sunspec-import.js';

describe('the shipped maps as stored protocols', () => {
  it('pass the editor’s rules and keep their storage order through the store', () => {
    for (const map of BUILT_IN_PROTOCOLS) {
      const content = contentOfMap(map);
      expect(protocolDraftProblems(content), map.id).toEqual([]);
      const stored = toDefinition({
        identifier: map.id,
        family: map.family,
        manufacturer: map.manufacturer,
        protocolVersion: map.version,
        definition: JSON.parse(JSON.stringify({ ...content, storageOrder: storageOrderAfter(undefined, content) })),
      });
      expect(numericPointIds(stored), map.id).toEqual(numericPointIds(map));
    }
  });

  it('names them within 6-12 characters', () => {
    for (const map of BUILT_IN_PROTOCOLS) expect(seedName(map.id).length, map.id).toBeGreaterThanOrEqual(6);
    expect(seedName('sunspec-inverter-3p')).toBe('INVERTER-3P');
    expect(seedName('sunspec-micro-inverter')).toBe('MICRO-INVERT');
  });

  it('keeps every point’s position across versions: new points appended, removed ones leave their slot', () => {
    const content = contentOfMap(BUILT_IN_PROTOCOLS[0] ?? BUILT_IN_PROTOCOLS[1]!);
    const first = storageOrderAfter(undefined, content);
    const [removed, ...rest] = content.points.filter((p) => first.includes(p.id));
    const next = storageOrderAfter(first, {
      ...content,
      points: [...content.points.filter((p) => p.id !== removed?.id), { ...rest[0]!, id: 'NewPoint', address: 9000 }],
    });
    expect(next.slice(0, first.length)).toEqual(first);
    expect(next.at(-1)).toBe('NewPoint');
  });
});

describe('a SunSpec model as a draft', () => {
  it('places model 103 from its start, maps types and names scale factors and events', () => {
    const model = SunspecModelSchema.parse(JSON.parse(readFileSync(new URL('./sunspec-model-103.fixture.json', import.meta.url), 'utf8')));
    const { draft } = draftFromSunspec(model, { start: 40002 });
    const byId = new Map(draft.content.points.map((p) => [p.id, p]));
    expect(byId.get('ID')).toMatchObject({ address: 40002, type: 'u16' });
    expect(byId.get('WH')).toMatchObject({ type: 'u32', accumulator: true, scaleFactorPoint: 'WH_SF', role: 'energy_total' });
    expect(byId.get('St')?.enumeration?.['4']?.en).toBeTruthy();
    expect(draft.content.events.length).toBeGreaterThan(0);
    expect(protocolDraftProblems(draft.content)).toEqual([]);
  });
});
