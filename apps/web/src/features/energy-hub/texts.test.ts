import { catalogueProblems, sameAsEnglishIn } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { energyHubTexts } from './energy-hub-texts';

describe('the energy hub texts', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('are all translated into %s, with the same placeholders', (language) => {
    expect(catalogueProblems(energyHubTexts.en, energyHubTexts[language], { mayEqualEnglish: sameAsEnglishIn(language) })).toEqual([]);
  });
});
