import type { DeviceControls } from './command-handler.js';
import type { DeviceState } from './device-values.js';

/*
 * A smart AC switch as the simulator plays it (vendor-ac-switch map): its contacts (St 0 open, 1 closed),
 * a local button, and the rule of spec 02 §4: once switched off with the button it can only be switched on
 * with the button; the console's Conn=1 is refused `locked`. Evt carries bit 8 (off by hand) or bit 9 (off
 * remotely) while the switch stands open for that reason.
 */

const OFF_BY_HAND = 1 << 8;
const OFF_REMOTELY = 1 << 9;
const DEAD = ['W', 'WphA', 'WphB', 'WphC', 'AphA', 'AphB', 'AphC'];

export function isAcSwitch(state: DeviceState): boolean {
  return state.device.family === 'ac_switch';
}

/** Whether the switch stands open because its own button opened it. */
export function offLocally(state: DeviceState): boolean {
  return state.overrides.St === 0 && (Number(state.overrides.Evt ?? 0) & OFF_BY_HAND) !== 0;
}

/** Opens or closes the contacts: an open switch carries no current, and says why it opened. */
export function setContacts(state: DeviceState, controls: DeviceControls, on: boolean, by: 'button' | 'remote'): void {
  const sn = state.device.sn;
  state.overrides.Conn = on ? 1 : 0;
  state.overrides.St = on ? 1 : 0;
  if (on) {
    controls.shutdown.delete(sn);
    delete state.overrides.Evt;
    for (const id of DEAD) delete state.overrides[id];
  } else {
    controls.shutdown.add(sn);
    state.overrides.Evt = by === 'button' ? OFF_BY_HAND : OFF_REMOTELY;
    for (const id of DEAD) state.overrides[id] = 0;
  }
}

/** The leakage self-check as this model plays it (spec: a monthly test that cuts the circuit for 10 s). */
export const LEAK_TEST = {
  /** The residual current the switch is rated to trip at; the test injects it. */
  ratedMa: 30,
  /** A passing switch opens at once and stays open this long before it closes again by itself. */
  cutMs: 10_000,
  /** A switch that has not opened after this long has failed (a residual-current device must trip within 300 ms). */
  tripWindowMs: 1_000,
} as const;
/** LeakTestRes: 0 none yet, 1 passed, 2 failed, 3 under way. */
const TEST = { passed: 1, failed: 2, running: 3 } as const;
const SELF_TEST_FAILED = 1 << 11;

/** Runs `run` after `ms` on the simulator's clock (tests inject their own). */
export type Schedule = (run: () => void, ms: number) => void;

/** Whether a leakage self-test is under way (the switch refuses other commands meanwhile). */
export function leakTestRunning(state: DeviceState): boolean {
  return state.overrides.LeakTestRes === TEST.running;
}

/**
 * `LeakTest=1`: the switch injects a test leakage of its rated residual current. Refused (`locked`) unless it is
 * closed: an open switch has no circuit to test, and a tripped one is not closed again by a test. A healthy switch
 * trips at once (it measures the leakage at which it tripped, 50–100 % of the rated current), cuts the circuit for
 * `LEAK_TEST.cutMs`, then closes again and reports passed; one whose residual-current protection is broken
 * (`rcdBroken` in the fleet) does not trip: after `tripWindowMs` it reports failed with the full test current and
 * raises Evt bit 11 (self-test failed) until a later test passes. The write is answered at once, as any Modbus
 * write; the outcome is in LeakTestRes/LeakTestMa/LeakTestCnt of the next reports.
 */
export function startLeakTest(
  state: DeviceState,
  controls: DeviceControls,
  schedule: Schedule,
): { ok: true } | { ok: false; message: string } {
  if (leakTestRunning(state)) return { ok: false, message: 'a leakage test is under way' };
  if ((state.overrides.St ?? 1) !== 1) return { ok: false, message: 'the switch is open: the leakage test needs it closed (on)' };
  const sn = state.device.sn;
  const broken = state.device.rcdBroken === true;
  const measured = broken ? LEAK_TEST.ratedMa : Math.round(LEAK_TEST.ratedMa * (0.6 + 0.3 * state.random.next()));
  state.overrides.LeakTest = 1;
  state.overrides.LeakTestRes = TEST.running;
  const finish = (passed: boolean) => {
    state.overrides.LeakTest = 0;
    state.overrides.LeakTestRes = passed ? TEST.passed : TEST.failed;
    state.overrides.LeakTestMa = measured;
    state.overrides.LeakTestCnt = (Number(state.overrides.LeakTestCnt ?? 0) + 1) % 0x10000;
  };
  if (broken) {
    schedule(() => {
      finish(false);
      state.overrides.Evt = Number(state.overrides.Evt ?? 0) | SELF_TEST_FAILED;
    }, LEAK_TEST.tripWindowMs);
    return { ok: true };
  }
  // Tripped by the test: open, carrying nothing, no trip flag (the test asked for it).
  state.overrides.St = 0;
  state.overrides.Conn = 0;
  delete state.overrides.Evt;
  controls.shutdown.add(sn);
  for (const id of DEAD) state.overrides[id] = 0;
  schedule(() => {
    state.overrides.St = 1;
    state.overrides.Conn = 1;
    controls.shutdown.delete(sn);
    for (const id of DEAD) delete state.overrides[id];
    finish(true);
  }, LEAK_TEST.cutMs);
  return { ok: true };
}

