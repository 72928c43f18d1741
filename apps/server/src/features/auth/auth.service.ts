import type { SecondFactorChallenge } from '@sunward/contracts/account';
import type { TokenResponse } from '@sunward/contracts/auth';
import { Code } from '@sunward/contracts/codes';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../lib/envelope.js';
import type { AuthRepository, IssuedToken } from './auth.repository.js';
import { decoyPasswordHash, verifyPassword } from './password.js';
import { delayBeforeAnswer, isLocked, minutesUntilUnlock, recordFailure, type ThrottlePolicy } from './sign-in-throttle.js';
import { hashToken, newSessionId, newToken } from './tokens.js';

export interface AuthSettings {
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  throttle: ThrottlePolicy;
}

/** Two-factor sign-in (features/account/two-factor.service.ts), seen from the sign-in. */
export interface SecondFactorPort {
  /** A challenge when the user has a second factor; undefined when the password is enough. */
  challengeFor(userId: number, ip: string): Promise<SecondFactorChallenge | undefined>;
  resolveChallenge(challenge: string): Promise<{ userId: number; account: string } | undefined>;
  /** False when another request used the challenge first. */
  consumeChallenge(challenge: string): Promise<boolean>;
  verify(userId: number, code: string): Promise<boolean>;
}

export interface AuthDeps {
  repository: AuthRepository;
  settings: AuthSettings;
  log: FastifyBaseLogger;
  secondFactor?: SecondFactorPort;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// An address is shared by an office or a mobile carrier's NAT: it gets three times the account's allowance.
function addressPolicy(policy: ThrottlePolicy): ThrottlePolicy {
  return { ...policy, slowAfter: policy.slowAfter * 3, lockAfter: policy.lockAfter * 3 };
}

export function createAuthService(deps: AuthDeps) {
  const { repository, settings, log } = deps;
  const now = deps.now ?? (() => new Date());
  const sleep = deps.sleep ?? defaultSleep;

  function issuePair(at: Date): { response: TokenResponse; tokens: IssuedToken[] } {
    const access = newToken();
    const refresh = newToken();
    return {
      response: { access_token: access, refresh_token: refresh, expires_in: settings.accessTokenTtlSeconds, token_type: 'bearer' },
      tokens: [
        { hash: hashToken(access), kind: 'access', expiresAt: new Date(at.getTime() + settings.accessTokenTtlSeconds * 1000) },
        { hash: hashToken(refresh), kind: 'refresh', expiresAt: new Date(at.getTime() + settings.refreshTokenTtlSeconds * 1000) },
      ],
    };
  }

  return {
    /** Password grant: checks lock-out first, so a correct password never bypasses a lock. */
    async signIn(input: { account: string; password: string; ip: string; userAgent: string | undefined }): Promise<TokenResponse> {
      const account = input.account.trim().toLowerCase();
      const accountKey = `account:${account}`;
      const addressKey = `ip:${input.ip}`;
      const at = now();
      const [accountFailures, addressFailures] = await Promise.all([
        repository.readFailures(accountKey),
        repository.readFailures(addressKey),
      ]);
      for (const record of [accountFailures, addressFailures]) {
        if (record && isLocked(record, at)) {
          log.warn({ event: 'sign_in', outcome: 'locked', account, ip: input.ip }, 'sign-in refused: locked');
          throw new ApiError(Code.SIGN_IN_LOCKED, { minutes: minutesUntilUnlock(record, at) });
        }
      }
      const delay = Math.max(
        delayBeforeAnswer(accountFailures, at, settings.throttle),
        delayBeforeAnswer(addressFailures, at, addressPolicy(settings.throttle)),
      );
      if (delay > 0) await sleep(delay);

      const user = await repository.findCredentials(account);
      const valid = await verifyPassword(input.password, user?.passwordHash ?? (await decoyPasswordHash()));
      if (!user || !valid) {
        const failedAt = now();
        const nextAccount = recordFailure(accountFailures, failedAt, settings.throttle);
        const nextAddress = recordFailure(addressFailures, failedAt, addressPolicy(settings.throttle));
        await Promise.all([repository.writeFailures(accountKey, nextAccount), repository.writeFailures(addressKey, nextAddress)]);
        log.warn(
          { event: 'sign_in', outcome: 'wrong_credentials', account, ip: input.ip, failures: nextAccount.failures },
          'sign-in failed',
        );
        const locked = [nextAccount, nextAddress].find((r) => isLocked(r, failedAt));
        if (locked) throw new ApiError(Code.SIGN_IN_LOCKED, { minutes: minutesUntilUnlock(locked, failedAt) });
        throw new ApiError(Code.WRONG_CREDENTIALS);
      }
      if (user.disabledAt) {
        log.warn({ event: 'sign_in', outcome: 'disabled', account, ip: input.ip }, 'sign-in refused: account disabled');
        throw new ApiError(Code.ACCOUNT_DISABLED);
      }
      // With a second factor the password is only the first step: failures stay counted until the code is right.
      const challenge = await deps.secondFactor?.challengeFor(user.id, input.ip);
      if (challenge) {
        log.info({ event: 'sign_in', outcome: 'second_factor_required', account, userId: user.id, ip: input.ip }, 'second factor asked');
        throw new ApiError(Code.SECOND_FACTOR_REQUIRED, {}, challenge);
      }
      await repository.clearFailures(accountKey);
      const sessionId = newSessionId();
      const pair = issuePair(now());
      await repository.createSession({ sessionId, userId: user.id, ip: input.ip, userAgent: input.userAgent, tokens: pair.tokens });
      log.info({ event: 'sign_in', outcome: 'success', account, userId: user.id, ip: input.ip, sessionId }, 'signed in');
      return pair.response;
    },

    /**
     * Second step of a two-factor sign-in: the challenge from code 112 and an authenticator or recovery
     * code. Wrong codes count towards the same per-account and per-address lock as wrong passwords.
     */
    async completeSecondFactor(input: {
      challenge: string;
      code: string;
      ip: string;
      userAgent: string | undefined;
    }): Promise<TokenResponse> {
      const found = deps.secondFactor ? await deps.secondFactor.resolveChallenge(input.challenge) : undefined;
      if (!deps.secondFactor || !found) throw new ApiError(Code.SECOND_FACTOR_EXPIRED);
      const accountKey = `account:${found.account}`;
      const addressKey = `ip:${input.ip}`;
      const at = now();
      const [accountFailures, addressFailures] = await Promise.all([
        repository.readFailures(accountKey),
        repository.readFailures(addressKey),
      ]);
      for (const record of [accountFailures, addressFailures]) {
        if (record && isLocked(record, at)) throw new ApiError(Code.SIGN_IN_LOCKED, { minutes: minutesUntilUnlock(record, at) });
      }
      const delay = Math.max(
        delayBeforeAnswer(accountFailures, at, settings.throttle),
        delayBeforeAnswer(addressFailures, at, addressPolicy(settings.throttle)),
      );
      if (delay > 0) await sleep(delay);
      if (!(await deps.secondFactor.verify(found.userId, input.code))) {
        const failedAt = now();
        const nextAccount = recordFailure(accountFailures, failedAt, settings.throttle);
        const nextAddress = recordFailure(addressFailures, failedAt, addressPolicy(settings.throttle));
        await Promise.all([repository.writeFailures(accountKey, nextAccount), repository.writeFailures(addressKey, nextAddress)]);
        log.warn({ event: 'sign_in', outcome: 'wrong_second_factor', userId: found.userId, ip: input.ip }, 'second factor wrong');
        const locked = [nextAccount, nextAddress].find((r) => isLocked(r, failedAt));
        if (locked) throw new ApiError(Code.SIGN_IN_LOCKED, { minutes: minutesUntilUnlock(locked, failedAt) });
        throw new ApiError(Code.VERIFICATION_CODE_WRONG);
      }
      if (!(await deps.secondFactor.consumeChallenge(input.challenge))) throw new ApiError(Code.SECOND_FACTOR_EXPIRED);
      await repository.clearFailures(accountKey);
      const sessionId = newSessionId();
      const pair = issuePair(now());
      await repository.createSession({ sessionId, userId: found.userId, ip: input.ip, userAgent: input.userAgent, tokens: pair.tokens });
      log.info(
        { event: 'sign_in', outcome: 'success', method: 'second_factor', userId: found.userId, ip: input.ip, sessionId },
        'signed in',
      );
      return pair.response;
    },

    /**
     * Refresh grant with rotation. A retired refresh token presented again means it was copied:
     * the whole session is revoked (RFC 9700 §4.14.2), so the thief and the owner both sign in again.
     */
    async refresh(refreshToken: string): Promise<TokenResponse> {
      const hash = hashToken(refreshToken);
      const at = now();
      const row = await repository.findRefreshToken(hash);
      if (!row || row.revokedAt || row.expiresAt.getTime() <= at.getTime()) throw new ApiError(Code.REFRESH_INVALID);
      if (row.disabledAt) throw new ApiError(Code.ACCOUNT_DISABLED);
      if (row.retiredAt) {
        await repository.revokeSession(row.sessionId, 'refresh_token_reuse', at);
        log.warn(
          { event: 'refresh_reuse', sessionId: row.sessionId, userId: row.userId },
          'retired refresh token presented: session revoked',
        );
        throw new ApiError(Code.REFRESH_INVALID);
      }
      const pair = issuePair(at);
      const rotated = await repository.rotateRefreshToken(hash, row.sessionId, at, pair.tokens);
      if (!rotated) {
        await repository.revokeSession(row.sessionId, 'refresh_token_reuse', at);
        log.warn({ event: 'refresh_reuse', sessionId: row.sessionId, userId: row.userId }, 'concurrent refresh: session revoked');
        throw new ApiError(Code.REFRESH_INVALID);
      }
      return pair.response;
    },

    /** A session for a user another authority verified (third-party sign-in): the same tokens as the password grant. */
    async startSession(input: { userId: number; ip: string; userAgent: string | undefined; method: string }): Promise<TokenResponse> {
      // The provider stands in for the password only: an account with a second factor is asked for it too.
      const challenge = await deps.secondFactor?.challengeFor(input.userId, input.ip);
      if (challenge) {
        log.info(
          { event: 'sign_in', outcome: 'second_factor_required', method: input.method, userId: input.userId, ip: input.ip },
          'second factor asked',
        );
        throw new ApiError(Code.SECOND_FACTOR_REQUIRED, {}, challenge);
      }
      const sessionId = newSessionId();
      const pair = issuePair(now());
      await repository.createSession({ sessionId, userId: input.userId, ip: input.ip, userAgent: input.userAgent, tokens: pair.tokens });
      log.info({ event: 'sign_in', outcome: 'success', method: input.method, userId: input.userId, ip: input.ip, sessionId }, 'signed in');
      return pair.response;
    },

    /**
     * Sign-out: ends the session of any token given (access or refresh), so a client whose access
     * token has just expired can still end its session with the refresh token (RFC 7009).
     */
    async signOut(tokens: readonly string[]): Promise<void> {
      for (const token of tokens) {
        const sessionId = await repository.findSessionOfToken(hashToken(token));
        if (!sessionId) continue;
        await repository.revokeSession(sessionId, 'sign_out', now());
        log.info({ event: 'sign_out', sessionId }, 'signed out');
      }
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
