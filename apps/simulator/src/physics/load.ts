/**
 * Consumption profiles. Shapes are sums of smooth bumps rather than lookup tables, so the load is
 * continuous in time whatever the sampling interval.
 */
import type { Random } from './random.js';

export type LoadProfile = 'household' | 'commercial';

const clamp = (value: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, value));
const wrapHour = (hour: number): number => ((hour % 24) + 24) % 24;
const logistic = (value: number): number => 1 / (1 + Math.exp(-value));

// Gaussian bump on the 24 h circle, so an evening peak does not stop abruptly at midnight.
function bump(hour: number, centre: number, width: number): number {
  const distance = Math.abs(hour - centre);
  const circular = Math.min(distance, 24 - distance);
  return Math.exp(-0.5 * (circular / width) ** 2);
}

const isWeekend = (dayOfWeek: number): boolean => dayOfWeek === 0 || dayOfWeek === 6;

function householdShape(hour: number, dayOfWeek: number): number {
  const standby = 0.4; // fridge, freezer, routers, heating pump
  if (isWeekend(dayOfWeek)) {
    // Later, longer breakfast, people at home at midday, similar evening.
    return standby + 0.7 * bump(hour, 9.5, 1.5) + 0.55 * bump(hour, 13, 2) + 1.3 * bump(hour, 19, 1.8);
  }
  return standby + 0.9 * bump(hour, 7, 0.9) + 0.25 * bump(hour, 13, 2.5) + 1.45 * bump(hour, 19.5, 1.7);
}

function commercialShape(hour: number, dayOfWeek: number): number {
  const base = 0.3; // servers, refrigeration, emergency lighting, ventilation at night
  const open = logistic((hour - 7.5) / 0.5) * logistic((18 - hour) / 0.6);
  const lunch = 0.1 * bump(hour, 12.5, 0.8); // canteen and kitchens
  if (dayOfWeek === 6) return base + 0.25 * logistic((hour - 8.5) / 0.5) * logistic((13.5 - hour) / 0.5);
  if (dayOfWeek === 0) return base;
  return base + 0.95 * open + lunch * open;
}

// Normalise each shape so that `baseKw` is the average load over a working day.
function weekdayMean(shape: (hour: number, dayOfWeek: number) => number): number {
  let sum = 0;
  const samples = 24 * 60;
  for (let i = 0; i < samples; i++) sum += shape((i * 24) / samples, 3);
  return sum / samples;
}
const HOUSEHOLD_MEAN = weekdayMean(householdShape);
const COMMERCIAL_MEAN = weekdayMean(commercialShape);

/**
 * Load in W. `baseKw` is the mean load of a working day; `dayOfWeek` is 0 = Sunday … 6 = Saturday
 * (as Date#getDay). Households get an appliance switching on now and then (kettle, oven, washer),
 * commercial sites only a small ripple.
 */
export function loadPower(profile: LoadProfile, localHour: number, dayOfWeek: number, baseKw: number, random: Random): number {
  if (!Number.isFinite(localHour)) throw new RangeError(`localHour must be finite, got ${localHour}`);
  if (!(baseKw >= 0) || !Number.isFinite(baseKw)) throw new RangeError(`baseKw must be a finite number ≥ 0, got ${baseKw}`);
  const hour = wrapHour(localHour);
  const day = ((Math.trunc(dayOfWeek) % 7) + 7) % 7;
  const baseW = baseKw * 1000;

  if (profile === 'household') {
    const shape = householdShape(hour, day) / HOUSEHOLD_MEAN;
    const noise = clamp(random.normal(1, 0.12), 0.6, 1.5);
    // Appliances are likelier when people are active (shape high) than at night.
    const applianceChance = 0.04 * clamp(shape - 0.4, 0, 2);
    const appliance = random.next() < applianceChance ? baseW * (1 + 2 * random.next()) : 0;
    return Math.max(0, baseW * shape * noise + appliance);
  }
  const shape = commercialShape(hour, day) / COMMERCIAL_MEAN;
  return Math.max(0, baseW * shape * clamp(random.normal(1, 0.04), 0.85, 1.15));
}
