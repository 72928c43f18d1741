/**
 * Client validators (spec 01 §5, §9; spec 02 §5 "Accounts" and "Devices"). Pure predicates shared by the
 * console forms and the server, so both sides accept exactly the same input.
 *
 * Conventions, applied throughout so callers need not guess:
 * - Every `is<Format>` predicate rejects the empty string: "required" is a separate check, and an optional
 *   field simply skips validation when empty. Absence checks (`isPlainText`, `isValidPasswordInput`) accept it.
 * - Input is validated as given: no trimming, so a stray leading or trailing space fails instead of being
 *   silently stored.
 * - Lengths count Unicode code points (`u` flag), so an emoji is one character, not two UTF-16 units.
 * - Numbers use their canonical decimal spelling: no sign, no leading zeros ("007"), no exponent ("1e3"),
 *   no bare dot (".5", "5."). A number argument is checked as JavaScript prints it (`String(n)`).
 */

/** What a numeric field may hand over: the raw input text, or a number from a numeric control. */
export type NumericInput = string | number;

/** Canonical non-negative integer part, shared by the decimal rules below. */
const UINT = '(?:0|[1-9]\\d*)';

function numericText(value: NumericInput): string | null {
  if (typeof value === 'number') {
    // NaN and Infinity print as words; rejecting them here keeps the regexes about digits only.
    return Number.isFinite(value) ? String(value) : null;
  }
  return value;
}

function matchesNumeric(pattern: RegExp, value: NumericInput): boolean {
  const text = numericText(value);
  return text !== null && pattern.test(text);
}

// ---------------------------------------------------------------------------------------------------------
// Identity and contact
// ---------------------------------------------------------------------------------------------------------

/**
 * Local part: an alphanumeric, then word characters or hyphens, with single dots between runs (first.last).
 * Domain: letter/digit/hyphen labels joined by dots, ending in a 2–4 letter suffix as the spec requires
 * (so `.museum` is rejected, and `+` tags too: the spec's character set has no plus).
 */
