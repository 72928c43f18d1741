import { catalogueProblems, sameAsEnglishIn } from '@sunward/contracts/catalogue-check';
import { LANGUAGES, type Language } from '@sunward/contracts/languages';
import { describe, expect, it } from 'vitest';
import { sharedTexts } from '../components/shared-texts';
import { DEVICE_TEXTS } from '../features/devices/texts';
import { PLANT_TEXTS } from '../lib/texts/plants';
import { cn } from './cn';
import { cz } from './cz';
import { de } from './de';
import { el } from './el';
import { en, type UiCatalogue } from './en';
import { es } from './es';
import { po } from './po';
import { pt } from './pt';
import { tr } from './tr';
import { vi } from './vi';

const CATALOGUES: Record<Language, UiCatalogue> = { en, cn, vi, es, de, cz, po, tr, el, pt };

const FEATURE_TEXTS = [...PLANT_TEXTS, ...DEVICE_TEXTS, sharedTexts];

describe('console texts in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    expect(catalogueProblems(en, CATALOGUES[language], { mayEqualEnglish: (key) => key === 'app.name' })).toEqual([]);
  });

  it('uses explicit feature.area.phrase keys', () => {
    for (const key of Object.keys(en)) expect(key).toMatch(/^[a-z]+\.[A-Za-z0-9]+(_one|_other)?$/);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every feature text translated, with the same placeholders', (language) => {
    for (const texts of FEATURE_TEXTS)
      expect(catalogueProblems(texts.en, texts[language], { mayEqualEnglish: sameAsEnglishIn(language) })).toEqual([]);
  });

  it('keeps feature keys apart from the core catalogue and from each other', () => {
    const seen = new Set(Object.keys(en));
    for (const texts of FEATURE_TEXTS)
      for (const key of Object.keys(texts.en)) {
        // feature.phrase, or feature.group.member for texts picked by a value (devices.kind.weather_station).
        expect(key).toMatch(/^[a-z][A-Za-z]*\.[A-Za-z0-9]+(\.[A-Za-z0-9_]+)?(_one|_other)?$/);
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
      }
  });
});
