/**
 * The energy model (docs/decisions.md "One energy model"), pure. A device's cumulative counter is read
 * in time order; each step between two consecutive readings belongs to the plant-local day of the later
 * reading. A rise is energy; a fall is a reset (replacement, firmware): a new start that adds no energy
 * and is remembered as a drop, so lifetime = newest counter + Σ drops = first counter + Σ energy, which
 * never falls.
 */

export interface CounterReading {
  /** Milliseconds since the epoch. */
  ts: number;
  wh: number;
}

/** One device-day: its first and last counter reading, the energy of its steps and its drops. */
export interface DayEnergy {
  day: string;
  firstTs: number;
  firstWh: number;
  lastTs: number;
  lastWh: number;
  energyWh: number;
  dropWh: number;
}

/**
 * Folds counter readings (any order; equal times keep the first) after `previous`, the device's last
 * reading before them, into per-day figures. With `previous` the first step is counted in the day of the
 * first reading; without it the first reading is the device's start and adds nothing.
 */
export function energyByDay(
  previous: CounterReading | undefined,
  readings: readonly CounterReading[],
  dayOf: (ts: number) => string,
): DayEnergy[] {
  const sorted = [...readings].sort((a, b) => a.ts - b.ts);
  const days: DayEnergy[] = [];
  let prev = previous;
  let current: DayEnergy | undefined;
  for (const r of sorted) {
    if (!Number.isFinite(r.wh)) continue;
    if (prev && r.ts <= prev.ts) continue;
    const day = dayOf(r.ts);
    if (!current || current.day !== day) {
      current = { day, firstTs: r.ts, firstWh: r.wh, lastTs: r.ts, lastWh: r.wh, energyWh: 0, dropWh: 0 };
      days.push(current);
    }
    if (prev) {
      const step = r.wh - prev.wh;
      if (step >= 0) current.energyWh += step;
      else current.dropWh -= step;
    }
    current.lastTs = r.ts;
    current.lastWh = r.wh;
    prev = r;
  }
  return days;
}
