import { describe, expect, it } from 'vitest';
import {
  delayBeforeAnswer,
  FAILURE_WINDOW_MS,
  isLocked,
  minutesUntilUnlock,
  recordFailure,
  type ThrottlePolicy,
} from './sign-in-throttle.js';

const policy: ThrottlePolicy = { slowAfter: 3, lockAfter: 5, lockMinutes: 15, maxDelayMs: 5000 };
const t0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

function failTimes(n: number, start = t0) {
  let record: ReturnType<typeof recordFailure> | undefined;
  for (let i = 0; i < n; i++) record = recordFailure(record, new Date(start.getTime() + i * 1000), policy);
  return record;
}

describe('sign-in throttle', () => {
  it('answers at once while failures are below slowAfter', () => {
    expect(delayBeforeAnswer(undefined, t0, policy)).toBe(0);
    expect(delayBeforeAnswer(failTimes(2), at(3000), policy)).toBe(0);
  });

  it('doubles the delay from 250 ms per failure past slowAfter, up to the ceiling', () => {
    expect(delayBeforeAnswer(failTimes(3), at(5000), policy)).toBe(250);
    expect(delayBeforeAnswer(failTimes(4), at(5000), policy)).toBe(500);
    const many = { failures: 40, firstFailedAt: t0, lockedUntil: null };
    expect(delayBeforeAnswer(many, at(1000), policy)).toBe(5000);
  });

  it('locks at lockAfter for lockMinutes, and reports the minutes left rounded up', () => {
    const record = failTimes(5);
    expect(record?.lockedUntil).not.toBeNull();
    expect(isLocked(record, at(5000))).toBe(true);
    expect(minutesUntilUnlock(record!, at(5000))).toBe(15);
    expect(isLocked(record, at(4000 + 15 * 60_000 + 1))).toBe(false);
  });

  it('does not lock one failure short of the limit', () => {
    expect(failTimes(4)?.lockedUntil).toBeNull();
  });

  it('forgets failures older than the window, and starts afresh after a lock expires', () => {
    const old = failTimes(4);
    expect(recordFailure(old, at(FAILURE_WINDOW_MS + 10_000), policy).failures).toBe(1);
    const locked = failTimes(5)!;
    const afterLock = recordFailure(locked, at(16 * 60_000), policy);
    expect(afterLock.failures).toBe(1);
    expect(afterLock.lockedUntil).toBeNull();
  });
});
