import type { FastifyBaseLogger } from 'fastify';

/** How long one cause's repeats are counted before they are summed up in one line. */
export const LOG_THROTTLE_WINDOW_MS = 60_000;

export interface LogThrottle {
  /**
   * Logs a WARN line about `cause` (e.g. "unknown_gateway"): the first in a window in full, the rest
   * counted and written once at the window's end as "unknown_gateway ×2,558 in the last 60 s".
   */
  warn(cause: string, fields: Record<string, unknown>, message: string): void;
  /** Writes the pending summaries now (at shutdown) and stops the timers. */
  flush(): void;
}

/**
 * One WARN line per cause and window instead of one per message: a busy broker that refuses thousands
 * of reports a minute for the same reason logs the first in full and then a count, once a minute while
 * it lasts. Causes are few (reasons, event names), never per gateway, so the map stays small.
 */
export function createLogThrottle(
  log: Pick<FastifyBaseLogger, 'warn'>,
  options: { windowMs?: number; now?: () => number; setTimer?: (run: () => void, ms: number) => { unref?: () => void } } = {},
): LogThrottle {
  const windowMs = options.windowMs ?? LOG_THROTTLE_WINDOW_MS;
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms));
  const seconds = Math.round(windowMs / 1000);
  interface CauseState {
    since: number;
    repeats: number;
    last: Record<string, unknown>;
    message: string;
    /** Set while a summary is scheduled; calling it cancels that summary. */
    cancel: (() => void) | undefined;
  }
  const causes = new Map<string, CauseState>();

  function summarise(cause: string, state: CauseState, rearm: boolean): void {
    state.cancel = undefined;
    if (state.repeats === 0) {
      // A quiet window: the next occurrence is written in full again.
      causes.delete(cause);
      return;
    }
    log.warn(
      { ...state.last, cause, repeated: state.repeats, windowSeconds: seconds },
      `${cause} ×${state.repeats.toLocaleString('en-US')} in the last ${seconds} s (${state.message})`,
    );
    // Still going: the next window sums up again, without a full line in between.
    state.since = now();
    state.repeats = 0;
    if (rearm) arm(cause, state);
    else causes.delete(cause);
  }

  function arm(cause: string, state: CauseState): void {
    let cancelled = false;
    const handle = setTimer(() => {
      if (!cancelled) summarise(cause, state, true);
    }, windowMs);
    handle.unref?.();
    state.cancel = () => {
      cancelled = true;
    };
  }

  return {
    warn(cause, fields, message) {
      const state = causes.get(cause);
      if (state && now() - state.since < windowMs) {
        state.repeats++;
        state.last = fields;
        state.message = message;
        return;
      }
      if (state) {
        // The window ended before its timer ran (a busy event loop): its count is written first.
        state.cancel?.();
        summarise(cause, state, false);
      }
      log.warn(fields, message);
      const fresh: CauseState = { since: now(), repeats: 0, last: fields, message, cancel: undefined };
      causes.set(cause, fresh);
      arm(cause, fresh);
    },
    flush() {
      for (const [cause, state] of [...causes]) {
        state.cancel?.();
        summarise(cause, state, false);
      }
      causes.clear();
    },
  };
}
