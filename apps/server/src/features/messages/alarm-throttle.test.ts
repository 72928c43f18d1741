import { describe, expect, it } from 'vitest';
import { createAlarmThrottle } from './alarm-throttle.js';

const MINUTE = 60_000;
const change = (c: 'opened' | 'cleared', n = 0) => ({ change: c, n });

describe('alarm throttle', () => {
  it('lets the first change of a key through and holds the rest of its window', () => {
    const throttle = createAlarmThrottle<ReturnType<typeof change>>(10 * MINUTE);
    expect(throttle.offer('d1|1001', change('opened'), 0)).toEqual({ item: change('opened'), suppressed: 0 });
    expect(throttle.offer('d1|1001', change('cleared'), MINUTE)).toBeUndefined();
    expect(throttle.offer('d1|1001', change('opened'), 2 * MINUTE)).toBeUndefined();
    // Another key (other code, other device) is its own window.
    expect(throttle.offer('d1|1002', change('opened'), 2 * MINUTE)).toBeDefined();
    expect(throttle.offer('d2|1001', change('opened'), 2 * MINUTE)).toBeDefined();
  });

  it('sends the last held change when the window ends if it leaves the device in another state, counting the others', () => {
    const throttle = createAlarmThrottle<ReturnType<typeof change>>(10 * MINUTE);
    throttle.offer('k', change('opened', 1), 0);
    throttle.offer('k', change('cleared', 2), MINUTE);
    throttle.offer('k', change('opened', 3), 2 * MINUTE);
    throttle.offer('k', change('cleared', 4), 3 * MINUTE);
    expect(throttle.expire(9 * MINUTE)).toEqual([]);
    expect(throttle.expire(10 * MINUTE)).toEqual([{ item: change('cleared', 4), suppressed: 2 }]);
    // The trailing message opened a new window.
    expect(throttle.offer('k', change('opened', 5), 11 * MINUTE)).toBeUndefined();
  });

  it('drops held changes that end where the last message left the device, and forgets quiet keys', () => {
    const throttle = createAlarmThrottle<ReturnType<typeof change>>(10 * MINUTE);
    throttle.offer('k', change('opened'), 0);
    throttle.offer('k', change('cleared'), MINUTE);
    throttle.offer('k', change('opened'), 2 * MINUTE);
    expect(throttle.expire(10 * MINUTE)).toEqual([]);
    expect(throttle.size).toBe(0);
    throttle.offer('q', change('opened'), 0);
    expect(throttle.expire(10 * MINUTE)).toEqual([]);
    expect(throttle.size).toBe(0);
  });

  it('reports held changes to the next message when it comes before the window was expired', () => {
    const throttle = createAlarmThrottle<ReturnType<typeof change>>(10 * MINUTE);
    throttle.offer('k', change('opened'), 0);
    throttle.offer('k', change('cleared'), MINUTE);
    expect(throttle.offer('k', change('opened'), 12 * MINUTE)).toEqual({ item: change('opened'), suppressed: 1 });
  });
});
