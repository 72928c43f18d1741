/**
 * Flapping protection for equipment alarms: at most one message per device and event code per window.
 * The first change of a window goes out at once; later ones are held. When the window ends, the latest
 * held change goes out if it leaves the device in another state than the last message said (so a
 * "cleared" is never lost), counting the changes left out; otherwise they are dropped. Pure: the caller
 * passes the time and calls `expire` now and then.
 */
export interface Throttled<T> {
  item: T;
  /** Changes of this key left out since the previous message. */
  suppressed: number;
}

interface Entry<T> {
  start: number;
  /** The change the last message reported (opened or cleared). */
  sent: string;
  held: T | undefined;
  skipped: number;
}

export function createAlarmThrottle<T extends { change: string }>(windowMs: number) {
  const entries = new Map<string, Entry<T>>();
  return {
    /** Whether `item` goes out now (with how many changes were left out before it) or is held. */
    offer(key: string, item: T, now: number): Throttled<T> | undefined {
      const entry = entries.get(key);
      if (!entry || now - entry.start >= windowMs) {
        entries.set(key, { start: now, sent: item.change, held: undefined, skipped: 0 });
        return { item, suppressed: entry?.skipped ?? 0 };
      }
      entry.held = item;
      entry.skipped++;
      return undefined;
    },

    /** Ends the windows that are over: the held changes that still matter go out now. */
    expire(now: number): Throttled<T>[] {
      const out: Throttled<T>[] = [];
      for (const [key, entry] of entries) {
        if (now - entry.start < windowMs) continue;
        if (entry.held && entry.held.change !== entry.sent) {
          out.push({ item: entry.held, suppressed: entry.skipped - 1 });
          entries.set(key, { start: now, sent: entry.held.change, held: undefined, skipped: 0 });
        } else entries.delete(key);
      }
      return out;
    },

    /** Whether a window is open for `key`: its device told people of a change and is being watched for flapping. */
    watching(key: string, now: number): boolean {
      const entry = entries.get(key);
      return entry !== undefined && now - entry.start < windowMs;
    },

    get size() {
      return entries.size;
    },
  };
}
