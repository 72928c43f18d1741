import { catalogueProblems } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../../locales/en';
import { thirdPartyTexts } from './third-party-texts';

describe('third-party sign-in texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    expect(catalogueProblems(thirdPartyTexts.en, thirdPartyTexts[language])).toEqual([]);
  });

  it('keeps its keys apart from the core catalogue', () => {
    for (const key of Object.keys(thirdPartyTexts.en)) {
      expect(key).toMatch(/^thirdParty\.[A-Za-z0-9]+$/);
      expect(key in en, key).toBe(false);
    }
  });
});
