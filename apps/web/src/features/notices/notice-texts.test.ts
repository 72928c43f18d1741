import { catalogueProblems } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../locales/en';
import { noticeTexts } from './notice-texts';

/** Words that are the same in a language as in English. */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  'notices.total': ['es', 'pt'],
  'notices.colStatus': ['pt'],
};

describe('notice texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    const mayEqualEnglish = (key: string) => SAME_AS_ENGLISH[key]?.includes(language) ?? false;
    expect(catalogueProblems(noticeTexts.en, noticeTexts[language], { mayEqualEnglish })).toEqual([]);
  });

  it('keeps its keys apart from the core catalogue', () => {
    for (const key of Object.keys(noticeTexts.en)) {
      expect(key).toMatch(/^notices\.[A-Za-z0-9]+$/);
      expect(key in en, key).toBe(false);
    }
  });
});
