/**
 * Battery energy store. Sign convention follows the grid-side meter view of the battery:
 * positive W = discharging (battery supplies power), negative W = charging.
 * Losses are split evenly between charge and discharge (each √η of the round-trip efficiency),
 * so SOC tracks the energy actually stored.
 */

export interface BatteryState {
  socPct: number;
  capacityKwh: number;
  maxChargeW: number;
  maxDischargeW: number;
  minSocPct: number;
  maxSocPct: number;
  /** 0..1, AC to AC. */
  roundTripEfficiency: number;
}

export interface BatteryStep {
  state: BatteryState;
  /** Power actually delivered (+) or absorbed (−) at the terminals, after limits. */
  actualW: number;
  /** Energy taken in at the terminals during the step, Wh (≥ 0). */
  chargedWh: number;
  /** Energy delivered at the terminals during the step, Wh (≥ 0). */
  dischargedWh: number;
}

const SECONDS_PER_HOUR = 3600;

/** One-way efficiency, applied once on the way in and once on the way out. */
export function oneWayEfficiency(roundTripEfficiency: number): number {
  return Math.sqrt(Math.min(1, Math.max(0.01, roundTripEfficiency)));
}

/** Energy stored (not deliverable) in Wh for a state of charge. */
export function storedWh(state: BatteryState): number {
  return (state.socPct / 100) * state.capacityKwh * 1000;
}

export function stepBattery(state: BatteryState, requestedW: number, dtSeconds: number): BatteryStep {
  if (!Number.isFinite(requestedW)) throw new RangeError(`requestedW must be finite, got ${requestedW}`);
  if (!Number.isFinite(dtSeconds) || dtSeconds < 0) throw new RangeError(`dtSeconds must be a finite number ≥ 0, got ${dtSeconds}`);
  const idle: BatteryStep = { state, actualW: 0, chargedWh: 0, dischargedWh: 0 };
  const capacityWh = state.capacityKwh * 1000;
  const hours = dtSeconds / SECONDS_PER_HOUR;
  // hours can underflow to 0 for a denormal dt; every limit below divides by it.
  if (!(hours > 0) || requestedW === 0 || !(capacityWh > 0)) return idle;
  const efficiency = oneWayEfficiency(state.roundTripEfficiency);
  const whPerPct = capacityWh / 100;

  if (requestedW > 0) {
    // A battery already below its floor (e.g. after the floor was raised) may not discharge further.
    const availableStoredWh = Math.max(0, state.socPct - state.minSocPct) * whPerPct;
    const energyLimitW = (availableStoredWh * efficiency) / hours;
    const actualW = Math.max(0, Math.min(requestedW, state.maxDischargeW, energyLimitW));
    if (actualW === 0) return idle;
    const dischargedWh = actualW * hours;
    // When the energy limit binds, land exactly on the floor instead of a rounding error beside it.
    const socPct =
      actualW === energyLimitW ? state.minSocPct : Math.max(state.minSocPct, state.socPct - dischargedWh / efficiency / whPerPct);
    return { state: { ...state, socPct }, actualW, chargedWh: 0, dischargedWh };
  }

  const roomStoredWh = Math.max(0, state.maxSocPct - state.socPct) * whPerPct;
  const energyLimitW = roomStoredWh / efficiency / hours;
  const chargeW = Math.max(0, Math.min(-requestedW, state.maxChargeW, energyLimitW));
  if (chargeW === 0) return idle;
  const chargedWh = chargeW * hours;
  const socPct = chargeW === energyLimitW ? state.maxSocPct : Math.min(state.maxSocPct, state.socPct + (chargedWh * efficiency) / whPerPct);
  return { state: { ...state, socPct }, actualW: -chargeW, chargedWh, dischargedWh: 0 };
}

export interface SelfConsumptionInput {
  pvW: number;
  loadW: number;
  battery: BatteryState;
  /** Interval the decision holds for; limits what a nearly full or empty battery can take. Default 60 s. */
  dtSeconds?: number | undefined;
}

export interface SelfConsumptionDispatch {
  /** Battery power: + discharge, − charge. Pass it to stepBattery with the same dtSeconds. */
  batteryW: number;
  /** Grid power: + import, − export. */
  gridW: number;
}

/**
 * Self-consumption: surplus PV charges the battery, a deficit is covered from the battery,
 * and the grid takes whatever remains. So pv + gridW + batteryW = load always holds.
 */
export function dispatchSelfConsumption(input: SelfConsumptionInput): SelfConsumptionDispatch {
  const { pvW, loadW, battery } = input;
  if (!Number.isFinite(pvW) || !Number.isFinite(loadW)) throw new RangeError('pvW and loadW must be finite');
  const dtSeconds = input.dtSeconds ?? 60;
  const deficitW = loadW - pvW;
  // stepBattery applies every limit (power, SOC, efficiency), so the dispatch never asks for the impossible.
  const batteryW = stepBattery(battery, deficitW, dtSeconds).actualW;
  return { batteryW, gridW: deficitW - batteryW };
}