/** Someone presses the switch's own button: it toggles the contacts. */
export function pressButton(state: DeviceState, controls: DeviceControls): void {
  setContacts(state, controls, state.overrides.St === 0, 'button');
}

/** The largest of the phase values `ids` in `values`. */
const largest = (values: Record<string, unknown>, ids: readonly string[]) => Math.max(...ids.map((id) => Number(values[id] ?? 0)));
const smallest = (values: Record<string, unknown>, ids: readonly string[]) => Math.min(...ids.map((id) => Number(values[id] ?? 0)));
const PHASE_V = ['PhVphA', 'PhVphB', 'PhVphC'] as const;

/**
 * Evt bits of the trips this model plays, the limits (holding registers) that cause them and their closed
 * (reclose) values: an over-limit trips above its limit and recloses below the closed value; under-voltage
 * trips below its limit and recloses above the closed value.
 */
const TRIPS = [
  {
    bit: 0,
    limit: 'ALim',
    closed: 'ALimRcl',
    below: false,
    measured: (v: Record<string, unknown>) => largest(v, ['AphA', 'AphB', 'AphC']),
  },
  { bit: 2, limit: 'VLimHi', closed: 'VLimHiRcl', below: false, measured: (v: Record<string, unknown>) => largest(v, PHASE_V) },
  { bit: 3, limit: 'VLimLo', closed: 'VLimLoRcl', below: true, measured: (v: Record<string, unknown>) => smallest(v, PHASE_V) },
  { bit: 4, limit: 'LeakLim', closed: 'LeakLimRcl', below: false, measured: (v: Record<string, unknown>) => Number(v.LeakA ?? 0) },
  { bit: 5, limit: 'TmpLim', closed: 'TmpLimRcl', below: false, measured: (v: Record<string, unknown>) => Number(v.Tmp ?? 0) },
  { bit: 6, limit: 'WLim', closed: 'WLimRcl', below: false, measured: (v: Record<string, unknown>) => Number(v.W ?? 0) },
] as const;

/** A limit's value as written, else as the device started (the map's sample). */
function setting(state: DeviceState, values: Record<string, unknown>, id: string): number {
  return Number(state.overrides[id] ?? values[id]);
}

/**
 * Protection, each report: a closed switch whose measured current, voltage, leakage, temperature or power
 * passes a limit (as written, else as the device started) opens by itself and reports St 2 (tripped) with the
 * trip's Evt bit. While tripped it carries no current, but keeps measuring what the circuit would carry (the
 * load behind it, the supply voltage, the leakage, its temperature): once that is back past the limit's
 * closed value (below it for an over-limit, above it for under-voltage) it closes again by itself. A switch
 * opened with its button or from the console (St 0) is never closed here (spec 02 §4). `values` are the
 * physics' ones with the written settings over them; what to report is written into them.
 */
export function protect(state: DeviceState, values: Record<string, unknown>): void {
  if (!isAcSwitch(state) || state.overrides.St === 0) return;
  if (state.overrides.St === 2) {
    const trip = TRIPS.find((t) => Number(state.overrides.Evt ?? 0) === 1 << t.bit);
    const closed = trip ? setting(state, values, trip.closed) : Number.NaN;
    const measured = trip ? trip.measured(values) : Number.NaN;
    const cleared = trip !== undefined && Number.isFinite(closed) && (trip.below ? measured > closed : measured < closed);
    if (!cleared) {
      Object.assign(values, { St: 2, Conn: 0, Evt: state.overrides.Evt }, Object.fromEntries(DEAD.map((id) => [id, 0])));
      return;
    }
    // Reclosed: the contacts carry the load again and the trip's event clears.
    state.overrides.St = 1;
    state.overrides.Conn = 1;
    delete state.overrides.Evt;
    Object.assign(values, { St: 1, Conn: 1, Evt: 0 });
    return;
  }
  const tripped = TRIPS.find((trip) => {
    const limit = setting(state, values, trip.limit);
    if (!Number.isFinite(limit)) return false;
    return trip.below ? trip.measured(values) < limit : trip.measured(values) > limit;
  });
  if (!tripped) return;
  state.overrides.St = 2;
  state.overrides.Conn = 0;
  state.overrides.Evt = 1 << tripped.bit;
  Object.assign(values, { St: 2, Conn: 0, Evt: 1 << tripped.bit }, Object.fromEntries(DEAD.map((id) => [id, 0])));
}
