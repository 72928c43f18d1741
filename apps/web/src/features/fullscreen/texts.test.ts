import { catalogueProblems, sameAsEnglishIn } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { fullscreenTexts } from './texts';

describe('the large-screen display texts', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('are all translated into %s, with the same placeholders', (language) => {
    expect(catalogueProblems(fullscreenTexts.en, fullscreenTexts[language], { mayEqualEnglish: sameAsEnglishIn(language) })).toEqual([]);
  });
});
