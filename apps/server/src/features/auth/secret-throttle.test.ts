import { describe, expect, it } from 'vitest';
import {
  counterKeys,
  delayBeforeAnswer,
  type FailureRecord,
  isLocked,
  minutesUntilUnlock,
  type ThrottlePolicy,
} from './secret-throttle.js';

const policy: ThrottlePolicy = { slowAfter: 3, lockAfter: 5, lockMinutes: 15, maxDelayMs: 5000 };
const t0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

function failTimes(n: number, start = t0): FailureRecord {
  return { failures: n, firstFailedAt: start, lockedUntil: n >= policy.lockAfter ? new Date(start.getTime() + 4000 + 15 * 60_000) : null };
}

describe('secret throttle policy', () => {
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

  it('reports the minutes left of a lock rounded up', () => {
    const record = failTimes(5);
    expect(isLocked(record, at(5000))).toBe(true);
    expect(minutesUntilUnlock(record, at(5000))).toBe(15);
    expect(isLocked(record, at(4000 + 15 * 60_000 + 1))).toBe(false);
  });

  it('counts a password per account, a code per address, a key per SN, each also per caller address', () => {
    expect(counterKeys({ kind: 'password', subject: ' Ann@X.io ', ip: '10.0.0.1' }, policy).map((k) => k.key)).toEqual([
      'account:ann@x.io',
      'ip:10.0.0.1',
    ]);
    expect(counterKeys({ kind: 'code', subject: 'ann@x.io', ip: '10.0.0.1' }, policy).map((k) => k.key)).toEqual([
      'code:ann@x.io',
      'ip:10.0.0.1',
    ]);
    const [sn, site] = counterKeys({ kind: 'gateway-key', subject: 'GW00AB', ip: '10.0.0.1' }, policy);
    expect([sn.key, site.key]).toEqual(['gateway:gw00ab', 'gateway-ip:10.0.0.1']);
    // People share an address 3×, a site's gateways 10×.
    expect(counterKeys({ kind: 'password', subject: 'a', ip: 'x' }, policy)[1].policy.lockAfter).toBe(15);
    expect(site.policy.lockAfter).toBe(50);
  });
});
