import { catalogueProblems } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../locales/en';
import { notificationTexts } from './notification-texts';
import { splitPhones } from './SmsPage';

/** Words that are the same in a language as in English. */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  'notifications.total': ['es', 'pt'],
  'notifications.smsContent': ['de'],
  'notifications.smsColContent': ['es', 'pt'],
  'notifications.smsColPhone': ['tr'],
};

describe('notification texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    const mayEqualEnglish = (key: string) => (SAME_AS_ENGLISH[key] ?? []).includes(language);
    expect(catalogueProblems(notificationTexts.en, notificationTexts[language], { mayEqualEnglish })).toEqual([]);
  });

  it('keeps its keys apart from the core catalogue', () => {
    for (const key of Object.keys(notificationTexts.en)) {
      expect(key).toMatch(/^notifications\.[A-Za-z0-9]+$/);
      expect(key in en, key).toBe(false);
    }
  });
});

describe('phone numbers as typed', () => {
  it('splits on commas, semicolons, spaces and new lines and drops empty parts', () => {
    expect(splitPhones('+4915112345678, +8613800000000\n+33612345678;;  ')).toEqual(['+4915112345678', '+8613800000000', '+33612345678']);
    expect(splitPhones('   ')).toEqual([]);
  });
});
