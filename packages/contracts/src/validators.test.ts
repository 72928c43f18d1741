import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  aliasProblem,
  FORBIDDEN_SPECIAL_CHARACTERS,
  hasForbiddenSpecialCharacters,
  hasSpace,
  integerRangeMessageParams,
  isAscii,
  isBinaryString,
  isDeviceAlias,
  isEmail,
  isEventCode,
  isGatewayPassword,
  isHexString,
  isInIntegerRange,
  isLetters,
  isLowerCase,
  isMainlandMobile,
  isNonNegativeInteger,
  isPasswordType1,
  isPasswordType2,
  isPercentage,
  isPhone,
  isPlainText,
  isPositiveIntegerNoLeadingZero,
  isPositiveNumber,
  isRegistrationCode,
  isRegistrationPassword,
  isSerialNumber,
  isTimeZoneName,
  isTotalPrice,
  isUnitPrice,
  isUnitWeight,
  isUpperCase,
  isUrl,
  isValidPasswordInput,
  isWifiPassword,
  REGISTRATION_PASSWORD_RULES,
  utf8ByteLength,
} from './validators.js';

/** One Han character: 3 UTF-8 bytes, one code point. */
const HAN = '中';

describe('isEmail', () => {
  it.each([
    'a@b.co',
    'user@example.com',
    'first.last@x.com',
    'first_last-name@x.com',
    'a.b.c@sub.example.co.uk',
    '1user@my-host.info',
    'USER@EXAMPLE.COM',
  ])('accepts %s', (v) => expect(isEmail(v)).toBe(true));

  it.each([
    '',
    'plain',
    '@example.com',
    '_user@example.com',
    '-user@example.com',
    '.user@example.com',
    'first..last@x.com',
    'first.@x.com',
    'user+tag@example.com',
    'user@example',
    'user@example.c',
    'user@example.museum',
    'user@example.c0m',
    'user@@example.com',
    'us er@example.com',
    'user@exa mple.com',
    'user@.example.com',
    ' user@example.com',
  ])('rejects %j', (v) => expect(isEmail(v)).toBe(false));
});

describe('isUrl', () => {
  it.each([
    'http://example.com',
    'https://example.com/path?q=1#top',
    'ftp://files.example.com/pub/fw.bin',
    'HTTPS://EXAMPLE.COM',
    'http://localhost:3000',
    'http://192.168.1.10/status',
  ])('accepts %s', (v) => expect(isUrl(v)).toBe(true));

  it.each([
    '',
    'example.com',
    'www.example.com',
    'http://',
    'http:///x',
    'http:example.com',
    'http://exa mple.com',
    'mailto:user@example.com',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'ws://example.com',
    ' http://example.com',
  ])('rejects %j', (v) => expect(isUrl(v)).toBe(false));
});

describe('letter case', () => {
  const validators = { isLowerCase, isUpperCase, isLetters };
  it.each([
    ['isLowerCase', 'abc', true],
    ['isLowerCase', 'a', true],
    ['isLowerCase', 'aBc', false],
    ['isLowerCase', 'abc1', false],
    ['isLowerCase', 'é', false],
    ['isLowerCase', '', false],
    ['isUpperCase', 'ABC', true],
    ['isUpperCase', 'Z', true],
    ['isUpperCase', 'AbC', false],
    ['isUpperCase', 'AB C', false],
    ['isUpperCase', '', false],
    ['isLetters', 'AbcXyz', true],
    ['isLetters', 'q', true],
    ['isLetters', 'abc1', false],
    ['isLetters', 'ab-c', false],
    ['isLetters', HAN, false],
    ['isLetters', '', false],
  ] as const)('%s(%j) is %s', (name, v, expected) => expect(validators[name](v)).toBe(expected));
});

describe('isPhone', () => {
  it.each(['1', '13800138000', '+86 13800138000', '(010) 6552 9988', '1234567890123456'])('accepts %j', (v) =>
    expect(isPhone(v)).toBe(true),
  );

  it.each(['', '12345678901234567', '1380013800a', `138${HAN}`, 'tel', 'Ж123'])('rejects %j', (v) => expect(isPhone(v)).toBe(false));
});

describe('isMainlandMobile', () => {
  it.each(['13800138000', '19912345678', '10000000000'])('accepts %s', (v) => expect(isMainlandMobile(v)).toBe(true));

  it.each(['', '1380013800', '138001380000', '23800138000', '+8613800138000', '138 0013 8000', '1380013800a'])('rejects %j', (v) =>
    expect(isMainlandMobile(v)).toBe(false),
  );
});

