import { catalogueProblems } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../../locales/en';
import { deviceTexts } from '../texts/devices';
import { gatewayTexts } from '../texts/gateways';

/** Words that are the same in a language as in English (abbreviations, units, loanwords). */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  'gateways.colSn': ['*'],
  'gateways.colIccid': ['*'],
  'gateways.dbm': ['*'],
  'gateways.countOnline': ['de', 'cz', 'po', 'pt'],
  'gateways.countOffline': ['de', 'cz', 'po'],
  'gateways.countTotal': ['es', 'pt'],
  'gateways.total': ['es', 'pt'],
  'gateways.host': ['es', 'de', 'po'],
  'gateways.port': ['de', 'cz', 'po'],
  'gateways.colProblem': ['de', 'po'],
  'gateways.colSignal': ['de'],
  'gateways.colVersions': ['es', 'de', 'cz', 'pt'],
};

describe('gateway texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    const mayEqualEnglish = (key: string) => {
      const allowed = SAME_AS_ENGLISH[key] ?? [];
      return allowed.includes('*') || allowed.includes(language);
    };
    expect(catalogueProblems(gatewayTexts.en, gatewayTexts[language], { mayEqualEnglish })).toEqual([]);
  });

  it('keeps its keys apart from the core catalogue and the other device texts', () => {
    for (const key of Object.keys(gatewayTexts.en)) {
      expect(key).toMatch(/^gateways\.[A-Za-z0-9]+$/);
      expect(key in en || key in deviceTexts.en, key).toBe(false);
    }
  });
});
