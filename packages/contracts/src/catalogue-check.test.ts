import { describe, expect, it } from 'vitest';
import { catalogueProblems } from './catalogue-check.js';

describe('catalogueProblems', () => {
  const en = { a: 'Plants', b: 'Hello {{name}}', c: '{{x}}: {{y}}' };
  it('accepts a complete translation', () => {
    expect(catalogueProblems(en, { a: 'Anlagen', b: 'Hallo {{name}}', c: '{{x}}: {{y}}' })).toEqual([]);
  });
  it('reports missing, extra, empty, untranslated and placeholder problems', () => {
    expect(catalogueProblems(en, { a: 'Plants', b: 'Hallo {{nom}}', d: 'x', c: ' ' })).toEqual([
      'untranslated a: Plants',
      'placeholders differ in b',
      'empty c',
      'placeholders differ in c',
      'extra d',
    ]);
  });
  it('lets the caller allow a value equal to English', () => {
    expect(catalogueProblems(en, { a: 'Plants', b: 'Hi {{name}}', c: '{{x}}: {{y}}' }, { mayEqualEnglish: (k) => k === 'a' })).toEqual([]);
  });
});
