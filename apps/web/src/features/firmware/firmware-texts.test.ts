import { catalogueProblems } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../locales/en';
import { firmwareTexts } from './firmware-texts';

/** Words that are the same in a language as in English (abbreviations, loanwords). */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  'firmware.colMd5': ['*'],
  'firmware.fieldMd5': ['*'],
  'firmware.typeGateway': ['vi', 'de', 'pt'],
  'firmware.modeLocal': ['es', 'pt'],
  'firmware.total': ['es', 'pt'],
  'firmware.colName': ['de'],
  'firmware.colType': ['de', 'cz', 'po'],
  'firmware.fieldType': ['de', 'cz', 'po'],
  'firmware.filterType': ['de', 'cz', 'po'],
};

describe('firmware texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    const mayEqualEnglish = (key: string) => {
      const allowed = SAME_AS_ENGLISH[key] ?? [];
      return allowed.includes('*') || allowed.includes(language);
    };
    expect(catalogueProblems(firmwareTexts.en, firmwareTexts[language], { mayEqualEnglish })).toEqual([]);
  });

  it('keeps its keys apart from the core catalogue', () => {
    for (const key of Object.keys(firmwareTexts.en)) {
      expect(key).toMatch(/^firmware\.[A-Za-z0-9]+$/);
      expect(key in en, key).toBe(false);
    }
  });
});
