import { catalogueProblems, sameAsEnglishIn } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../locales/en';
import { customerTexts } from './customer-texts';

/** Words the same in a language as in English (Total). */
const SAME: Record<string, readonly string[]> = {
  'customers.total': ['es', 'pt'],
  'customers.name': ['de'],
};

describe('customer texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    const mayEqualEnglish = (key: string, value: string) => (SAME[key] ?? []).includes(language) || sameAsEnglishIn(language)(key, value);
    expect(catalogueProblems(customerTexts.en, customerTexts[language], { mayEqualEnglish })).toEqual([]);
  });

  it('keeps its keys apart from the core catalogue', () => {
    for (const key of Object.keys(customerTexts.en)) expect(key in en, key).toBe(false);
  });
});