describe('isPasswordType1', () => {
  it.each(['abcd', 'a'.repeat(20), 'Ab-1', 'PASS-word-2024'])('accepts %j', (v) => expect(isPasswordType1(v)).toBe(true));

  it.each(['', 'abc', 'a'.repeat(21), 'pass_word', 'pass word', 'pass!', `${HAN}abcd`])('rejects %j', (v) =>
    expect(isPasswordType1(v)).toBe(false),
  );
});

describe('isPasswordType2', () => {
  it.each(['abcdefgh', 'x'.repeat(24), 'P@ss w0rd!', 'пароль12'])('accepts %j', (v) => expect(isPasswordType2(v)).toBe(true));

  it.each(['', 'abcdefg', 'x'.repeat(25), `abcdefg${HAN}`, `${HAN.repeat(8)}`])('rejects %j', (v) =>
    expect(isPasswordType2(v)).toBe(false),
  );
});

describe('isRegistrationPassword', () => {
  it('documents both readings', () => {
    expect(REGISTRATION_PASSWORD_RULES.lenient).toMatchObject({ minLength: 6, maxLength: 16 });
    expect(REGISTRATION_PASSWORD_RULES.strict).toMatchObject({ minLength: 8, maxLength: 20 });
  });

  it.each([
    ['abcdef', true],
    ['a'.repeat(16), true],
    ['AbC!@#', true],
    ['abcde', false],
    ['a'.repeat(17), false],
    ['abc def', false],
    ['abcdef\t', false],
    ['', false],
  ])('lenient: %j is %s', (v, expected) => expect(isRegistrationPassword(v, 'lenient')).toBe(expected));

  it.each([
    ['Abcdefg1', true],
    ['ABCDEFG1', true],
    [`A1${'a'.repeat(18)}`, true],
    ['Abcdef1', false],
    [`A1${'a'.repeat(19)}`, false],
    ['abcdefg1', false],
    ['Abcdefgh', false],
    ['12345678', false],
    ['Abcd efg1', false],
    ['Abcdefg1!', false],
    [`Abcdefg1${HAN}`, false],
    ['', false],
  ])('strict: %j is %s', (v, expected) => expect(isRegistrationPassword(v, 'strict')).toBe(expected));

  it('defaults to the strict reading', () => {
    expect(isRegistrationPassword('abcdef')).toBe(false);
    expect(isRegistrationPassword('Abcdefg1')).toBe(true);
  });
});

describe('isSerialNumber and isRegistrationCode', () => {
  it.each([
    ['AB', true],
    ['a'.repeat(22), true],
    ['SN_2024_0001', true],
    [`${HAN}${HAN}`, true],
    [`GW${HAN}01`, true],
    ['A', false],
    ['a'.repeat(23), false],
    [HAN.repeat(23), false],
    ['SN-0001', false],
    ['SN 0001', false],
    ['SN#0001', false],
    ['', false],
  ])('%j is %s', (v, expected) => {
    expect(isSerialNumber(v)).toBe(expected);
    expect(isRegistrationCode(v)).toBe(expected);
  });
});

describe('isPercentage', () => {
  it.each(['0', '0.5', '5', '99.99', '100', '100.0', '100.00', '12.34', 0, 42, 100, 12.5])('accepts %j', (v) =>
    expect(isPercentage(v)).toBe(true),
  );

  it.each(['', '100.01', '101', '12.345', '-1', '05', '.5', '5.', '1e2', ' 5', 'abc', 100.01, -0.5, 12.345, Number.NaN])(
    'rejects %j',
    (v) => expect(isPercentage(v)).toBe(false),
  );
});

describe('isUnitPrice', () => {
  it.each(['0', '0.01', '9999', '12.3', '12.34', 0, 12.34])('accepts %j', (v) => expect(isUnitPrice(v)).toBe(true));

  it.each(['', '-1', '12.345', '012', '1.', '.5', '1,000', -1, 12.345, Number.POSITIVE_INFINITY])('rejects %j', (v) =>
    expect(isUnitPrice(v)).toBe(false),
  );
});

describe('isTotalPrice', () => {
  it.each(['0', '1.5', '1.12345', '123456789.00001', 1.12345])('accepts %j', (v) => expect(isTotalPrice(v)).toBe(true));

  it.each(['', '1.123456', '-1.5', '01.5', '1.', 1.123456, -2])('rejects %j', (v) => expect(isTotalPrice(v)).toBe(false));
});

describe('isUnitWeight', () => {
  it.each(['0.00', '1.50', '12.34', '1000.05'])('accepts %j', (v) => expect(isUnitWeight(v)).toBe(true));

  it.each(['', '1', '1.5', '1.505', '01.50', '-1.50', '.50'])('rejects %j', (v) => expect(isUnitWeight(v)).toBe(false));
});

