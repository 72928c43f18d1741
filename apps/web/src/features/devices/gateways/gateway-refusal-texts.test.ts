import { catalogueProblems } from '@sunward/contracts/catalogue-check';
import { GATEWAY_KEY_PATTERN, REPLY_REFUSAL_REASONS, REPORT_REFUSAL_REASONS } from '@sunward/contracts/gateway-protocol';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../../locales/en';
import { gatewayRefusalTexts } from '../texts/gateway-refusals';

/** Words that are the same in a language as in English. */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {};

describe('gateway refusal texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    const mayEqualEnglish = (key: string) => (SAME_AS_ENGLISH[key] ?? []).includes(language);
    expect(catalogueProblems(gatewayRefusalTexts.en, gatewayRefusalTexts[language], { mayEqualEnglish })).toEqual([]);
  });

  it('names every reason the protocol can give, and keeps apart from the core catalogue', () => {
    for (const reason of [...REPORT_REFUSAL_REASONS, ...REPLY_REFUSAL_REASONS, 'login_refused', 'login_locked'])
      expect(`gatewayRefusals.reason.${reason}` in gatewayRefusalTexts.en, reason).toBe(true);
    for (const key of Object.keys(gatewayRefusalTexts.en)) expect(key in en, key).toBe(false);
    expect('0123456789abcdef').toMatch(GATEWAY_KEY_PATTERN);
  });
});
