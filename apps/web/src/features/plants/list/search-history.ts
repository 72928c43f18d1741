import { PLANT_LIMITS } from '@sunward/contracts/plants';

/**
 * Remembered plant-name searches (spec: last 10, newest first). Kept per account so people sharing a
 * browser do not see each other's searches.
 */
export function searchHistoryKey(userId: number | undefined): string {
  return `plantSearchHistory:${userId ?? 'anonymous'}`;
}

/** Adds a search at the front; the same term typed again (any letter case) moves up instead of repeating. */
export function addToHistory(history: readonly string[], term: string, max: number = PLANT_LIMITS.searchHistoryMax): string[] {
  const value = term.trim();
  if (!value) return [...history];
  const lower = value.toLocaleLowerCase();
  return [value, ...history.filter((h) => h.toLocaleLowerCase() !== lower)].slice(0, max);
}

/** Reads what local storage holds, dropping anything that is not a list of strings. */
export function parseHistory(raw: string | null, max: number = PLANT_LIMITS.searchHistoryMax): string[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').slice(0, max);
  } catch {
    return [];
  }
}

/** History entries matching what is typed so far (all of them while the box is empty). */
export function matchingHistory(history: readonly string[], typed: string): string[] {
  const needle = typed.trim().toLocaleLowerCase();
  return needle ? history.filter((h) => h.toLocaleLowerCase().includes(needle)) : [...history];
}
