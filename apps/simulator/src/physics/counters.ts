/**
 * Energy meters as devices report them: cumulative, integer Wh, never going backwards.
 */

export interface EnergyCounter {
  /** Adds energy; negative or non-finite amounts are ignored so the counter cannot go down. */
  add(wh: number): void;
  /** Whole Wh counted so far. */
  value(): number;
}

export function createEnergyCounter(initialWh = 0): EnergyCounter {
  if (!Number.isFinite(initialWh) || initialWh < 0) {
    throw new RangeError(`initialWh must be a finite number ≥ 0, got ${initialWh}`);
  }
  // Keep the fraction: at one-second steps a small plant adds well under 1 Wh per step,
  // and rounding each addition away would freeze the meter.
  let total = Math.min(initialWh, Number.MAX_SAFE_INTEGER);
  return {
    add(wh: number): void {
      // Saturate rather than lose integer precision (or reach Infinity) beyond 2^53 Wh.
      if (Number.isFinite(wh) && wh > 0) total = Math.min(total + wh, Number.MAX_SAFE_INTEGER);
    },
    value(): number {
      return Math.floor(total);
    },
  };
}

/** Energy in Wh of a constant power over an interval. */
export function integrate(powerW: number, dtSeconds: number): number {
  return (powerW * dtSeconds) / 3600;
}
