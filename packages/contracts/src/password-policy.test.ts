import { describe, expect, it } from 'vitest';
import { commonPasswordCount, isCommonPassword } from './password-policy.js';
import { accountKind, passwordProblem } from './validators.js';

describe('the shipped common-password list', () => {
  it('holds 10,000 passwords and matches regardless of case', () => {
    expect(commonPasswordCount()).toBe(10_000);
    for (const p of ['123456', 'password', 'Password1', 'QWERTY123', 'iloveyou', 'Dragon123', 'P@ssw0rd'])
      expect(isCommonPassword(p), p).toBe(true);
    for (const p of ['Sunrise7Harbor', 'kx7!mq', 'Moonlight8River']) expect(isCommonPassword(p), p).toBe(false);
  });
});

describe('passwordProblem', () => {
  it('applies the strict reading: 8-20 ASCII letters and digits with a digit and a capital', () => {
    expect(passwordProblem('Sunrise7Harbor', 'strict')).toBeNull();
    expect(passwordProblem('sunrise7harbor', 'strict')).toBe('rule');
    expect(passwordProblem('SunriseHarbor', 'strict')).toBe('rule');
    expect(passwordProblem('Sun7Har', 'strict')).toBe('rule');
    expect(passwordProblem('Sunrise7Harbor12345678', 'strict')).toBe('rule');
    expect(passwordProblem('Sunrise7Harbor!', 'strict')).toBe('rule');
    expect(passwordProblem('Sunrise7港Harbor', 'strict')).toBe('rule');
    expect(passwordProblem('Sunrise 7Harbor', 'strict')).toBe('spaces');
  });

  it('applies the lenient reading: 6-16 characters without spaces, case-sensitive', () => {
    expect(passwordProblem('kx7!mq', 'lenient')).toBeNull();
    expect(passwordProblem('kx7!m', 'lenient')).toBe('rule');
    expect(passwordProblem('a'.repeat(17), 'lenient')).toBe('rule');
    expect(passwordProblem('kx7 !mq', 'lenient')).toBe('spaces');
  });

  it('refuses a common password only when given the list', () => {
    expect(passwordProblem('Password1', 'strict')).toBeNull();
    expect(passwordProblem('Password1', 'strict', isCommonPassword)).toBe('common');
  });
});

describe('accountKind', () => {
  it('takes an e-mail or a mainland mobile number, nothing else', () => {
    expect(accountKind('someone@example.com')).toBe('email');
    expect(accountKind('13800138000')).toBe('phone');
    expect(accountKind('+4915112345678')).toBeNull();
    expect(accountKind('admin')).toBeNull();
  });
});