const EMAIL = /^[A-Za-z0-9][\w-]*(?:\.[\w-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,4}$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** Scheme and a non-empty authority are checked by pattern first: `new URL` alone accepts "http:x" and "http:///x". */
const URL_SHAPE = /^(?:https?|ftp):\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;

export function isUrl(value: string): boolean {
  if (!URL_SHAPE.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/** Spec: "no Chinese characters or letters"; any-script letters (`\p{L}`, which includes Han) are refused. */
export function isPhone(value: string): boolean {
  return /^[^\p{L}]{1,16}$/u.test(value);
}

export function isMainlandMobile(value: string): boolean {
  return /^1\d{10}$/.test(value);
}

// ---------------------------------------------------------------------------------------------------------
// Letter case
// ---------------------------------------------------------------------------------------------------------

export function isLowerCase(value: string): boolean {
  return /^[a-z]+$/.test(value);
}

export function isUpperCase(value: string): boolean {
  return /^[A-Z]+$/.test(value);
}

export function isLetters(value: string): boolean {
  return /^[A-Za-z]+$/.test(value);
}

// ---------------------------------------------------------------------------------------------------------
// Passwords
// ---------------------------------------------------------------------------------------------------------

export function isPasswordType1(value: string): boolean {
  return /^[A-Za-z0-9-]{4,20}$/.test(value);
}

/**
 * Only the spec's type-2 rule; a password field also applies `isValidPasswordInput` (no whitespace).
 * "Chinese" is the Han script, which covers every CJK ideograph block, not only U+4E00–U+9FA5.
 */
export function isPasswordType2(value: string): boolean {
  return /^[^\p{Script=Han}]{8,24}$/u.test(value);
}

/**
 * The spec gives two readings of the registration password (spec 01 §5, spec 02 §5); both are kept so the
 * choice is one argument, not a fork. Strict reads "no special symbols" as letters and digits only.
 */
export const REGISTRATION_PASSWORD_RULES = {
  lenient: { minLength: 6, maxLength: 16, allowed: 'any character except whitespace', requires: [] },
  strict: {
    minLength: 8,
    maxLength: 20,
    allowed: 'ASCII letters and digits',
    requires: ['digit', 'letter', 'capital'],
  },
} as const;

export type RegistrationPasswordRule = keyof typeof REGISTRATION_PASSWORD_RULES;

export function isRegistrationPassword(value: string, rule: RegistrationPasswordRule = 'strict'): boolean {
  if (rule === 'lenient') {
    // Case-sensitivity needs no check: the value is compared as typed.
    return /^\S{6,16}$/u.test(value);
  }
  // A capital is also a letter, so "≥1 letter" is implied by "≥1 capital".
  return /^(?=.*\d)(?=.*[A-Z])[A-Za-z0-9]{8,20}$/.test(value);
}

// Accounts (issue 7) ---------------------------------------------------------------------------------------

/** Why a new password is refused, or null: spaces, the rule of the chosen reading, or a common password. */
export type PasswordProblem = 'spaces' | 'rule' | 'common';

/**
 * The one check of a new password (registration, reset, change), run by the forms and by the server.
 * `isCommon` is the shipped common-password list (`password-policy.ts`); forms may leave it out to
 * keep the list off the page, since the server applies it anyway.
 */
export function passwordProblem(
  value: string,
  rule: RegistrationPasswordRule,
  isCommon?: (value: string) => boolean,
): PasswordProblem | null {
  if (hasSpace(value)) return 'spaces';
  if (!isRegistrationPassword(value, rule)) return 'rule';
  if (isCommon?.(value)) return 'common';
  return null;
}

/** An account a person registers with: an e-mail address, or a mainland China mobile number (spec 02 §5). */
export function accountKind(value: string): 'email' | 'phone' | null {
  if (isEmail(value)) return 'email';
  if (isMainlandMobile(value)) return 'phone';
  return null;
}

/**
 * Wi-Fi (connection) password: 8–24 with upper, lower and digit. Restricted to printable ASCII without the
 * space, which is what a WPA passphrase can carry once the password-field no-space rule is applied.
 */
export function isWifiPassword(value: string): boolean {
  return /^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)[\x21-\x7E]{8,24}$/.test(value);
}

/** Gateway or server password: 6–12. Printable ASCII without the space, since the device firmware stores bytes. */
export function isGatewayPassword(value: string): boolean {
  return /^[\x21-\x7E]{6,12}$/.test(value);
}

// ---------------------------------------------------------------------------------------------------------
// Device identifiers
// ---------------------------------------------------------------------------------------------------------

/** `\w` stays ASCII under the `u` flag (without `i`), so this is ASCII word characters plus Han. */
const SERIAL = /^[\w\p{Script=Han}]{2,22}$/u;

export function isSerialNumber(value: string): boolean {
  return SERIAL.test(value);
}

/** Same rule as the serial number (spec 01 §5); a separate name so call sites say what they check. */
export function isRegistrationCode(value: string): boolean {
  return SERIAL.test(value);
}

export function isEventCode(value: string): boolean {
  return /^\d+$/.test(value);
}

/** Device name or alias limit is in bytes (spec 02 §5): the device stores UTF-8, where a Han character is 3. */
const DEVICE_ALIAS_MAX_BYTES = 32;

export function isDeviceAlias(value: string): boolean {
  return value.length > 0 && utf8ByteLength(value) <= DEVICE_ALIAS_MAX_BYTES && isPlainText(value);
}

export type AliasProblem = 'tooLong' | 'specialCharacters';

/**
 * Why an alias (device or gateway name) is refused, or null when it is fine: at most 32 bytes of UTF-8
 * (a Han character counts 3) and no special characters (spec 02 §5). The empty alias is fine: it clears
 * the name. Forms show the precise reason; the server refuses with the same rule.
 */
export function aliasProblem(value: string): AliasProblem | null {
  if (utf8ByteLength(value) > DEVICE_ALIAS_MAX_BYTES) return 'tooLong';
  if (!isPlainText(value)) return 'specialCharacters';
  return null;
}

/**
 * Bytes `value` takes as UTF-8, computed without Buffer or TextEncoder so it runs the same in the browser.
 * A lone surrogate counts 3, as it is encoded as U+FFFD, matching Buffer.byteLength.
 */
export function utf8ByteLength(value: string): number {
  let bytes = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    } else bytes += 3;
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------------------------------------

const PERCENTAGE = /^(?:100(?:\.0{1,2})?|(?:[1-9]?\d)(?:\.\d{1,2})?)$/;
const UNIT_PRICE = new RegExp(`^${UINT}(?:\\.\\d{1,2})?$`);
const TOTAL_PRICE = new RegExp(`^${UINT}(?:\\.\\d{1,5})?$`);
const UNIT_WEIGHT = new RegExp(`^${UINT}\\.\\d{2}$`);
const UNSIGNED_DECIMAL = new RegExp(`^${UINT}(?:\\.\\d+)?$`);
const NON_NEGATIVE_INTEGER = new RegExp(`^${UINT}$`);
const SIGNED_INTEGER = /^(?:0|-?[1-9]\d*)$/;

/** 0 to 100 inclusive, up to 2 decimals. */
export function isPercentage(value: NumericInput): boolean {
  return matchesNumeric(PERCENTAGE, value);
}

/** Non-negative, up to 2 decimals. */
export function isUnitPrice(value: NumericInput): boolean {
  return matchesNumeric(UNIT_PRICE, value);
}

/** Non-negative (a price), up to 5 decimals. */
export function isTotalPrice(value: NumericInput): boolean {
  return matchesNumeric(TOTAL_PRICE, value);
}

/** Exactly 2 decimals. Text only: a number carries no trailing zeros, so 1.50 could never pass. */
export function isUnitWeight(value: string): boolean {
  return UNIT_WEIGHT.test(value);
}

/** Greater than zero, any number of decimals ("0.00" is not positive). */
export function isPositiveNumber(value: NumericInput): boolean {
  const text = numericText(value);
  return text !== null && UNSIGNED_DECIMAL.test(text) && Number(text) > 0;
}

export function isNonNegativeInteger(value: NumericInput): boolean {
  return matchesNumeric(NON_NEGATIVE_INTEGER, value);
}

export function isPositiveIntegerNoLeadingZero(value: NumericInput): boolean {
  return matchesNumeric(/^[1-9]\d*$/, value);
}

/**
 * An integer within [min, max], both inclusive. Beyond the safe-integer range a comparison is no longer
 * exact, so such values are refused rather than judged approximately.
 */
export function isInIntegerRange(value: NumericInput, min: number, max: number): boolean {
  const text = numericText(value);
  if (text === null || !SIGNED_INTEGER.test(text)) return false;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min && n <= max;
}

/** Interpolation values for the range message "input {{min}} ~ {{max}}" (spec 01 §5). */
export function integerRangeMessageParams(min: number, max: number): { min: number; max: number } {
  return { min, max };
}

// ---------------------------------------------------------------------------------------------------------
// Character sets
// ---------------------------------------------------------------------------------------------------------

export function isBinaryString(value: string): boolean {
  return /^[01]+$/.test(value);
}

/** Bare hex digits, no "0x" prefix: the Modbus tool asks for a count of hex digits. */
export function isHexString(value: string): boolean {
  return /^[0-9A-Fa-f]+$/.test(value);
}

export function isAscii(value: string): boolean {
  return /^\p{ASCII}+$/u.test(value);
}

// ---------------------------------------------------------------------------------------------------------
// Global key rule (spec 01 §5): forbidden symbols in text inputs; textareas are exempt, so callers apply it
// to single-line inputs only. Hyphen, underscore, dot and space stay allowed: plant names and addresses use them.
// ---------------------------------------------------------------------------------------------------------

/** ASCII symbols followed by their full-width and Chinese-punctuation counterparts. */
export const FORBIDDEN_SPECIAL_CHARACTERS = '`~!@#$%^&*()+=<>?:"{}|,/;\'\\[]·！￥…（）—【】、；：‘’“”，。《》？';

const FORBIDDEN_SET: ReadonlySet<string> = new Set(FORBIDDEN_SPECIAL_CHARACTERS);

export function hasForbiddenSpecialCharacters(text: string): boolean {
  for (const ch of text) {
    if (FORBIDDEN_SET.has(ch)) return true;
  }
  return false;
}

/** True when no forbidden symbol is present; the empty string is plain. */
export function isPlainText(text: string): boolean {
  return !hasForbiddenSpecialCharacters(text);
}

/** Any whitespace, including the full-width space an IME produces and the no-break space. */
export function hasSpace(text: string): boolean {
  return /\s/u.test(text);
}

/** A password field rejects any whitespace (spec 01 §5); length and composition are the rule validators' job. */
export function isValidPasswordInput(text: string): boolean {
  return !hasSpace(text);
}

// ---------------------------------------------------------------------------------------------------------
// Time zones
// ---------------------------------------------------------------------------------------------------------

/** IANA spelling: Area/Location (up to three parts: America/Argentina/Buenos_Aires), Etc/GMT+5, UTC. */
const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;

/**
 * A time-zone name this runtime can compute with. Whether it works is asked of the runtime itself
 * (`Intl.DateTimeFormat` accepts it), not of an enumeration: `Intl.supportedValuesOf('timeZone')` lists
 * ICU's spellings (Asia/Calcutta), not every IANA name (Asia/Kolkata, Etc/GMT+5). Offsets ("+05:00") are
 * not names. The server also requires the database to know the name (it computes local days in SQL).
 */
export function isTimeZoneName(value: string): boolean {
  if (value.length > 64 || !TIME_ZONE_NAME.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
