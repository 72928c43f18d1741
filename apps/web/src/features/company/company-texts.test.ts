import { catalogueProblems, sameAsEnglishIn } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../locales/en';
import { companyTexts } from './company-texts';

/** Words the same in a language as in English (E-mail, Total). */
const SAME: Record<string, readonly string[]> = {
  'enterprise.email': ['vi', 'de', 'cz', 'po', 'el', 'pt'],
  'enterprise.total': ['es', 'pt'],
  'enterprise.role': ['de', 'cz'],
  'enterprise.nickname': ['de'],
  'enterprise.phone': ['de', 'cz', 'po'],
  'enterprise.name': ['de'],
};

describe('company texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    const mayEqualEnglish = (key: string, value: string) => (SAME[key] ?? []).includes(language) || sameAsEnglishIn(language)(key, value);
    expect(catalogueProblems(companyTexts.en, companyTexts[language], { mayEqualEnglish })).toEqual([]);
  });

  it('keeps its keys apart from the core catalogue', () => {
    for (const key of Object.keys(companyTexts.en)) expect(key in en, key).toBe(false);
  });
});
