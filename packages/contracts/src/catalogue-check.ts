/**
 * Compares a translation with the English reference: missing or extra keys, empty values, changed
 * placeholders, and values left in English. Used by the tests of both translation sets.
 */
export function catalogueProblems(
  reference: Readonly<Record<string, string>>,
  candidate: Readonly<Record<string, string>>,
  options: { mayEqualEnglish?: (key: string, value: string) => boolean } = {},
): string[] {
  const problems: string[] = [];
  const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
  for (const [key, english] of Object.entries(reference)) {
    const value = candidate[key];
    if (value === undefined) {
      problems.push(`missing ${key}`);
      continue;
    }
    if (value.trim() === '') problems.push(`empty ${key}`);
    if (placeholders(value).join() !== placeholders(english).join()) problems.push(`placeholders differ in ${key}`);
    const onlyPlaceholders = english.replace(/\{\{\w+\}\}/g, '').replace(/[\s\p{P}]/gu, '') === '';
    if (value === english && !onlyPlaceholders && !options.mayEqualEnglish?.(key, value)) problems.push(`untranslated ${key}: ${value}`);
  }
  for (const key of Object.keys(candidate)) if (!(key in reference)) problems.push(`extra ${key}`);
  return problems;
}

/**
 * Words some languages take over from English as they are (technical abbreviations, column headers):
 * for these, a translation equal to the English text is right, not forgotten.
 */
const SAME_AS_ENGLISH: Readonly<Record<string, readonly string[]>> = {
  SN: ['vi'],
  SOC: ['cn', 'vi', 'es', 'de', 'cz', 'po', 'tr', 'el', 'pt'],
  'SOC (%)': ['vi', 'es', 'de', 'cz', 'po', 'tr', 'el', 'pt'],
  Alias: ['es', 'de', 'cz', 'po', 'pt'],
  Model: ['cz', 'po', 'tr'],
  Status: ['de'],
  Normal: ['es', 'de', 'tr', 'pt'],
  Offline: ['de', 'cz', 'po', 'pt'],
  Gateway: ['de', 'vi', 'pt'],
  Gateways: ['de', 'pt'],
  Firmware: ['vi', 'es', 'de', 'cz', 'po', 'pt'],
};

/** `mayEqualEnglish` for catalogueProblems: the words above, in the languages that use them. */
export function sameAsEnglishIn(language: string): (key: string, value: string) => boolean {
  return (_key, value) => SAME_AS_ENGLISH[value]?.includes(language) ?? false;
}
