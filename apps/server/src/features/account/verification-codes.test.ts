import { describe, expect, it } from 'vitest';
import { hashRecoveryCode, newRecoveryCode } from './two-factor.service.js';
import { hashVerificationCode, judgeCode, newVerificationCode } from './verification-codes.js';

describe('verification codes', () => {
  it('are six digits, leading zeros kept', () => {
    for (let i = 0; i < 200; i++) expect(newVerificationCode()).toMatch(/^\d{6}$/);
  });

  it('hash per purpose and address, so a code is no good elsewhere', () => {
    const base = hashVerificationCode('register', 'a@example.com', '123456');
    expect(hashVerificationCode('reset', 'a@example.com', '123456')).not.toBe(base);
    expect(hashVerificationCode('register', 'b@example.com', '123456')).not.toBe(base);
    expect(base).not.toContain('123456');
  });

  it('are judged wrong (5), or expired (6) when missing, past their time or used up by wrong entries', () => {
    const now = new Date('2025-06-01T10:00:00Z');
    const codeHash = hashVerificationCode('register', 'a@example.com', '123456');
    const active = { codeHash, attempts: 0, expiresAt: new Date(now.getTime() + 60_000) };
    expect(judgeCode(active, codeHash, now)).toBe('ok');
    expect(judgeCode(active, hashVerificationCode('register', 'a@example.com', '654321'), now)).toBe('wrong');
    expect(judgeCode(undefined, codeHash, now)).toBe('expired');
    expect(judgeCode({ ...active, expiresAt: now }, codeHash, now)).toBe('expired');
    expect(judgeCode({ ...active, attempts: 5 }, codeHash, now)).toBe('expired');
  });
});

describe('recovery codes', () => {
  it('read as two groups of five and match whatever the case, spaces or dashes', () => {
    const code = newRecoveryCode();
    expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(hashRecoveryCode(code.toUpperCase().replace('-', ' '))).toBe(hashRecoveryCode(code));
  });
});
