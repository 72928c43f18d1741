/**
 * PV array and inverter: irradiance on the modules → DC power → AC power.
 */
import type { Random } from './random.js';

export interface PvPowerInput {
  /** Plane-of-array irradiance, W/m². */
  poaIrradiance: number;
  ambientTempC: number;
  /** DC nameplate at STC (1000 W/m², 25 °C), kWp. */
  capacityKwp: number;
  /** m/s at module height; default 1, the NOCT test condition. */
  windSpeed?: number | undefined;
  /** Inverter AC rating, W. Default: the DC nameplate (DC/AC ratio 1). */
  inverterMaxW?: number | undefined;
  /** DC-side system losses (soiling, wiring, mismatch, ageing) as a factor; default 0.9. */
  derate?: number | undefined;
}

export interface PvPowerOutput {
  /** DC power the inverter draws from the array (below the array's maximum when clipping). */
  dcW: number;
  acW: number;
  moduleTempC: number;
}

const STC_IRRADIANCE = 1000;
const STC_TEMP_C = 25;
const NOCT_C = 45;
const NOCT_IRRADIANCE = 800;
const TEMP_COEFFICIENT = -0.004; // per °C, typical crystalline silicon

// Inverter losses relative to its rating, as loss = L0 + L1·x + L2·x² with x = P_dc / rating
// (Schmidt–Sauer form): a fixed self-consumption makes low loads inefficient, resistive losses
// grow with the square of load. These values peak near 97.6 % around 60 % load, 97.4 % at full load.
const L0 = 0.004;
const L1 = 0.01;
const L2 = 0.012;

// Load at which AC output equals the rating: root of L2·x² + (L1 − 1)·x + (1 + L0) = 0.
const CLIP_LOAD = (1 - L1 - Math.sqrt((1 - L1) ** 2 - 4 * L2 * (1 + L0))) / (2 * L2);

const nonNegative = (value: number | undefined, fallback: number): number =>
  value !== undefined && Number.isFinite(value) ? Math.max(0, value) : fallback;

/** Module temperature from the NOCT model with Duffie–Beckman wind correction. */
export function moduleTemperature(poaIrradiance: number, ambientTempC: number, windSpeed = 1): number {
  const irradiance = nonNegative(poaIrradiance, 0);
  const windFactor = 9.5 / (5.7 + 3.8 * nonNegative(windSpeed, 1));
  return ambientTempC + (irradiance / NOCT_IRRADIANCE) * (NOCT_C - 20) * windFactor;
}

/** Inverter AC output for a DC input (no clipping applied), W. */
export function inverterAcPower(dcW: number, ratedW: number): number {
  if (!(ratedW > 0) || !(dcW > 0)) return 0;
  const x = dcW / ratedW;
  return Math.max(0, dcW - ratedW * (L0 + L1 * x + L2 * x * x));
}

export function pvPower(input: PvPowerInput): PvPowerOutput {
  if (!Number.isFinite(input.ambientTempC)) throw new RangeError(`ambientTempC must be finite, got ${input.ambientTempC}`);
  const irradiance = nonNegative(input.poaIrradiance, 0);
  const capacityW = nonNegative(input.capacityKwp, 0) * 1000;
  const inverterMaxW = nonNegative(input.inverterMaxW, capacityW);
  const derate = Math.min(1, nonNegative(input.derate, 0.9));
  const moduleTempC = moduleTemperature(irradiance, input.ambientTempC, input.windSpeed);

  // Extreme module temperatures must not turn the factor (and hence power) negative.
  const temperatureFactor = Math.max(0, 1 + TEMP_COEFFICIENT * (moduleTempC - STC_TEMP_C));
  const availableDcW = capacityW * (irradiance / STC_IRRADIANCE) * temperatureFactor * derate;

  const acUnclipped = inverterAcPower(availableDcW, inverterMaxW);
  if (acUnclipped <= 0) {
    // Below the inverter's start threshold nothing is fed and the strings sit at open circuit.
    return { dcW: 0, acW: 0, moduleTempC };
  }
  if (acUnclipped >= inverterMaxW) {
    // Clipping: the inverter moves off the maximum power point and draws only what it can convert.
    return { dcW: Math.min(availableDcW, CLIP_LOAD * inverterMaxW), acW: inverterMaxW, moduleTempC };
  }
  return { dcW: availableDcW, acW: acUnclipped, moduleTempC };
}

export interface MpptReading {
  voltageV: number;
  currentA: number;
  powerW: number;
}

const MIN_MPPT_VOLTAGE = 300;
const MAX_MPPT_VOLTAGE = 700;

/**
 * Splits inverter DC power over its MPP trackers. Each tracker's string length and share come from
 * a fork of `random` named after the tracker, so they stay the same for a device from call to call;
 * only a small per-sample jitter is drawn from `random` itself.
 */
export function splitMppt(dcW: number, mpptCount: number, random: Random): MpptReading[] {
  if (!Number.isInteger(mpptCount) || mpptCount < 1) {
    throw new RangeError(`mpptCount must be a positive integer, got ${mpptCount}`);
  }
  const power = nonNegative(dcW, 0);

  const trackers = Array.from({ length: mpptCount }, (_, index) => {
    const fixed = random.fork(`mppt-${index}`);
    // Strings of 12–20 modules of ~32 V at MPP → roughly 380–640 V.
    const nominalVoltage = 380 + 260 * fixed.next();
    // Orientation, shading and string length differences: shares differ by several per cent.
    const share = Math.max(0.5, fixed.normal(1, 0.08)) * Math.max(0.8, random.normal(1, 0.01));
    return { nominalVoltage, share };
  });
  const totalShare = trackers.reduce((sum, tracker) => sum + tracker.share, 0);

  return trackers.map(({ nominalVoltage, share }) => {
    if (power <= 0) return { voltageV: 0, currentA: 0, powerW: 0 };
    const voltageV = Math.min(MAX_MPPT_VOLTAGE, Math.max(MIN_MPPT_VOLTAGE, nominalVoltage * random.normal(1, 0.01)));
    const powerW = (power * share) / totalShare;
    return { voltageV, currentA: powerW / voltageV, powerW };
  });
}
