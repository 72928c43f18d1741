/**
 * Unit scaling and number display (spec 01 §9): W, kW, MW, GW and kWh, MWh, GWh with thousand
 * separators. The spec's ladders skip MW/MWh in one wording; we keep every step of 1,000 so a
 * number never shows more than three integer digits before its unit changes (docs/decisions.md).
 */

export interface Scaled {
  value: number;
  unit: string;
}

const POWER_UNITS = ['W', 'kW', 'MW', 'GW'] as const;
const ENERGY_UNITS = ['kWh', 'MWh', 'GWh'] as const;

function scale(value: number, units: readonly string[]): Scaled {
  let index = 0;
  let scaled = value;
  while (Math.abs(scaled) >= 1000 && index < units.length - 1) {
    scaled /= 1000;
    index++;
  }
  return { value: scaled, unit: units[index] ?? '' };
}

/** Power given in watts. */
export function scalePower(watts: number): Scaled {
  return scale(watts, POWER_UNITS);
}

/** Energy given in watt-hours; shown from kWh up. */
export function scaleEnergy(wattHours: number): Scaled {
  return scale(wattHours / 1000, ENERGY_UNITS);
}

/** A number with thousand separators in the user's locale and at most `decimals` decimals. */
export function formatNumber(value: number, locale = 'en', decimals = 2): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: decimals, minimumFractionDigits: 0 }).format(value);
}

export function formatScaled(s: Scaled, locale = 'en', decimals = 2): string {
  return `${formatNumber(s.value, locale, decimals)} ${s.unit}`;
}

export function formatPower(watts: number | null | undefined, locale = 'en'): string {
  return watts === null || watts === undefined || !Number.isFinite(watts) ? '--' : formatScaled(scalePower(watts), locale);
}

export function formatEnergy(wattHours: number | null | undefined, locale = 'en'): string {
  return wattHours === null || wattHours === undefined || !Number.isFinite(wattHours) ? '--' : formatScaled(scaleEnergy(wattHours), locale);
}

/** Capacity given in kWp. */
export function formatCapacity(kwp: number, locale = 'en'): string {
  return kwp >= 1000 ? `${formatNumber(kwp / 1000, locale)} MWp` : `${formatNumber(kwp, locale)} kWp`;
}
