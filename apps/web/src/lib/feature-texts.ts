import { isLanguage, type Language } from '@sunward/contracts/languages';
import i18next from 'i18next';

/**
 * A feature's console texts in all ten languages, in one file the feature owns. English defines the
 * keys; every other language must have the same keys (a missing one fails `npm run check`).
 * `registerTexts` adds them to i18next when the feature loads; locales.test.ts checks their translations.
 */
export function defineTexts<const E extends Record<string, string>>(
  texts: { en: E } & Record<Exclude<Language, 'en'>, Record<keyof E, string>>,
): { en: E } & Record<Exclude<Language, 'en'>, Record<keyof E, string>> {
  return texts;
}

/**
 * Adds a feature's texts for the current language when the feature's code loads, so the sign-in page
 * (which loads the core catalogue only) does not carry the texts of every screen.
 */
export function registerTexts(texts: Record<Language, Record<string, string>>): void {
  const language = isLanguage(i18next.language) ? i18next.language : 'en';
  if (!i18next.isInitialized) return;
  i18next.addResourceBundle(language, 'translation', texts[language], true, false);
}
