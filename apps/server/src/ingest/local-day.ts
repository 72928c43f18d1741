/**
 * The one place that turns an instant into a plant-local calendar day (spec: storage is UTC, every
 * day/month/year boundary is the plant's time zone).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

// Every zone's offset and its changes are whole quarter-hours (Kathmandu +5:45, Chatham +12:45 included), so
// the local day is the same for a whole UTC quarter-hour: one Intl call per zone and quarter-hour instead of
// one per reading (a batch of 2,000 readings spent ~30 ms formatting dates).
const QUARTER_HOUR_MS = 15 * 60_000;
const MAX_CACHED = 20_000;
const days = new Map<string, Map<number, string>>();

export function localDay(instant: Date, timeZone: string): string {
  const quarter = Math.floor(instant.getTime() / QUARTER_HOUR_MS);
  let byQuarter = days.get(timeZone);
  const cached = byQuarter?.get(quarter);
  if (cached !== undefined) return cached;
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // en-CA formats as YYYY-MM-DD.
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  const day = formatter.format(instant);
  if (!byQuarter || byQuarter.size >= MAX_CACHED) {
    byQuarter = new Map();
    days.set(timeZone, byQuarter);
  }
  byQuarter.set(quarter, day);
  return day;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}
