/**
 * Seeded pseudo-random numbers so that a simulation run is repeatable from a single seed.
 * mulberry32: 32-bit state, fast, good enough statistically for simulated telemetry (not for crypto).
 */

export interface Random {
  /** The 32-bit seed this stream started from; forks derive from it, not from the current state. */
  readonly seed: number;
  /** Uniform in [0, 1). */
  next(): number;
  /** Gaussian sample (Box–Muller). */
  normal(mean?: number, sd?: number): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** Independent stream named by `label`: the same seed and label always give the same stream. */
  fork(label: string): Random;
}

// Final mixer of MurmurHash3: spreads nearby inputs (seeds 1, 2, 3…) over the whole 32-bit range.
function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** 32-bit hash of a label combined with a seed (FNV-1a over UTF-16 code units, then fmix32). */
export function hashLabel(seed: number, label: string): number {
  let h = fmix32((seed ^ 0x9e3779b9) >>> 0) ^ 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // Mix the length in so "a" + "" and "" + "a" style concatenations cannot collide trivially.
  return fmix32(h ^ label.length);
}

function normalizeSeed(seed: number): number {
  if (!Number.isFinite(seed)) {
    throw new RangeError(`seed must be a finite number, got ${seed}`);
  }
  // Fractional or large seeds are folded into 32 bits rather than rejected.
  return (Math.trunc(seed) ^ Math.trunc(seed / 0x100000000)) >>> 0;
}

export function createRandom(seed: number): Random {
  const initial = normalizeSeed(seed);
  let state = initial;

  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  return {
    seed: initial,
    next,
    normal(mean = 0, sd = 1): number {
      // 1 - next() lies in (0, 1], so the logarithm is always finite.
      const u1 = 1 - next();
      const u2 = next();
      return mean + sd * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    },
    int(min: number, max: number): number {
      const lo = Math.ceil(Math.min(min, max));
      const hi = Math.floor(Math.max(min, max));
      if (!Number.isFinite(lo) || !Number.isFinite(hi) || lo > hi) {
        throw new RangeError(`no integer in [${min}, ${max}]`);
      }
      return lo + Math.floor(next() * (hi - lo + 1));
    },
    pick<T>(items: readonly T[]): T {
      const index = Math.floor(next() * items.length);
      // Checked access instead of a non-null assertion: an empty list is a caller error.
      if (index >= items.length) {
        throw new RangeError('pick() needs a non-empty list');
      }
      return items[index] as T;
    },
    fork(label: string): Random {
      return createRandom(hashLabel(initial, label));
    },
  };
}
