import { catalogueProblems, sameAsEnglishIn } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../locales/en';
import { invitationTexts } from './invitation-texts';

describe('invitation texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    expect(catalogueProblems(invitationTexts.en, invitationTexts[language], { mayEqualEnglish: sameAsEnglishIn(language) })).toEqual([]);
  });

  it('keeps its keys apart from the core catalogue', () => {
    for (const key of Object.keys(invitationTexts.en)) expect(key in en, key).toBe(false);
  });
});
