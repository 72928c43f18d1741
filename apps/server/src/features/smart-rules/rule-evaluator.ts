import { RULE_LIMITS, type RuleConditions, type RuleValues } from '@sunward/contracts/smart-home';

export interface RuleState {
  holdingSince: Date | null;
  active: boolean;
  lastFiredAt: Date | null;
}

export interface ConditionsMet {
  pvSurplus: boolean | null;
  socAbove: boolean | null;
  timeWindow: boolean | null;
}

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** Whether a local time lies in a window; a window whose end is before its start spans midnight. */
export function inWindow(time: string, window: { from: string; to: string }): boolean {
  const t = minutesOf(time);
  const from = minutesOf(window.from);
  const to = minutesOf(window.to);
  return from <= to ? t >= from && t < to : t >= from || t < to;
}

/**
 * Each condition against the live values: `release` lowers the thresholds by the hysteresis (a fired rule stays
 * held until the values fall clearly below, so it never flaps around a threshold). A missing value fails.
 */
export function conditionsMet(conditions: RuleConditions, values: RuleValues, release = false): ConditionsMet {
  const surplus = conditions.pvSurplus;
  const surplusMargin = surplus ? Math.max(RULE_LIMITS.surplusHysteresisMinW, surplus.aboveW * RULE_LIMITS.surplusHysteresisRatio) : 0;
  return {
    pvSurplus: surplus
      ? values.pvSurplusW !== null && values.pvSurplusW > (release ? surplus.aboveW - surplusMargin : surplus.aboveW)
      : null,
    socAbove:
      conditions.socAbove === undefined
        ? null
        : values.soc !== null && values.soc > (release ? conditions.socAbove - RULE_LIMITS.socHysteresisPoints : conditions.socAbove),
    timeWindow: conditions.timeWindow ? inWindow(values.localTime, conditions.timeWindow) : null,
  };
}

const allMet = (met: ConditionsMet) => met.pvSurplus !== false && met.socAbove !== false && met.timeWindow !== false;

/**
 * One evaluation of a rule: it fires when every condition has held (the surplus for its minutes) and the minimum
 * interval since its last firing has passed; once fired it stays active, without firing again, until a condition
 * falls past its hysteresis (released). Pure: the caller stores the state and runs the actions.
 */
export function evaluateRule(
  rule: { conditions: RuleConditions; minIntervalMinutes: number },
  state: RuleState,
  values: RuleValues,
  now: Date,
): { state: RuleState; fire: boolean } {
  if (state.active) {
    if (allMet(conditionsMet(rule.conditions, values, true))) return { state, fire: false };
    return { state: { ...state, active: false, holdingSince: null }, fire: false };
  }
  if (!allMet(conditionsMet(rule.conditions, values))) return { state: { ...state, holdingSince: null }, fire: false };
  const holdingSince = state.holdingSince ?? now;
  const heldMs = (rule.conditions.pvSurplus?.minutes ?? 0) * 60_000;
  const intervalOk = state.lastFiredAt === null || now.getTime() - state.lastFiredAt.getTime() >= rule.minIntervalMinutes * 60_000;
  if (now.getTime() - holdingSince.getTime() < heldMs || !intervalOk) return { state: { ...state, holdingSince }, fire: false };
  return { state: { holdingSince, active: true, lastFiredAt: now }, fire: true };
}
