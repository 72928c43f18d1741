import { catalogueProblems } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../../locales/en';
import { releaseTexts } from './release-texts';

/** Words that are the same in a language as in English. */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  'firmwareReleases.version': ['de'],
  'firmwareReleases.hardware': ['es', 'cz', 'pt'],
  'firmwareReleases.typeGateway': ['de', 'pt'],
};

describe('firmware release log texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    const mayEqualEnglish = (key: string) => SAME_AS_ENGLISH[key]?.includes(language) ?? false;
    expect(catalogueProblems(releaseTexts.en, releaseTexts[language], { mayEqualEnglish })).toEqual([]);
  });

  it('keeps its keys apart from the core catalogue', () => {
    for (const key of Object.keys(releaseTexts.en)) {
      expect(key).toMatch(/^firmwareReleases\.[A-Za-z0-9]+$/);
      expect(key in en, key).toBe(false);
    }
  });
});
