import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_TAGS, type Language } from '@sunward/contracts/languages';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { UiCatalogue } from '../locales/en';
import { brandTexts } from './brand';
import { StorageKey } from './storage';

// One file per language, loaded on demand so the sign-in page carries only the language it shows.
const loaders: Record<Language, () => Promise<UiCatalogue>> = {
  en: () => import('../locales/en').then((m) => m.en),
  cn: () => import('../locales/cn').then((m) => m.cn),
  vi: () => import('../locales/vi').then((m) => m.vi),
  es: () => import('../locales/es').then((m) => m.es),
  de: () => import('../locales/de').then((m) => m.de),
  cz: () => import('../locales/cz').then((m) => m.cz),
  po: () => import('../locales/po').then((m) => m.po),
  tr: () => import('../locales/tr').then((m) => m.tr),
  el: () => import('../locales/el').then((m) => m.el),
  pt: () => import('../locales/pt').then((m) => m.pt),
};

/** Spec 01 §1: a stored choice wins; otherwise English, unless the browser's language is Chinese. */
export function initialLanguage(stored: string | null, browserLanguages: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  return browserLanguages[0]?.toLowerCase().startsWith('zh') ? 'cn' : DEFAULT_LANGUAGE;
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

export async function initI18n(): Promise<Language> {
  const language = initialLanguage(
    localStorage.getItem(StorageKey.lang) ?? localStorage.getItem(StorageKey.language),
    navigator.languages?.length ? navigator.languages : [navigator.language],
  );
  // On an OEM's domain the product's name is the OEM's app name (lib/brand.ts).
  const resources = { ...(await loaders[language]()), ...brandTexts() };
  await i18next.use(initReactI18next).init({
    lng: language,
    resources: { [language]: { translation: resources } },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    // Feature texts of the current language arrive in their own chunk (lib/feature-texts.ts): a component that
    // rendered before its texts (a dialog loaded on demand) renders again when they are added.
    react: { bindI18nStore: 'added' },
  });
  document.documentElement.lang = LANGUAGE_TAGS[language];
  return language;
}

/** Spec 01 §1: changing language stores it and reloads the page. */
export function changeLanguage(language: Language): void {
  localStorage.setItem(StorageKey.lang, language);
  localStorage.setItem(StorageKey.language, language);
  window.location.reload();
}
