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

type Catalogue = Record<string, string>;
/** In the build every language but English is its own chunk (apps/web/split-texts.ts): a loader instead of the texts. */
type LanguageTexts = Catalogue | (() => Promise<{ default: Catalogue }>);

const loading = new Set<Promise<void>>();

/**
 * Adds a feature's texts for the current language when the feature's code loads, so the sign-in page
 * (which loads the core catalogue only) does not carry the texts of every screen. In the build the
 * current language's texts arrive in their own chunk: `textsReady` waits for them.
 */
export function registerTexts(texts: Record<Language, Catalogue>): void {
  const language = isLanguage(i18next.language) ? i18next.language : 'en';
  if (!i18next.isInitialized) return;
  const entry = (texts as Record<Language, LanguageTexts>)[language];
  if (typeof entry !== 'function') {
    i18next.addResourceBundle(language, 'translation', entry, true, false);
    return;
  }
  const load: Promise<void> = entry()
    .then((module) => {
      i18next.addResourceBundle(language, 'translation', module.default, true, false);
    })
    .finally(() => loading.delete(load));
  loading.add(load);
}

/** Resolves once every registered feature's texts are in i18next (pages render after it: no untranslated keys). */
export async function textsReady(): Promise<void> {
  while (loading.size > 0) await Promise.allSettled([...loading]);
}
