import { GATEWAY_PROTOCOL_VERSION, type ReplyPayload } from '@sunward/contracts/gateway-protocol';
import { protocolById } from '@sunward/protocol/maps/index';
import { describe, expect, it } from 'vitest';
import { pressButton, protect } from './ac-switch.js';
import { createCommandHandler, createControls } from './command-handler.js';
import { createDeviceState } from './device-values.js';
import { createRandom } from './physics/random.js';

function simulatedSwitch(options: { rcdBroken?: boolean } = {}) {
  const protocol = protocolById('vendor-ac-switch');
  if (!protocol) throw new Error('no switch map');
  const state = createDeviceState({ sn: 'SW0001', protocolId: protocol.id, family: 'ac_switch', ...options }, protocol, createRandom(1));
  const controls = createControls();
  const replies: ReplyPayload[] = [];
  // The simulator's clock, injected: timers wait until the test moves time on.
  let clock = 0;
  const pending: { at: number; run: () => void }[] = [];
  const advance = (ms: number) => {
    clock += ms;
    for (const due of pending.filter((p) => p.at <= clock)) {
      pending.splice(pending.indexOf(due), 1);
      due.run();
    }
  };
  const handler = createCommandHandler({
    states: [state],
    controls,
    reply: (r) => replies.push(r),
    schedule: (run, ms) => pending.push({ at: clock + ms, run }),
  });
  const send = (id: string, params: Record<string, number>) => {
    handler.handle(Buffer.from(JSON.stringify({ v: GATEWAY_PROTOCOL_VERSION, id, op: 'set', device: 'SW0001', params })));
    return replies.find((r) => r.id === id);
  };
  const set = (id: string, Conn: number) => send(id, { Conn });
  /** What the switch reports now (its physics' values with the written ones over them, through protection). */
  const reading = () => {
    const values: Record<string, unknown> = { ...state.base, AphA: 0.5, AphB: 0.5, AphC: 0.5, W: 300 };
    Object.assign(values, state.overrides);
    protect(state, values);
    return values;
  };
  return { state, controls, set, send, advance, reading };
}

