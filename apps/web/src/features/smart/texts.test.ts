import { catalogueProblems, sameAsEnglishIn } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { smartTexts } from './smart-texts';

describe('the application centre, bulb and rule texts', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('are all translated into %s, with the same placeholders', (language) => {
    expect(catalogueProblems(smartTexts.en, smartTexts[language], { mayEqualEnglish: sameAsEnglishIn(language) })).toEqual([]);
  });
});
