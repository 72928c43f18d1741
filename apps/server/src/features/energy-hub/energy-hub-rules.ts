import { Code, type ResponseCode } from '@sunward/contracts/codes';
import {
  type EnergyEventAction,
  type EnergyEventResponse,
  type EnergyEventState,
  type EnrollmentBody,
  type EnrollmentState,
  SOURCE_ACCOUNT_PATTERN,
  UTILITY_ACCOUNT_PATTERN,
} from '@sunward/contracts/energy-hub';

/** A refusal of the enrollment form, with the field it is about (the form shows it there). */
export interface FieldRefusal {
  code: ResponseCode;
  field: string;
}

/**
 * The form's own rules (spec 02): the utility account number lowercase letters, digits, underscore or dash, at
 * most 20; the source account number digits only; no SN twice. The first broken rule, or null.
 */
export function formRefusal(body: Pick<EnrollmentBody, 'utilityAccountNumber' | 'sourceAccountNumber' | 'devices'>): FieldRefusal | null {
  if (!UTILITY_ACCOUNT_PATTERN.test(body.utilityAccountNumber))
    return { code: Code.ENERGY_HUB_UTILITY_ACCOUNT_INVALID, field: 'utilityAccountNumber' };
  if (!SOURCE_ACCOUNT_PATTERN.test(body.sourceAccountNumber))
    return { code: Code.ENERGY_HUB_SOURCE_ACCOUNT_INVALID, field: 'sourceAccountNumber' };
  const seen = new Set<string>();
  for (const [index, device] of body.devices.entries()) {
    const sn = device.sn.toLowerCase();
    if (seen.has(sn)) return { code: Code.ENERGY_HUB_SN_REPEATED, field: `devices.${index}.sn` };
    seen.add(sn);
  }
  return null;
}

/** Where an enrollment may go from each state: the programme accepts or rejects a pending one; the user unenrolls. */
const ENROLLMENT_MOVES: Record<EnrollmentState, readonly EnrollmentState[]> = {
  pending: ['accepted', 'rejected', 'unenrolled'],
  accepted: ['unenrolled'],
  rejected: [],
  unenrolled: [],
};

export function canMoveEnrollment(from: EnrollmentState, to: EnrollmentState): boolean {
  return ENROLLMENT_MOVES[from].includes(to);
}

/** Pending and accepted enrollments hold their plant, account and batteries; the others free them. */
export const isLive = (state: EnrollmentState): boolean => state === 'pending' || state === 'accepted';

/**
 * The site's answer to an event: join or reject a pending event once (the first answer), opt in or out of a pending
 * or active one at any time. Null when allowed, else the refusal's code.
 */
export function responseRefusal(state: EnergyEventState, response: EnergyEventResponse, action: EnergyEventAction): ResponseCode | null {
  if (state === 'completed' || state === 'cancelled') return Code.ENERGY_HUB_EVENT_STATE;
  if ((action === 'join' || action === 'reject') && (state !== 'pending' || response !== 'none')) return Code.ENERGY_HUB_EVENT_STATE;
  return null;
}

export const responseOf = (action: EnergyEventAction): EnergyEventResponse =>
  action === 'join' || action === 'optIn' ? 'optIn' : 'optOut';

/** The event's state at `now` by its times (cancelled stays cancelled). */
export function eventStateAt(event: { state: EnergyEventState; startAt: Date; endAt: Date }, now: number): EnergyEventState {
  if (event.state === 'cancelled') return 'cancelled';
  if (now >= event.endAt.getTime()) return 'completed';
  if (now >= event.startAt.getTime()) return 'active';
  return 'pending';
}

/**
 * What one battery is asked in an event: the site's power shared evenly among the taking-part batteries, capped
 * by the response settings' maximum and the battery's charge capacity; energy over the event's remaining time.
 */
export function askedOf(input: {
  eventPowerW: number;
  batteries: number;
  maxDischargeW: number | null;
  chargeKw: number;
  fromMs: number;
  endMs: number;
}): { watts: number; wattHours: number } {
  const share = input.batteries > 0 ? input.eventPowerW / input.batteries : 0;
  const watts = Math.max(0, Math.min(share, input.maxDischargeW ?? Number.POSITIVE_INFINITY, input.chargeKw * 1000));
  const hours = Math.max(0, input.endMs - input.fromMs) / 3_600_000;
  return { watts: Math.round(watts), wattHours: Math.round(watts) * hours };
}

/** A battery's discharge stops when its SOC is at or below the floor the response settings keep. */
export const atFloor = (socPct: number | null, floorPct: number): boolean => socPct !== null && socPct <= floorPct;