describe('the simulated AC switch', () => {
  it('opens and closes from the console, carrying no current while open and saying it was opened remotely', () => {
    const sw = simulatedSwitch();
    expect(sw.set('1', 0)).toMatchObject({ status: 'ok', values: { Conn: 0 } });
    expect(sw.state.overrides).toMatchObject({ St: 0, W: 0, Evt: 1 << 9 });
    expect(sw.controls.shutdown.has('SW0001')).toBe(true);
    expect(sw.set('2', 1)).toMatchObject({ status: 'ok', values: { Conn: 1 } });
    expect(sw.state.overrides.St).toBe(1);
    expect(sw.state.overrides.W).toBeUndefined();
  });

  it('once switched off with its button, refuses to be switched on remotely (locked) until the button closes it', () => {
    const sw = simulatedSwitch();
    pressButton(sw.state, sw.controls);
    expect(sw.state.overrides).toMatchObject({ St: 0, Evt: 1 << 8 });
    expect(sw.set('1', 1)).toMatchObject({ status: 'error', error: 'locked' });
    expect(sw.state.overrides.St).toBe(0);
    // Switching it off remotely is still allowed, and the button closes it again.
    pressButton(sw.state, sw.controls);
    expect(sw.state.overrides.St).toBe(1);
    expect(sw.set('2', 0)?.status).toBe('ok');
    expect(sw.set('3', 1)?.status).toBe('ok');
  });

  it('trips on a limit it passes (a power limit written down to 100 W), reports St 2 with the trip bit, and closes again from the console', () => {
    const sw = simulatedSwitch();
    const values: Record<string, unknown> = { ...sw.state.base, W: 450, AphA: 0.7, AphB: 0.6, AphC: 0.7, LeakA: 12 };
    protect(sw.state, values);
    expect(values.St).toBe(1);
    expect(sw.set('1', 0)?.status).toBe('ok');
    expect(sw.set('2', 1)?.status).toBe('ok');
    sw.state.overrides.WLim = 100;
    protect(sw.state, values);
    expect(values).toMatchObject({ St: 2, Evt: 1 << 6, W: 0 });
    expect(sw.state.overrides.St).toBe(2);
    // A leakage above its limit trips with bit 4.
    const leaking = simulatedSwitch();
    const leak: Record<string, unknown> = { ...leaking.state.base, W: 50, LeakA: 45 };
    protect(leaking.state, leak);
    expect(leak).toMatchObject({ St: 2, Evt: 1 << 4 });
    expect(sw.set('3', 1)?.status).toBe('ok');
    expect(sw.state.overrides.St).toBe(1);
    expect(sw.state.overrides.Evt).toBeUndefined();
  });

  it('after a protection trip, closes again by itself once the measured value is back below the closed value', () => {
    const sw = simulatedSwitch();
    // The current limit written as 10 A open, 6 A closed; the load behind the switch draws 12 A.
    sw.state.overrides.ALim = 10;
    sw.state.overrides.ALimRcl = 6;
    const load = (amps: number): Record<string, unknown> => ({
      ...sw.state.base,
      AphA: amps,
      AphB: amps - 1,
      AphC: amps - 1,
      W: amps * 690,
    });
    const tick = (amps: number) => {
      const values = load(amps);
      Object.assign(values, sw.state.overrides);
      protect(sw.state, values);
      return values;
    };
    expect(tick(12)).toMatchObject({ St: 2, Conn: 0, Evt: 1 << 0, AphA: 0, W: 0 });
    // Still above the closed value (though below the open one): it stays open, carrying nothing.
    expect(tick(8)).toMatchObject({ St: 2, Evt: 1 << 0, AphA: 0 });
    expect(tick(6)).toMatchObject({ St: 2 });
    // Below the closed value: closed again, the load on it, the trip's event cleared.
    expect(tick(5)).toMatchObject({ St: 1, Conn: 1, Evt: 0, AphA: 5 });
    expect(sw.state.overrides).toMatchObject({ St: 1, Conn: 1 });
    expect(sw.state.overrides.Evt).toBeUndefined();
    expect(tick(5)).toMatchObject({ St: 1, AphA: 5 });
  });

  it('reads under-voltage the other way round: trips below its limit, closes again above its closed value', () => {
    const sw = simulatedSwitch();
    const supply = (volts: number): Record<string, unknown> => {
      const values: Record<string, unknown> = { ...sw.state.base, PhVphA: volts, PhVphB: 230, PhVphC: 230 };
      Object.assign(values, sw.state.overrides);
      protect(sw.state, values);
      return values;
    };
    // The samples: 184 V open, 196 V closed.
    expect(supply(190)).toMatchObject({ St: 1 });
    expect(supply(180)).toMatchObject({ St: 2, Evt: 1 << 3 });
    expect(supply(192)).toMatchObject({ St: 2, Evt: 1 << 3 });
    expect(supply(200)).toMatchObject({ St: 1, Evt: 0 });
  });

  it('never closes by itself when opened with its button or from the console (spec 02 §4 stays)', () => {
    const sw = simulatedSwitch();
    const quiet = (): Record<string, unknown> => {
      const values: Record<string, unknown> = { ...sw.state.base, AphA: 0.5, AphB: 0.5, AphC: 0.5, W: 300 };
      Object.assign(values, sw.state.overrides);
      protect(sw.state, values);
      return values;
    };
    expect(sw.set('1', 0)?.status).toBe('ok');
    expect(quiet()).toMatchObject({ St: 0, Evt: 1 << 9 });
    expect(quiet()).toMatchObject({ St: 0 });
    expect(sw.set('2', 1)?.status).toBe('ok');
    pressButton(sw.state, sw.controls);
    expect(quiet()).toMatchObject({ St: 0, Evt: 1 << 8 });
    expect(sw.set('3', 1)).toMatchObject({ status: 'error', error: 'locked' });
    expect(quiet()).toMatchObject({ St: 0 });
  });

  it('self-check: a healthy switch confirms the start, cuts the circuit for 10 s, closes again and reports passed', () => {
    const sw = simulatedSwitch();
    expect(sw.reading()).toMatchObject({ LeakTestRes: 0, LeakTestCnt: 0, St: 1 });
    // The write is answered at once; the outcome comes in the reports.
    expect(sw.send('1', { LeakTest: 1 })).toMatchObject({ status: 'ok', values: { LeakTest: 1 } });
    expect(sw.reading()).toMatchObject({ St: 0, Conn: 0, W: 0, AphA: 0, LeakTestRes: 3 });
    expect(sw.controls.shutdown.has('SW0001')).toBe(true);
    // During the test it takes no switching and no second test.
    expect(sw.set('2', 1)).toMatchObject({ status: 'error', error: 'locked', message: expect.stringMatching(/under way/) });
    expect(sw.send('3', { LeakTest: 1 })).toMatchObject({ status: 'error', error: 'locked' });
    sw.advance(9_999);
    expect(sw.reading()).toMatchObject({ St: 0, LeakTestRes: 3 });
    sw.advance(1);
    const after = sw.reading();
    expect(after).toMatchObject({ St: 1, Conn: 1, AphA: 0.5, LeakTestRes: 1, LeakTestCnt: 1, LeakTest: 0 });
    expect(after.LeakTestMa).toBeGreaterThanOrEqual(15);
    expect(after.LeakTestMa).toBeLessThanOrEqual(30);
    expect(Number(after.Evt ?? 0) & (1 << 11)).toBe(0);
    expect(sw.controls.shutdown.has('SW0001')).toBe(false);
    // A second test counts on.
    expect(sw.send('4', { LeakTest: 1 })?.status).toBe('ok');
    sw.advance(10_000);
    expect(sw.reading()).toMatchObject({ LeakTestRes: 1, LeakTestCnt: 2, St: 1 });
  });

  it('self-check: refused while the switch is open; a switch with broken protection does not trip and reports failed (Evt bit 11)', () => {
    const open = simulatedSwitch();
    expect(open.set('1', 0)?.status).toBe('ok');
    expect(open.send('2', { LeakTest: 1 })).toMatchObject({ status: 'error', error: 'locked', message: expect.stringMatching(/open/) });
    expect(open.reading()).toMatchObject({ LeakTestRes: 0, St: 0 });

    const broken = simulatedSwitch({ rcdBroken: true });
    expect(broken.send('1', { LeakTest: 1 })?.status).toBe('ok');
    // The circuit is never cut: it did not trip.
    expect(broken.reading()).toMatchObject({ St: 1, LeakTestRes: 3 });
    broken.advance(1_000);
    const after = broken.reading();
    expect(after).toMatchObject({ St: 1, LeakTestRes: 2, LeakTestMa: 30, LeakTestCnt: 1 });
    expect(Number(after.Evt) & (1 << 11)).not.toBe(0);
  });

  it('keeps the report interval written to it and reports it back', () => {
    const sw = simulatedSwitch();
    expect(sw.reading().RptIntv).toBe(5);
    expect(sw.send('1', { RptIntv: 15 })).toMatchObject({ status: 'ok', values: { RptIntv: 15 } });
    expect(sw.reading().RptIntv).toBe(15);
    expect(sw.send('2', { RptIntv: 0 })).toMatchObject({ status: 'error', error: 'out_of_range' });
  });
});
