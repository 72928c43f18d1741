import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { ACCOUNT_LIMITS } from '@sunward/contracts/account';

/** Six random digits from the CSPRNG, leading zeros kept. */
export function newVerificationCode(): string {
  return String(randomInt(0, 10 ** ACCOUNT_LIMITS.codeLength)).padStart(ACCOUNT_LIMITS.codeLength, '0');
}

/**
 * Codes are stored as SHA-256 over purpose, address and code: a leaked table row is no usable code for
 * another address or purpose. Six digits can be tried offline from a hash, so the real protection is
 * online: five wrong entries void the code, and it expires in ten minutes.
 */
export function hashVerificationCode(purpose: string, address: string, code: string): string {
  return createHash('sha256').update(`${purpose}\n${address}\n${code}`).digest('base64url');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export type CodeVerdict = 'ok' | 'wrong' | 'expired';

/**
 * Judges an entered code against the latest unused one: none, expired, or used up by wrong entries is
 * "expired" (code 6, ask for a new one); a mismatch is "wrong" (code 5).
 */
export function judgeCode(
  active: { codeHash: string; attempts: number; expiresAt: Date } | undefined,
  enteredHash: string,
  now: Date,
): CodeVerdict {
  if (!active) return 'expired';
  if (active.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (active.attempts >= ACCOUNT_LIMITS.codeMaxAttempts) return 'expired';
  return sameHash(active.codeHash, enteredHash) ? 'ok' : 'wrong';
}

/** Address as stored and compared: e-mail lower-case; phone as typed (digits only by the validator). */
export function normalizeAddress(address: string): string {
  return address.trim().toLowerCase();
}
