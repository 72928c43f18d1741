import { Code, type ResponseCode } from '@sunward/contracts/codes';
import { ApiError } from '../../lib/envelope.js';
import type { SecretThrottleRepository } from './secret-throttle.repository.js';

/**
 * One throttle for every secret the server checks: passwords (sign-in and every "confirm with your
 * password"), verification codes, gateway registration keys (HTTP and MQTT CONNECT). Each attempt counts
 * against the secret's subject (account, code address, gateway SN) and the caller's address; past
 * `slowAfter` failures answers are delayed, at `lockAfter` the key is locked for `lockMinutes`, and the
 * right secret does not open an active lock. Counters live in the database (sign_in_failures), so
 * several server processes agree.
 */
export interface ThrottlePolicy {
  /** Failures after which every further attempt is delayed, growing with each failure. */
  slowAfter: number;
  /** Failures after which the key is locked, even for the right secret. */
  lockAfter: number;
  lockMinutes: number;
  /** Ceiling of the delay, so a slowed answer never looks like a dead server. */
  maxDelayMs: number;
}

export interface FailureRecord {
  failures: number;
  firstFailedAt: Date;
  lockedUntil: Date | null;
}

/** Failures older than this are forgotten, so a user who mistypes now and then is never locked. */
export const FAILURE_WINDOW_MS = 60 * 60 * 1000;

export function isLocked(record: FailureRecord | undefined, now: Date): boolean {
  return !!record?.lockedUntil && record.lockedUntil.getTime() > now.getTime();
}

export function minutesUntilUnlock(record: FailureRecord, now: Date): number {
  const until = record.lockedUntil?.getTime() ?? now.getTime();
  return Math.max(1, Math.ceil((until - now.getTime()) / 60_000));
}

/** How long to hold the answer to an attempt: nothing at first, then doubling from 250 ms. */
export function delayBeforeAnswer(record: FailureRecord | undefined, now: Date, policy: ThrottlePolicy): number {
  if (!record || now.getTime() - record.firstFailedAt.getTime() > FAILURE_WINDOW_MS) return 0;
  const over = record.failures - policy.slowAfter;
  if (over < 0) return 0;
  return Math.min(policy.maxDelayMs, 250 * 2 ** over);
}

/**
 * What is guessed at. `password`: an account's password, wherever it is asked (sign-in, second factor,
 * commands, transfers, password change...), one counter per account. `code`: a verification code sent to
 * an e-mail address or phone. `gateway-key`: a gateway's registration key, per SN, known or not.
 */
export type SecretKind = 'password' | 'code' | 'gateway-key';

export interface SecretAttempt {
  kind: SecretKind;
  /** The account, the code's address, or the gateway SN (compared case-insensitively). */
  subject: string;
  /** The caller's network address. */
  ip: string;
}

/**
 * How many failures an address gets compared with one subject: a person's address is an office or a
 * carrier's NAT (3×); a site's address is shared by all its gateways, which retry on their own (10×).
 */
export const ADDRESS_FACTOR: Record<SecretKind, number> = { password: 3, code: 3, 'gateway-key': 10 };

interface CounterKey {
  key: string;
  policy: ThrottlePolicy;
}

/** The counter keys of an attempt; "account:" and "ip:" are the keys sign-in has always used. */
export function counterKeys(attempt: SecretAttempt, policy: ThrottlePolicy): [CounterKey, CounterKey] {
  const subject = attempt.subject.trim().toLowerCase();
  const factor = ADDRESS_FACTOR[attempt.kind];
  const address = { ...policy, slowAfter: policy.slowAfter * factor, lockAfter: policy.lockAfter * factor };
  switch (attempt.kind) {
    case 'password':
      return [
        { key: `account:${subject}`, policy },
        { key: `ip:${attempt.ip}`, policy: address },
      ];
    case 'code':
      return [
        { key: `code:${subject}`, policy },
        { key: `ip:${attempt.ip}`, policy: address },
      ];
    case 'gateway-key':
      return [
        { key: `gateway:${subject}`, policy },
        { key: `gateway-ip:${attempt.ip}`, policy: address },
      ];
  }
}

export type SecretVerdict =
  | { outcome: 'right' }
  | { outcome: 'wrong' }
  /** Refused without looking at the secret (or this wrong attempt reached the limit): retry at `until`. */
  | { outcome: 'locked'; until: Date; minutes: number };

