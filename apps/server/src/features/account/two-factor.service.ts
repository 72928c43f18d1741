import { createHash, randomBytes } from 'node:crypto';
import { ACCOUNT_LIMITS, type RecoveryCodes, type SecondFactorChallenge, type TwoFactorSetup } from '@sunward/contracts/account';
import { Code } from '@sunward/contracts/codes';
import type { FastifyBaseLogger } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { ApiError } from '../../lib/envelope.js';
import { verifyPassword } from '../auth/password.js';
import { requireSecret, type SecretThrottle } from '../auth/secret-throttle.js';
import { hashToken, newToken } from '../auth/tokens.js';
import type { AccountRepository } from './account.repository.js';

const ISSUER = 'Sunward';
const PERIOD_SECONDS = 30;

function totpOf(secret: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS });
}

/** Recovery codes read as two groups of five lower-case base32 characters: "k3j9a-7mq2x" (50 bits each). */
export function newRecoveryCode(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Spaces, dashes and case do not matter when a recovery code is typed. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.toLowerCase().replace(/[\s-]/g, '')).digest('base64url');
}

export interface TwoFactorDeps {
  repository: AccountRepository;
  log: FastifyBaseLogger;
  /** Counts wrong passwords given to turn it off or renew codes with sign-in's (135 once locked). */
  throttle: SecretThrottle;
  now?: () => Date;
}

/**
 * Two-factor sign-in with an authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, one step of
 * clock drift either way), one-time recovery codes, and the company rule that staff must use it.
 */
export function createTwoFactorService(deps: TwoFactorDeps) {
  const { repository, log } = deps;
  const now = deps.now ?? (() => new Date());

  async function issueRecoveryCodes(): Promise<{ codes: string[]; hashes: string[] }> {
    const codes = Array.from({ length: ACCOUNT_LIMITS.recoveryCodes }, newRecoveryCode);
    return { codes, hashes: codes.map(hashRecoveryCode) };
  }

  async function requirePassword(userId: number, password: string, ip: string) {
    const secrets = await repository.findSecrets(userId);
    if (!secrets) throw new ApiError(Code.TOKEN_INVALID);
    await requireSecret(
      deps.throttle,
      { kind: 'password', subject: secrets.account, ip },
      () => verifyPassword(password, secrets.passwordHash),
      Code.CONFIRM_PASSWORD_WRONG,
    );
    return secrets;
  }

  return {
    /** Starts enrolment: a fresh secret, kept pending until the first code confirms the app has it. */
    async setup(userId: number): Promise<TwoFactorSetup> {
      const secrets = await repository.findSecrets(userId);
      if (!secrets) throw new ApiError(Code.TOKEN_INVALID);
      if (secrets.totpSecret) throw new ApiError(Code.ALREADY);
      const secret = new Secret({ size: 20 }).base32;
      await repository.setPendingSecret(userId, secret);
      return { secret, uri: totpOf(secret, secrets.account).toString() };
    },

    /** Confirms enrolment with a first code; answers the recovery codes, shown this once. */
    async enable(userId: number, code: string): Promise<RecoveryCodes> {
      const secrets = await repository.findSecrets(userId);
      if (!secrets) throw new ApiError(Code.TOKEN_INVALID);
      if (secrets.totpSecret) throw new ApiError(Code.ALREADY);
      if (!secrets.totpPendingSecret) throw new ApiError(Code.VERIFICATION_CODE_EXPIRED);
      const at = now();
      const delta = totpOf(secrets.totpPendingSecret, secrets.account).validate({ token: code, timestamp: at.getTime(), window: 1 });
      if (delta === null) throw new ApiError(Code.VERIFICATION_CODE_WRONG);
      const step = Math.floor(at.getTime() / 1000 / PERIOD_SECONDS) + delta;
      const { codes, hashes } = await issueRecoveryCodes();
      await repository.enableTotp(userId, secrets.totpPendingSecret, step, hashes, at);
      log.info({ event: 'two_factor', outcome: 'enabled', userId }, 'two-factor sign-in turned on');
      return { recoveryCodes: codes };
    },

    /** Turns it off with the password; not while the user's company requires it (114). */
    async disable(userId: number, password: string, ip: string): Promise<void> {
      const secrets = await requirePassword(userId, password, ip);
      if (secrets.companyRequiresTwoFactor) throw new ApiError(Code.TWO_FACTOR_REQUIRED_BY_COMPANY);
      await repository.disableTotp(userId, now());
      log.info({ event: 'two_factor', outcome: 'disabled', userId }, 'two-factor sign-in turned off');
    },

    /** New recovery codes with the password; the old ones stop working. */
    async regenerateRecoveryCodes(userId: number, password: string, ip: string): Promise<RecoveryCodes> {
      const secrets = await requirePassword(userId, password, ip);
      if (!secrets.totpSecret) throw new ApiError(Code.VALIDATION);
      const { codes, hashes } = await issueRecoveryCodes();
      await repository.replaceRecoveryCodes(userId, hashes);
      return { recoveryCodes: codes };
    },

    /** For the sign-in: a challenge when the user has a second factor, undefined when the password is enough. */
    async challengeFor(userId: number, ip: string): Promise<SecondFactorChallenge | undefined> {
      const secrets = await repository.findSecrets(userId);
      if (!secrets?.totpSecret) return undefined;
      const challenge = newToken();
      const expiresAt = new Date(now().getTime() + ACCOUNT_LIMITS.challengeTtlSeconds * 1000);
      await repository.createChallenge({ tokenHash: hashToken(challenge), userId, ip, expiresAt });
      return { challenge, expiresIn: ACCOUNT_LIMITS.challengeTtlSeconds };
    },

    resolveChallenge(challenge: string) {
      return repository.findChallenge(hashToken(challenge), now());
    },

    consumeChallenge(challenge: string): Promise<boolean> {
      return repository.deleteChallenge(hashToken(challenge));
    },

    /** A current authenticator code (each accepted once), or an unspent recovery code. */
    async verify(userId: number, code: string): Promise<boolean> {
      const secrets = await repository.findSecrets(userId);
      if (!secrets?.totpSecret) return false;
      const entered = code.replace(/\s/g, '');
      if (/^\d{6}$/.test(entered)) {
        const at = now();
        const delta = totpOf(secrets.totpSecret, secrets.account).validate({ token: entered, timestamp: at.getTime(), window: 1 });
        if (delta === null) return false;
        return repository.advanceTotpStep(userId, Math.floor(at.getTime() / 1000 / PERIOD_SECONDS) + delta);
      }
      const spent = await repository.spendRecoveryCode(userId, hashRecoveryCode(entered), now());
      if (spent) log.warn({ event: 'two_factor', outcome: 'recovery_code_used', userId }, 'signed in with a recovery code');
      return spent;
    },

    /**
     * The company rule, for the company settings screen (another engineer's): staff of a company that
     * requires two-factor sign-in and have none are sent to enrol right after they sign in.
     */
    setCompanyRequirement(companyId: number, required: boolean): Promise<void> {
      return repository.setCompanyRequiresTwoFactor(companyId, required);
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