describe('isPositiveNumber', () => {
  it.each(['1', '0.1', '0.0001', '123.456789', 1, 0.5])('accepts %j', (v) => expect(isPositiveNumber(v)).toBe(true));

  it.each(['', '0', '0.00', '-1', '01', '1e3', 'abc', 0, -0.5, Number.NaN])('rejects %j', (v) => expect(isPositiveNumber(v)).toBe(false));
});

describe('isNonNegativeInteger', () => {
  it.each(['0', '7', '12345', 0, 42])('accepts %j', (v) => expect(isNonNegativeInteger(v)).toBe(true));

  it.each(['', '-1', '1.5', '1.0', '007', ' 1', -1, 1.5])('rejects %j', (v) => expect(isNonNegativeInteger(v)).toBe(false));
});

describe('isBinaryString', () => {
  it.each(['0', '1', '0101', '0000'])('accepts %j', (v) => expect(isBinaryString(v)).toBe(true));

  it.each(['', '012', '10 1', 'b101', '0b101'])('rejects %j', (v) => expect(isBinaryString(v)).toBe(false));
});

describe('isPositiveIntegerNoLeadingZero', () => {
  it.each(['1', '9', '10', '123456', 1, 100])('accepts %j', (v) => expect(isPositiveIntegerNoLeadingZero(v)).toBe(true));

  it.each(['', '0', '01', '-1', '1.5', '+1', 0, -3, 2.5])('rejects %j', (v) => expect(isPositiveIntegerNoLeadingZero(v)).toBe(false));
});

describe('isHexString', () => {
  it.each(['0', 'f', 'A', 'DEADbeef', '0123456789abcdefABCDEF'])('accepts %j', (v) => expect(isHexString(v)).toBe(true));

  it.each(['', 'g', '0x1F', '1F ', 'AB-CD'])('rejects %j', (v) => expect(isHexString(v)).toBe(false));
});

describe('isAscii', () => {
  it.each(['abc', 'Hello, World! ~', '\t\n', '\x00\x7f'])('accepts %j', (v) => expect(isAscii(v)).toBe(true));

  it.each(['', 'café', `abc${HAN}`, '\x80', '😀'])('rejects %j', (v) => expect(isAscii(v)).toBe(false));
});

describe('isInIntegerRange', () => {
  it.each([
    ['1', 1, 10],
    ['10', 1, 10],
    ['5', 1, 10],
    ['0', 0, 0],
    ['-5', -10, 10],
    [7, 1, 10],
  ] as const)('accepts %j in [%d, %d]', (v, min, max) => expect(isInIntegerRange(v, min, max)).toBe(true));

  it.each([
    ['0', 1, 10],
    ['11', 1, 10],
    ['5.5', 1, 10],
    ['05', 1, 10],
    ['-0', -1, 1],
    ['', 1, 10],
    ['abc', 1, 10],
    ['5', 10, 1],
    ['99999999999999999999', 0, Number.MAX_VALUE],
    [5.5, 1, 10],
    [Number.NaN, 1, 10],
  ] as const)('rejects %j in [%d, %d]', (v, min, max) => expect(isInIntegerRange(v, min, max)).toBe(false));

  it('gives the message parameters for "input {{min}} ~ {{max}}"', () => {
    expect(integerRangeMessageParams(1, 100)).toEqual({ min: 1, max: 100 });
  });
});

describe('isEventCode', () => {
  it.each(['0', '1001', '007'])('accepts %j', (v) => expect(isEventCode(v)).toBe(true));

  it.each(['', 'E1001', '10-01', '1 0', '-1'])('rejects %j', (v) => expect(isEventCode(v)).toBe(false));
});

describe('isWifiPassword', () => {
  it.each(['Abcdefg1', `Ab1${'x'.repeat(21)}`, 'P@ssw0rd!'])('accepts %j', (v) => expect(isWifiPassword(v)).toBe(true));

  it.each(['', 'Abcdef1', `Ab1${'x'.repeat(22)}`, 'abcdefg1', 'ABCDEFG1', 'Abcdefgh', 'Abcd efg1', `Abcdefg1${HAN}`])('rejects %j', (v) =>
    expect(isWifiPassword(v)).toBe(false),
  );
});

describe('isGatewayPassword', () => {
  it.each(['123456', 'abcdefghijkl', 'Gw-2024!'])('accepts %j', (v) => expect(isGatewayPassword(v)).toBe(true));

  it.each(['', '12345', 'abcdefghijklm', '123 456', `12345${HAN}`])('rejects %j', (v) => expect(isGatewayPassword(v)).toBe(false));
});

