import { catalogueProblems } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../locales/en';
import { versionTexts } from './version-texts';

/** Words that are the same in a language as in English. */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  'versions.versionLabel': ['de'],
  'versions.colVersion': ['de'],
  'versions.total': ['es', 'pt'],
};

describe('version texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    const mayEqualEnglish = (key: string) => SAME_AS_ENGLISH[key]?.includes(language) ?? false;
    expect(catalogueProblems(versionTexts.en, versionTexts[language], { mayEqualEnglish })).toEqual([]);
  });

  it('keeps its keys apart from the core catalogue', () => {
    for (const key of Object.keys(versionTexts.en)) {
      expect(key).toMatch(/^versions\.[A-Za-z0-9]+$/);
      expect(key in en, key).toBe(false);
    }
  });
});
