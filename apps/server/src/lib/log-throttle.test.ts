import { describe, expect, it } from 'vitest';
import { createLogThrottle } from './log-throttle.js';

function harness() {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const timers: (() => void)[] = [];
  let clock = 0;
  const throttle = createLogThrottle(
    { warn: ((fields: Record<string, unknown>, message: string) => lines.push({ fields, message })) as never },
    {
      windowMs: 60_000,
      now: () => clock,
      setTimer: (run) => {
        timers.push(run);
        return {};
      },
    },
  );
  return {
    throttle,
    lines,
    advance(ms: number) {
      clock += ms;
    },
    fireTimers() {
      for (const run of timers.splice(0)) run();
    },
  };
}

describe('log throttle', () => {
  it('writes the first line of a cause in full and the repeats as one counted line per window', () => {
    const t = harness();
    for (let i = 0; i < 2559; i++)
      t.throttle.warn('unknown_gateway', { gateway: `GW${i}` }, 'message from an unregistered gateway dropped');
    expect(t.lines).toHaveLength(1);
    expect(t.lines[0]?.fields).toEqual({ gateway: 'GW0' });
    t.advance(60_000);
    t.fireTimers();
    expect(t.lines).toHaveLength(2);
    expect(t.lines[1]?.message).toBe('unknown_gateway ×2,558 in the last 60 s (message from an unregistered gateway dropped)');
    expect(t.lines[1]?.fields).toMatchObject({ cause: 'unknown_gateway', repeated: 2558, windowSeconds: 60, gateway: 'GW2558' });
  });

  it('keeps causes apart, and writes a cause in full again after a quiet window', () => {
    const t = harness();
    t.throttle.warn('unknown_gateway', {}, 'a');
    t.throttle.warn('bad_payload', {}, 'b');
    t.throttle.warn('unknown_gateway', {}, 'a');
    expect(t.lines.map((l) => l.message)).toEqual(['a', 'b']);
    t.advance(60_000);
    t.fireTimers(); // unknown_gateway: one repeat; bad_payload: none
    expect(t.lines.map((l) => l.message)).toEqual(['a', 'b', 'unknown_gateway ×1 in the last 60 s (a)']);
    t.advance(60_000);
    t.fireTimers(); // a quiet window for both
    t.throttle.warn('unknown_gateway', { n: 1 }, 'a');
    expect(t.lines).toHaveLength(4);
    expect(t.lines[3]).toEqual({ fields: { n: 1 }, message: 'a' });
  });

  it('counts a window whose timer ran late, and flush writes what is pending', () => {
    const t = harness();
    t.throttle.warn('gap', {}, 'gap in report sequence');
    t.throttle.warn('gap', {}, 'gap in report sequence');
    t.advance(61_000); // the timer has not run yet
    t.throttle.warn('gap', {}, 'gap in report sequence');
    expect(t.lines.map((l) => l.message)).toEqual([
      'gap in report sequence',
      'gap ×1 in the last 60 s (gap in report sequence)',
      'gap in report sequence',
    ]);
    t.throttle.warn('gap', {}, 'gap in report sequence');
    t.throttle.flush();
    expect(t.lines.at(-1)?.message).toBe('gap ×1 in the last 60 s (gap in report sequence)');
    t.fireTimers();
    expect(t.lines).toHaveLength(4);
  });
});
