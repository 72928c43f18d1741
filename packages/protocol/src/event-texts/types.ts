/** The console's languages beyond the maps' own English and Chinese (codes as in @sunward/contracts/languages). */
export const TRANSLATED_LANGUAGES = ['vi', 'es', 'de', 'cz', 'po', 'tr', 'el', 'pt'] as const;
export type TranslatedLanguage = (typeof TRANSLATED_LANGUAGES)[number];

/** An event text's English (as written in the maps) -> its translation in each further language. */
export type EventTranslations = Readonly<Record<string, Readonly<Record<TranslatedLanguage, string>>>>;