describe('isDeviceAlias and utf8ByteLength', () => {
  it.each([
    ['a', 1],
    ['a'.repeat(32), 32],
    [HAN.repeat(10), 30],
    [`${HAN.repeat(10)}ab`, 32],
    ['Inverter-01 roof_east.2', 23],
  ])('accepts %j (%d bytes)', (v, bytes) => {
    expect(utf8ByteLength(v)).toBe(bytes);
    expect(isDeviceAlias(v)).toBe(true);
  });

  it.each([
    ['a'.repeat(33), 33],
    [HAN.repeat(11), 33],
    [`${HAN.repeat(10)}abc`, 33],
    ['', 0],
    ['inverter#1', 10],
    ['逆变器（东）', 18],
  ])('rejects %j (%d bytes)', (v, bytes) => {
    expect(utf8ByteLength(v)).toBe(bytes);
    expect(isDeviceAlias(v)).toBe(false);
  });

  it.each([
    ['é', 2],
    ['😀', 4],
    ['\uD800', 3],
    ['\uDC00a', 4],
  ])('counts %j as %d bytes', (v, bytes) => expect(utf8ByteLength(v)).toBe(bytes));
});

describe('global key rule', () => {
  it.each([...FORBIDDEN_SPECIAL_CHARACTERS])('forbids %j', (ch) => {
    expect(hasForbiddenSpecialCharacters(`plant${ch}name`)).toBe(true);
    expect(isPlainText(`plant${ch}name`)).toBe(false);
  });

  it.each(['', 'Sunny Hill-2 plant_A.v1', '阳光电站 1号', 'Rue de la Paix 12'])('allows %j', (v) => {
    expect(hasForbiddenSpecialCharacters(v)).toBe(false);
    expect(isPlainText(v)).toBe(true);
  });

  it.each(['abc', 'Abcdefg1!', ''])('password input %j has no whitespace', (v) => {
    expect(hasSpace(v)).toBe(false);
    expect(isValidPasswordInput(v)).toBe(true);
  });

  it.each(['a b', ' abc', 'abc ', 'a\tb', 'a\nb', 'a\u3000b', 'a\u00a0b'])('password input %j has whitespace', (v) => {
    expect(hasSpace(v)).toBe(true);
    expect(isValidPasswordInput(v)).toBe(false);
  });
});

describe('properties', () => {
  it('isPlainText is false whenever a forbidden character is present', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...FORBIDDEN_SPECIAL_CHARACTERS), fc.string(), (before, ch, after) => {
        expect(isPlainText(`${before}${ch}${after}`)).toBe(false);
      }),
    );
  });

  it('utf8ByteLength matches Buffer.byteLength for any code points', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(utf8ByteLength(s)).toBe(Buffer.byteLength(s, 'utf8'));
      }),
    );
  });

  it('utf8ByteLength matches Buffer.byteLength for any UTF-16 units, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff })), (units) => {
        const s = String.fromCharCode(...units);
        expect(utf8ByteLength(s)).toBe(Buffer.byteLength(s, 'utf8'));
      }),
    );
  });
});

describe('aliasProblem', () => {
  it('accepts the empty alias (it clears the name) and names within 32 bytes', () => {
    expect(aliasProblem('')).toBeNull();
    expect(aliasProblem('Roof east 1')).toBeNull();
    expect(aliasProblem('屋顶东侧网关一号机')).toBeNull(); // 9 Han characters: 27 bytes
  });
  it('says tooLong beyond 32 bytes of UTF-8, counting a Han character as 3', () => {
    expect(aliasProblem('a'.repeat(33))).toBe('tooLong');
    expect(aliasProblem('网'.repeat(11))).toBe('tooLong'); // 33 bytes, 11 characters
  });
  it('says specialCharacters for a forbidden symbol, ASCII or full-width', () => {
    expect(aliasProblem('gw#1')).toBe('specialCharacters');
    expect(aliasProblem('网关（一）')).toBe('specialCharacters');
  });
  it('agrees with isDeviceAlias on every non-empty text', () => {
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 40 }), (v) => (aliasProblem(v) === null) === isDeviceAlias(v)));
  });
});

describe('isTimeZoneName', () => {
  it('accepts every IANA name the runtime can format, not only the ones ICU enumerates', () => {
    for (const zone of [
      'Asia/Kolkata',
      'Asia/Calcutta',
      'America/Argentina/Buenos_Aires',
      'Etc/GMT+5',
      'Europe/Kyiv',
      'UTC',
      'Europe/Berlin',
    ])
      expect(isTimeZoneName(zone), zone).toBe(true);
    expect(Intl.supportedValuesOf('timeZone')).not.toContain('Asia/Kolkata');
  });
  it('refuses offsets, unknown names and text that is not a name', () => {
    for (const zone of [
      '',
      '+05:30',
      'GMT+5',
      'Asia/Nowhere',
      'Mars/Olympus',
      'Asia/Kolkata ',
      '../etc/passwd',
      'Asia//Kolkata',
      'a'.repeat(65),
    ])
      expect(isTimeZoneName(zone), zone).toBe(false);
  });
});
