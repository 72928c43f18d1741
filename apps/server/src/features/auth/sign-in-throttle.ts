/**
 * When to slow and when to refuse sign-ins, decided from a failure counter. Pure, so the policy is
 * tested without a server; the repository stores the counters per account and per address.
 */
export interface ThrottlePolicy {
  /** Failures after which every further attempt is delayed, growing with each failure. */
  slowAfter: number;
  /** Failures after which the key is locked, even for the right password. */
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

/** The counter after one more failure, with a lock when it reaches the policy's limit. */
export function recordFailure(record: FailureRecord | undefined, now: Date, policy: ThrottlePolicy): FailureRecord {
  const fresh =
    !record ||
    now.getTime() - record.firstFailedAt.getTime() > FAILURE_WINDOW_MS ||
    (record.lockedUntil !== null && !isLocked(record, now));
  const failures = fresh ? 1 : record.failures + 1;
  const firstFailedAt = fresh ? now : record.firstFailedAt;
  const lockedUntil = failures >= policy.lockAfter ? new Date(now.getTime() + policy.lockMinutes * 60_000) : null;
  return { failures, firstFailedAt, lockedUntil };
}

/** How long to hold the answer to an attempt: nothing at first, then doubling from 250 ms. */
export function delayBeforeAnswer(record: FailureRecord | undefined, now: Date, policy: ThrottlePolicy): number {
  if (!record || now.getTime() - record.firstFailedAt.getTime() > FAILURE_WINDOW_MS) return 0;
  const over = record.failures - policy.slowAfter;
  if (over < 0) return 0;
  return Math.min(policy.maxDelayMs, 250 * 2 ** over);
}
