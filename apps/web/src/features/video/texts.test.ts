import { catalogueProblems, sameAsEnglishIn } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { videoTexts } from './video-texts';

describe('the video texts', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('are all translated into %s, with the same placeholders', (language) => {
    expect(catalogueProblems(videoTexts.en, videoTexts[language], { mayEqualEnglish: sameAsEnglishIn(language) })).toEqual([]);
  });
});
