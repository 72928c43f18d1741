import { describe, expect, it } from 'vitest';
import { diffRegisters, protocolDraftProblems, type RegisterPointDraft } from './protocols.js';

const point = (id: string, address: number, more: Partial<RegisterPointDraft> = {}): RegisterPointDraft => ({
  id,
  label: { en: id, zh: '' },
  functionCode: 3,
  address,
  count: 1,
  type: 'u16',
  operation: 'r',
  ...more,
});

describe('protocol draft rules', () => {
  it('accepts registers side by side and the same address under another function code', () => {
    expect(protocolDraftProblems({ points: [point('A', 0), point('B', 1), point('C', 0, { functionCode: 4 })], events: [] })).toEqual([]);
  });

  it('names the later register of an overlap, and the one it overlaps, even past a shorter one', () => {
    const problems = protocolDraftProblems({
      points: [point('Long', 10, { type: 'u64', count: 4 }), point('Mid', 11), point('Late', 13)],
      events: [],
    });
    expect(problems.map((p) => [p.field, p.params?.other])).toEqual([
      ['points.1.address', 'Long'],
      ['points.2.address', 'Long'],
    ]);
  });

  it('refuses a width that does not fit the type, duplicate ids and events on what is no bit field', () => {
    const problems = protocolDraftProblems({
      points: [point('W', 0, { type: 'u32' }), point('W', 5), point('Evt', 6, { type: 'bits16' })],
      events: [
        { point: 'W', bit: 0, code: 1, level: 'fault', description: { en: 'x', zh: '' }, solution: { en: 'y', zh: '' } },
        { point: 'Evt', bit: 16, code: 2, level: 'fault', description: { en: 'x', zh: '' }, solution: { en: 'y', zh: '' } },
      ],
    });
    expect(problems.map((p) => `${p.field}:${p.key}`)).toEqual([
      'points.0.count:typeWidth',
      'points.1.id:duplicateId',
      'events.0.point:notBitField',
      'events.1.bit:bitOutOfRange',
    ]);
  });

  it('diffs two versions by point id', () => {
    expect(diffRegisters([point('A', 0), point('B', 1)], [point('A', 0, { scale: 0.1 }), point('C', 2)])).toEqual([
      { id: 'A', change: 'changed', fields: ['scale'] },
      { id: 'C', change: 'added', fields: [] },
      { id: 'B', change: 'removed', fields: [] },
    ]);
  });
});
