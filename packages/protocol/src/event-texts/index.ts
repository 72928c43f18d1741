import type { LocalisedText } from '../types.js';
import { BATTERY_EVENT_TEXTS } from './battery.js';
import { INVERTER_EVENT_TEXTS } from './inverter.js';
import { STRING_EVENT_TEXTS } from './string.js';
import { TRANSLATED_LANGUAGES, type TranslatedLanguage } from './types.js';
import { VENDOR_EVENT_TEXTS } from './vendor.js';

/*
 * The built-in event descriptions and solutions in the console's ten languages. The maps write English and
 * Chinese next to each event (as data sheets do); the other eight languages are kept here, keyed by the
 * English text, so a text shared by several maps is translated once. event-texts.test.ts checks that every event
 * text of every built-in map has all eight.
 */

export { TRANSLATED_LANGUAGES, type TranslatedLanguage } from './types.js';

export const EVENT_TEXT_TRANSLATIONS = {
  ...INVERTER_EVENT_TEXTS,
  ...BATTERY_EVENT_TEXTS,
  ...STRING_EVENT_TEXTS,
  ...VENDOR_EVENT_TEXTS,
};

const isTranslated = (language: string): language is TranslatedLanguage => (TRANSLATED_LANGUAGES as readonly string[]).includes(language);

/**
 * An event text in a console language (codes as in @sunward/contracts/languages: en, cn, vi, es, de, cz,
 * po, tr, el, pt); English where a translation is missing.
 */
export function eventTextIn(text: LocalisedText, language: string): string {
  if (language === 'cn') return text.zh;
  if (!isTranslated(language)) return text.en;
  return EVENT_TEXT_TRANSLATIONS[text.en]?.[language] ?? text.en;
}
