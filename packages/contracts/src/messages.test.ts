import { describe, expect, it } from 'vitest';
import { catalogueProblems, sameAsEnglishIn } from './catalogue-check.js';
import { Code } from './codes.js';
import { LANGUAGES } from './languages.js';
import { interpolate, isMessageKey, MESSAGES, translate } from './messages.js';
import { PERMISSION_KEYS } from './permissions.js';
import { BUILT_IN_ROLES } from './roles.js';

describe('server messages in ten languages', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, translated, with the same placeholders', (language) => {
    expect(catalogueProblems(MESSAGES.en, MESSAGES[language], { mayEqualEnglish: sameAsEnglishIn(language) })).toEqual([]);
  });

  it('has a message for every response code', () => {
    for (const code of Object.values(Code)) expect(isMessageKey(`code.${code}`), `code.${code}`).toBe(true);
  });

  it('names every permission and built-in role', () => {
    for (const key of PERMISSION_KEYS) expect(isMessageKey(`permission.${key}`), key).toBe(true);
    for (const role of BUILT_IN_ROLES) expect(isMessageKey(`role.${role}`), role).toBe(true);
  });
});

describe('translate', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translate('en', 'code.110', { minutes: 7 })).toBe('Too many failed sign-ins. Try again in 7 minutes.');
    expect(interpolate('{{a}} and {{b}}', { a: 1 })).toBe('1 and {{b}}');
  });
});
