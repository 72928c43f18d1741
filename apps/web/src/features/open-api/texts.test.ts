import { catalogueProblems, sameAsEnglishIn } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { openApiTexts } from './texts';

describe('the API keys and webhooks texts', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('are all translated into %s, with the same placeholders', (language) => {
    expect(catalogueProblems(openApiTexts.en, openApiTexts[language], { mayEqualEnglish: sameAsEnglishIn(language) })).toEqual([]);
  });
});