export interface SecretThrottleDeps {
  repository: SecretThrottleRepository;
  policy: ThrottlePolicy;
  now?: () => Date;
  /** Waits without blocking the event loop (a timer); tests pass one that records the delay. */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createSecretThrottle(deps: SecretThrottleDeps) {
  const { repository, policy } = deps;
  const now = deps.now ?? (() => new Date());
  const sleep = deps.sleep ?? defaultSleep;

  function lockedVerdict(until: Date, at: Date): SecretVerdict {
    return { outcome: 'locked', until, minutes: minutesUntilUnlock({ failures: 0, firstFailedAt: at, lockedUntil: until }, at) };
  }

  return {
    policy,

    /**
     * Checks a secret under the throttle. The subject's attempt is counted before `verify` runs (so a burst
     * of parallel guesses at one account, code or SN cannot all slip in under the limit) and given back when
     * the secret is right; the address counts only wrong secrets, after the check, so many right ones at once
     * from one address (a site's gateways behind one NAT reconnecting after a restart) never lock it. A
     * locked subject or address is refused without calling `verify`. With `forgetOnRight` (the default) the
     * right secret also clears the subject's failures; the address keeps its count.
     */
    async check(attempt: SecretAttempt, verify: () => Promise<boolean>, options: { forgetOnRight?: boolean } = {}): Promise<SecretVerdict> {
      const [subjectKey, addressKey] = counterKeys(attempt, policy);
      const at = now();
      const current = await repository.read([subjectKey.key, addressKey.key]);
      const address = current.get(addressKey.key);
      const lockedUntil = [current.get(subjectKey.key), address]
        .filter((r): r is FailureRecord => isLocked(r, at))
        .map((r) => r.lockedUntil as Date)
        .sort((a, b) => b.getTime() - a.getTime())[0];
      if (lockedUntil) return lockedVerdict(lockedUntil, at);

      const subject = await repository.count(subjectKey.key, at, subjectKey.policy, FAILURE_WINDOW_MS);
      if (!subject) {
        // Locked by a parallel attempt between the read and the count: this one tests nothing.
        const again = await repository.read([subjectKey.key]);
        const until = again.get(subjectKey.key)?.lockedUntil;
        return lockedVerdict(until && until.getTime() > at.getTime() ? until : new Date(at.getTime() + policy.lockMinutes * 60_000), at);
      }
      // The delay grows with the failures before this attempt (parallel ones at the subject included).
      const delay = Math.max(
        delayBeforeAnswer({ ...subject, failures: subject.failures - 1 }, at, subjectKey.policy),
        delayBeforeAnswer(address, at, addressKey.policy),
      );
      if (delay > 0) await sleep(delay);

      let right: boolean;
      try {
        right = await verify();
      } catch (error) {
        await repository.giveBack(subjectKey.key, subjectKey.policy).catch(() => undefined);
        throw error;
      }
      if (right) {
        await ((options.forgetOnRight ?? true) ? repository.clear(subjectKey.key) : repository.giveBack(subjectKey.key, subjectKey.policy));
        return { outcome: 'right' };
      }
      const addressAfter = await repository.count(addressKey.key, at, addressKey.policy, FAILURE_WINDOW_MS);
      const until = [subject, addressAfter ?? (await repository.read([addressKey.key])).get(addressKey.key)]
        .filter((r): r is FailureRecord => isLocked(r, at))
        .map((r) => r.lockedUntil as Date)
        .sort((a, b) => b.getTime() - a.getTime())[0];
      return until ? lockedVerdict(until, at) : { outcome: 'wrong' };
    },

    /** Clears a subject's failures: a password reset, a completed two-factor sign-in. */
    async forget(kind: SecretKind, subject: string): Promise<void> {
      const [key] = counterKeys({ kind, subject, ip: '' }, policy);
      await repository.clear(key.key);
    },

    /** Housekeeping: counters whose window and lock have both passed. */
    purge(): Promise<number> {
      return repository.purge(now(), FAILURE_WINDOW_MS);
    },
  };
}

export type SecretThrottle = ReturnType<typeof createSecretThrottle>;

/**
 * The usual way to ask for a secret in a service: nothing on the right secret, `wrongCode` on a wrong
 * one, and on a lock `lockedCode` (135 "too many wrong attempts", 110 for sign-in) with the minutes to
 * wait in the message and the moment to retry in data.
 */
export async function requireSecret(
  throttle: SecretThrottle,
  attempt: SecretAttempt,
  verify: () => Promise<boolean>,
  wrongCode: ResponseCode,
  lockedCode: ResponseCode = Code.TOO_MANY_ATTEMPTS,
): Promise<void> {
  const verdict = await throttle.check(attempt, verify);
  if (verdict.outcome === 'right') return;
  if (verdict.outcome === 'locked') throw lockedError(verdict, lockedCode);
  throw new ApiError(wrongCode);
}

export function lockedError(verdict: { until: Date; minutes: number }, code: ResponseCode = Code.TOO_MANY_ATTEMPTS): ApiError {
  return new ApiError(code, { minutes: verdict.minutes }, { retryAt: verdict.until.toISOString() });
}
