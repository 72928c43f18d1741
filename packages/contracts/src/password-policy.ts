import { COMMON_PASSWORDS_TEXT } from './common-passwords.gen.js';

/**
 * The common-password list shipped with the product (10,000 entries, see
 * scripts/generate-common-passwords.mjs). Kept apart from validators.ts so pages that only need the
 * rules do not load ~90 KB of words; the server always applies it.
 */
let list: ReadonlySet<string> | undefined;

/** Case-insensitive, so "Password1" is as common as "password1". */
export function isCommonPassword(value: string): boolean {
  list ??= new Set(COMMON_PASSWORDS_TEXT.split('\n'));
  return list.has(value.toLowerCase());
}

export function commonPasswordCount(): number {
  list ??= new Set(COMMON_PASSWORDS_TEXT.split('\n'));
  return list.size;
}
