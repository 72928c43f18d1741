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
