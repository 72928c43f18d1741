/**
 * Clear-sky index (measured GHI / clear-sky GHI) that evolves like a real sky:
 * a slowly drifting haze level (Ornstein–Uhlenbeck process) times individual clouds that pass over
 * the plant for a few minutes each. Stepping with any dt gives the same statistics, because the OU
 * update is the exact solution rather than an Euler step.
 */
import type { Random } from './random.js';

export const MIN_CLEAR_SKY_INDEX = 0.05;
export const MAX_CLEAR_SKY_INDEX = 1;

export interface CloudModelOptions {
  /** 0 = clear sky, 1 = overcast. Default 0.3 (a fair day with some cumulus). */
  cloudiness?: number | undefined;
}

export interface CloudModel {
  /** Advances the sky by dtSeconds (≥ 0) and returns the clear-sky index in [0.05, 1]. */
  step(dtSeconds: number): number;
  /** Current clear-sky index without advancing time. */
  current(): number;
}

interface CloudPassage {
  start: number;
  duration: number;
  ramp: number;
  depth: number;
}

const clamp = (value: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, value));

// Haze level drifts over tens of minutes; this keeps 1-minute changes small.
const HAZE_TIME_CONSTANT_S = 40 * 60;
const LARGE_CLOUD_SHARE = 0.15;
// Mean of the passage duration drawn in newPassage.
const MEAN_PASSAGE_S = 90 + 300 + LARGE_CLOUD_SHARE * 750;

// Smooth 0→1→0 envelope with flat middle: a cloud shadow edge takes a minute or so to cross a plant.
function envelope(passage: CloudPassage, time: number): number {
  const t = time - passage.start;
  if (t <= 0 || t >= passage.duration) return 0;
  const edge = Math.min(t, passage.duration - t);
  if (edge >= passage.ramp) return 1;
  return 0.5 - 0.5 * Math.cos((Math.PI * edge) / passage.ramp);
}

export function createCloudModel(random: Random, options: CloudModelOptions = {}): CloudModel {
  const requested = options.cloudiness ?? 0.3;
  const cloudiness = Number.isFinite(requested) ? clamp(requested, 0, 1) : 0.3;

  // Between clouds the sky stays bright until it is mostly overcast; passages do the dimming.
  const hazeMean = 1 - 0.78 * cloudiness ** 2;
  // Haze is most variable in broken-cloud weather, nearly steady when clear or fully overcast.
  const hazeSd = 0.01 + 0.07 * Math.sin(Math.PI * cloudiness);
  // Share of time spent in a cloud's shadow: grows with cloudiness, then falls again as the sky
  // closes up and the haze level takes over. Poisson arrivals: share = 1 − exp(−rate × mean duration).
  const shadowShare = Math.min(0.9, 0.9 * cloudiness * (1 - 0.6 * cloudiness ** 2));
  const passageRate = -Math.log(1 - shadowShare) / MEAN_PASSAGE_S;

  let time = 0;
  // Start from the stationary distribution so the first sample is already representative.
  let haze = random.normal(hazeMean, hazeSd);
  const passages: CloudPassage[] = [];

  const drawGap = (): number => (passageRate > 0 ? -Math.log(1 - random.next()) / passageRate : Number.POSITIVE_INFINITY);
  let nextArrival = drawGap();

  const newPassage = (start: number): CloudPassage => {
    // Mostly small cumulus (1.5–11.5 min), now and then a large one (up to 35 min).
    const duration = 90 + random.next() * 600 + (random.next() < LARGE_CLOUD_SHARE ? random.next() * 1500 : 0);
    return {
      start,
      duration,
      ramp: Math.min(duration / 3, 90 + random.next() * 150),
      // Thin cumulus dims a little, thick ones a lot; thicker in cloudier weather.
      depth: clamp(0.25 + 0.55 * random.next() + 0.15 * cloudiness, 0.1, 0.95),
    };
  };

  const evaluate = (): number => {
    let index = clamp(haze, 0, MAX_CLEAR_SKY_INDEX);
    for (const passage of passages) index *= 1 - passage.depth * envelope(passage, time);
    return clamp(index, MIN_CLEAR_SKY_INDEX, MAX_CLEAR_SKY_INDEX);
  };

  let value = evaluate();

  return {
    step(dtSeconds: number): number {
      if (!(dtSeconds >= 0) || !Number.isFinite(dtSeconds)) {
        throw new RangeError(`dtSeconds must be a finite number ≥ 0, got ${dtSeconds}`);
      }
      if (dtSeconds === 0) return value;
      time += dtSeconds;

      const decay = Math.exp(-dtSeconds / HAZE_TIME_CONSTANT_S);
      haze = hazeMean + (haze - hazeMean) * decay + hazeSd * Math.sqrt(1 - decay * decay) * random.normal();

      while (nextArrival <= time) {
        passages.push(newPassage(nextArrival));
        nextArrival += drawGap();
      }
      // Drop finished clouds so a long run does not accumulate them.
      for (let i = passages.length - 1; i >= 0; i--) {
        const passage = passages[i];
        if (passage !== undefined && passage.start + passage.duration <= time) passages.splice(i, 1);
      }

      value = evaluate();
      return value;
    },
    current(): number {
      return value;
    },
  };
}
