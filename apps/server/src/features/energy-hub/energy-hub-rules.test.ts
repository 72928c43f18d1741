import { Code } from '@sunward/contracts/codes';
import { describe, expect, it } from 'vitest';
import { askedOf, atFloor, canMoveEnrollment, eventStateAt, formRefusal, isLive, responseOf, responseRefusal } from './energy-hub-rules.js';

const device = (sn: string) => ({
  sn,
  manufacturer: 'Acme',
  model: 'B10',
  installDate: '2025-01-01',
  storageCapacityKwh: 10,
  chargeCapacityKw: 5,
});
const form = (over: Partial<{ utilityAccountNumber: string; sourceAccountNumber: string; devices: ReturnType<typeof device>[] }>) => ({
  utilityAccountNumber: 'acct_01-x',
  sourceAccountNumber: '0012345',
  devices: [device('BT1')],
  ...over,
});

describe('the enrollment form rules', () => {
  it('takes a utility account of lowercase letters, digits, underscore and dash up to 20', () => {
    expect(formRefusal(form({}))).toBeNull();
    expect(formRefusal(form({ utilityAccountNumber: 'a'.repeat(20) }))).toBeNull();
  });

  it('refuses an upper-case, spaced or 21-character utility account with 4636 on its field', () => {
    for (const bad of ['Acct1', 'acct 1', 'a'.repeat(21), 'acct.1', 'ácct'])
      expect(formRefusal(form({ utilityAccountNumber: bad }))).toEqual({
        code: Code.ENERGY_HUB_UTILITY_ACCOUNT_INVALID,
        field: 'utilityAccountNumber',
      });
  });

  it('refuses a source account that is not digits only with 4637', () => {
    for (const bad of ['12a', '-12', '1 2', '1.5'])
      expect(formRefusal(form({ sourceAccountNumber: bad }))?.code).toBe(Code.ENERGY_HUB_SOURCE_ACCOUNT_INVALID);
  });

  it('refuses a repeated SN (case aside) with 4634 on the second one', () => {
    expect(formRefusal(form({ devices: [device('BT1'), device('BT2'), device('bt1')] }))).toEqual({
      code: Code.ENERGY_HUB_SN_REPEATED,
      field: 'devices.2.sn',
    });
  });
});

describe('the enrollment state machine', () => {
  it('goes pending → accepted or rejected, and to unenrolled from pending or accepted only', () => {
    expect(canMoveEnrollment('pending', 'accepted')).toBe(true);
    expect(canMoveEnrollment('pending', 'rejected')).toBe(true);
    expect(canMoveEnrollment('accepted', 'unenrolled')).toBe(true);
    expect(canMoveEnrollment('pending', 'unenrolled')).toBe(true);
    expect(canMoveEnrollment('accepted', 'rejected')).toBe(false);
    expect(canMoveEnrollment('rejected', 'accepted')).toBe(false);
    expect(canMoveEnrollment('unenrolled', 'accepted')).toBe(false);
    expect(isLive('pending') && isLive('accepted') && !isLive('rejected') && !isLive('unenrolled')).toBe(true);
  });
});

describe('events', () => {
  const start = new Date('2026-07-01T15:00:00Z');
  const end = new Date('2026-07-01T16:00:00Z');
  it('are pending before their start, active until their end, then completed; cancelled stays cancelled', () => {
    expect(eventStateAt({ state: 'pending', startAt: start, endAt: end }, start.getTime() - 1)).toBe('pending');
    expect(eventStateAt({ state: 'pending', startAt: start, endAt: end }, start.getTime())).toBe('active');
    expect(eventStateAt({ state: 'active', startAt: start, endAt: end }, end.getTime())).toBe('completed');
    expect(eventStateAt({ state: 'cancelled', startAt: start, endAt: end }, start.getTime())).toBe('cancelled');
  });

  it('are joined or rejected once before they start, opted in or out until they end', () => {
    expect(responseRefusal('pending', 'none', 'join')).toBeNull();
    expect(responseRefusal('pending', 'optIn', 'reject')).toBe(Code.ENERGY_HUB_EVENT_STATE);
    expect(responseRefusal('active', 'none', 'join')).toBe(Code.ENERGY_HUB_EVENT_STATE);
    expect(responseRefusal('active', 'optOut', 'optIn')).toBeNull();
    expect(responseRefusal('completed', 'optIn', 'optOut')).toBe(Code.ENERGY_HUB_EVENT_STATE);
    expect(responseRefusal('cancelled', 'none', 'optIn')).toBe(Code.ENERGY_HUB_EVENT_STATE);
    expect([responseOf('join'), responseOf('optIn'), responseOf('reject'), responseOf('optOut')]).toEqual([
      'optIn',
      'optIn',
      'optOut',
      'optOut',
    ]);
  });

  it('ask each battery its share, capped by the settings and its capacity, over the time left', () => {
    const base = { eventPowerW: 9000, batteries: 3, maxDischargeW: null, chargeKw: 5, fromMs: 0, endMs: 3_600_000 };
    expect(askedOf(base)).toEqual({ watts: 3000, wattHours: 3000 });
    expect(askedOf({ ...base, maxDischargeW: 2000 }).watts).toBe(2000);
    expect(askedOf({ ...base, chargeKw: 1.5 }).watts).toBe(1500);
    expect(askedOf({ ...base, fromMs: 1_800_000 }).wattHours).toBe(1500);
    expect(askedOf({ ...base, batteries: 0 }).watts).toBe(0);
  });

  it('stop a battery at or below its SOC floor, not one that has not reported', () => {
    expect(atFloor(20, 20)).toBe(true);
    expect(atFloor(19.5, 20)).toBe(true);
    expect(atFloor(20.1, 20)).toBe(false);
    expect(atFloor(null, 20)).toBe(false);
  });
});
