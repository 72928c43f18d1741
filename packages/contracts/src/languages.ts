/** The console's ten languages, by the codes the spec uses (cn for Chinese, cz for Czech, po for Polish). */
export const LANGUAGES = ['en', 'cn', 'vi', 'es', 'de', 'cz', 'po', 'tr', 'el', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Names shown in the language picker, each in its own language. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  cn: '中文',
  vi: 'Tiếng Việt',
  es: 'Español',
  de: 'Deutsch',
  cz: 'Čeština',
  po: 'Polski',
  tr: 'Türkçe',
  el: 'Ελληνικά',
  pt: 'Português',
};

/** BCP 47 tags, for Intl formatting and the html lang attribute. */
export const LANGUAGE_TAGS: Record<Language, string> = {
  en: 'en-GB',
  cn: 'zh-CN',
  vi: 'vi-VN',
  es: 'es-ES',
  de: 'de-DE',
  cz: 'cs-CZ',
  po: 'pl-PL',
  tr: 'tr-TR',
  el: 'el-GR',
  pt: 'pt-PT',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Reads a language from the spec's `lan` parameter (which says zh for cn), a console code,
 * or a BCP 47 tag such as cs-CZ; unknown values give undefined so the caller can fall back.
 */
export function parseLanguage(value: string | undefined | null): Language | undefined {
  if (!value) return undefined;
  const lower = value.trim().toLowerCase();
  if (isLanguage(lower)) return lower;
  const primary = lower.split(/[-_]/)[0] ?? '';
  const aliases: Record<string, Language> = {
    zh: 'cn',
    cs: 'cz',
    pl: 'po',
    en: 'en',
    vi: 'vi',
    es: 'es',
    de: 'de',
    tr: 'tr',
    el: 'el',
    pt: 'pt',
  };
  return aliases[primary];
}

/** Picks the first supported language of an Accept-Language header, by its q order. */
export function languageFromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag ?? '', q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((entry) => entry.tag && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const language = parseLanguage(tag);
    if (language) return language;
  }
  return undefined;
}

/** The spec sends the permission and user calls with lan=zh for Chinese. */
export function toLanParam(language: Language): string {
  return language === 'cn' ? 'zh' : language;
}
