import type { SecondFactorChallenge } from '@sunward/contracts/account';
import type { TokenResponse } from '@sunward/contracts/auth';
import { Code } from '@sunward/contracts/codes';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../lib/envelope.js';
import type { AuthRepository, CredentialRow, IssuedToken } from './auth.repository.js';
import { decoyPasswordHash, verifyPassword } from './password.js';
import { lockedError, type SecretThrottle } from './secret-throttle.js';
import { hashToken, newSessionId, newToken } from './tokens.js';

export interface AuthSettings {
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /**
   * A refresh token retired less than this long ago still exchanges, for a sibling pair of the same session: the
   * console reloaded while its refresh was in flight, or two tabs refreshed at once. Older reuse revokes the session.
   */
  refreshReuseGraceSeconds?: number;
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
  /** The one throttle of every secret check (secret-throttle.ts). */
  throttle: SecretThrottle;
  secondFactor?: SecondFactorPort;
  /** Refuses an account the host does not admit (an OEM domain admits its company's tree only; issue 24). */
  admit?: (host: string | undefined, userId: number) => Promise<void>;
  now?: () => Date;
}

export function createAuthService(deps: AuthDeps) {
  const { repository, settings, log, throttle } = deps;
  const now = deps.now ?? (() => new Date());

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

  /** A second pair for a session whose refresh token was just exchanged (the reuse grace): the session goes on. */
  async function sibling(sessionId: string, userId: number, at: Date): Promise<TokenResponse> {
    const pair = issuePair(at);
    await repository.addSessionTokens(sessionId, pair.tokens);
    log.info({ event: 'refresh_grace', sessionId, userId }, 'refresh token exchanged again within the grace: sibling pair issued');
    return pair.response;
  }

  return {
    /**
     * Password grant, under the secret throttle (per account and per address): a locked account or address
     * answers 110 before the password is looked at, so a correct password never bypasses a lock.
     */
    async signIn(input: {
      account: string;
      password: string;
      ip: string;
      userAgent: string | undefined;
      host?: string | undefined;
    }): Promise<TokenResponse> {
      const account = input.account.trim().toLowerCase();
      let user = undefined as CredentialRow | undefined;
      // With a second factor the password is only the first step: failures stay counted until the code is right.
      const verdict = await throttle.check(
        { kind: 'password', subject: account, ip: input.ip },
        async () => {
          user = await repository.findCredentials(account);
          return verifyPassword(input.password, user?.passwordHash ?? (await decoyPasswordHash()));
        },
        { forgetOnRight: false },
      );
      if (verdict.outcome === 'locked') {
        log.warn({ event: 'sign_in', outcome: 'locked', account, ip: input.ip }, 'sign-in refused: locked');
        throw lockedError(verdict, Code.SIGN_IN_LOCKED);
      }
      if (verdict.outcome === 'wrong' || !user) {
        log.warn({ event: 'sign_in', outcome: 'wrong_credentials', account, ip: input.ip }, 'sign-in failed');
        throw new ApiError(Code.WRONG_CREDENTIALS);
      }
      if (user.disabledAt) {
        log.warn({ event: 'sign_in', outcome: 'disabled', account, ip: input.ip }, 'sign-in refused: account disabled');
        throw new ApiError(Code.ACCOUNT_DISABLED);
      }
      await deps.admit?.(input.host, user.id);
      const challenge = await deps.secondFactor?.challengeFor(user.id, input.ip);
      if (challenge) {
        log.info({ event: 'sign_in', outcome: 'second_factor_required', account, userId: user.id, ip: input.ip }, 'second factor asked');
        throw new ApiError(Code.SECOND_FACTOR_REQUIRED, {}, challenge);
      }
      await throttle.forget('password', account);
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
      const secondFactor = deps.secondFactor;
      const found = secondFactor ? await secondFactor.resolveChallenge(input.challenge) : undefined;
      if (!secondFactor || !found) throw new ApiError(Code.SECOND_FACTOR_EXPIRED);
      const verdict = await throttle.check({ kind: 'password', subject: found.account, ip: input.ip }, () =>
        secondFactor.verify(found.userId, input.code),
      );
      if (verdict.outcome === 'locked') throw lockedError(verdict, Code.SIGN_IN_LOCKED);
      if (verdict.outcome === 'wrong') {
        log.warn({ event: 'sign_in', outcome: 'wrong_second_factor', userId: found.userId, ip: input.ip }, 'second factor wrong');
        throw new ApiError(Code.VERIFICATION_CODE_WRONG);
      }
      if (!(await secondFactor.consumeChallenge(input.challenge))) throw new ApiError(Code.SECOND_FACTOR_EXPIRED);
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
     * Refresh grant with rotation. A retired refresh token presented again after the grace means it was copied:
     * the whole session is revoked (RFC 9700 §4.14.2), so the thief and the owner both sign in again. Within the
     * grace (default 10 s) it exchanges once more for a sibling pair: a reload cutting a refresh off, or two tabs.
     */
    async refresh(refreshToken: string): Promise<TokenResponse> {
      const hash = hashToken(refreshToken);
      const at = now();
      const row = await repository.findRefreshToken(hash);
      if (!row || row.revokedAt || row.expiresAt.getTime() <= at.getTime()) throw new ApiError(Code.REFRESH_INVALID);
      if (row.disabledAt) throw new ApiError(Code.ACCOUNT_DISABLED);
      const graceMs = (settings.refreshReuseGraceSeconds ?? 0) * 1000;
      const withinGrace = (retiredAt: Date) => at.getTime() - retiredAt.getTime() <= graceMs;
      if (row.retiredAt && withinGrace(row.retiredAt)) return sibling(row.sessionId, row.userId, at);
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
      // Retired by a concurrent exchange a moment ago: within the grace as well.
      if (!rotated && graceMs > 0) return sibling(row.sessionId, row.userId, at);
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
