import { catalogueProblems } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../locales/en';
import { agreementTexts } from './agreement-texts';
import { settingsTexts } from './settings-texts';
import { signupTexts } from './signup-texts';

/** Words that are the same in a language as in English. */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  'me.email': ['vi', 'cz', 'po', 'el', 'pt'],
  'me.role': ['cz'],
  'me.avatar': ['es', 'cz', 'pt'],
};

const CATALOGUES = [
  ['signup', signupTexts, /^(signup|forget|reset)\.[A-Za-z0-9]+$/],
  ['settings', settingsTexts, /^me\.[A-Za-z0-9]+$/],
  ['agreement', agreementTexts, /^agreement\.[A-Za-z0-9]+$/],
] as const;

describe.each(CATALOGUES)('%s texts in ten languages', (_name, texts, pattern) => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    const mayEqualEnglish = (key: string) => (SAME_AS_ENGLISH[key] ?? []).includes(language);
    expect(catalogueProblems(texts.en, texts[language], { mayEqualEnglish })).toEqual([]);
  });

  it('keeps its keys apart from the core catalogue', () => {
    for (const key of Object.keys(texts.en)) {
      expect(key).toMatch(pattern);
      expect(key in en, key).toBe(false);
    }
  });
});
