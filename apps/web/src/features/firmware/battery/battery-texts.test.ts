import { catalogueProblems } from '@sunward/contracts/catalogue-check';
import { LANGUAGES } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { en } from '../../../locales/en';
import { firmwareTexts } from '../firmware-texts';
import { batteryTexts } from './battery-texts';

/** Words that are the same in a language as in English. */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = {
  'batteryFirmware.colModel': ['cz', 'po', 'tr'],
  'batteryFirmware.fieldModel': ['cz', 'po', 'tr'],
};

describe('battery firmware texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    const mayEqualEnglish = (key: string) => SAME_AS_ENGLISH[key]?.includes(language) ?? false;
    expect(catalogueProblems(batteryTexts.en, batteryTexts[language], { mayEqualEnglish })).toEqual([]);
  });

  it('keeps its keys apart from the core catalogue and the main library’s texts', () => {
    for (const key of Object.keys(batteryTexts.en)) {
      expect(key).toMatch(/^batteryFirmware\.[A-Za-z0-9]+$/);
      expect(key in en, key).toBe(false);
      expect(key in firmwareTexts.en, key).toBe(false);
    }
  });
});
