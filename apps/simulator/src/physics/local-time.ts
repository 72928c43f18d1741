/**
 * Wall-clock time of a plant from its IANA time zone, DST included, via Intl (no tz database to ship).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

// Building a DateTimeFormat is costly and the simulator asks every tick, so keep one per zone.
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      // h23, not hour12: false: the latter prints midnight as "24" in some ICU versions.
      hourCycle: 'h23',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function localParts(date: Date, timeZone: string): { hour: number; minute: number; second: number; weekday: number } {
  if (!Number.isFinite(date.getTime())) throw new RangeError('invalid date');
  const parts = formatterFor(timeZone).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = WEEKDAYS.indexOf(part('weekday'));
  const hour = Number(part('hour'));
  const minute = Number(part('minute'));
  const second = Number(part('second'));
  if (weekday < 0 || !Number.isFinite(hour) || !Number.isFinite(minute) || !Number.isFinite(second)) {
    throw new Error(`unexpected Intl output for ${timeZone}`);
  }
  return { hour: hour % 24, minute, second, weekday };
}

/** Local hour of day in [0, 24), fractional (10:30 → 10.5). Throws RangeError for an unknown zone. */
export function localHour(date: Date, timeZone: string): number {
  const { hour, minute, second } = localParts(date, timeZone);
  // Intl drops milliseconds; all real time zones have whole-second offsets, so the UTC fraction applies.
  const milliseconds = ((date.getTime() % 1000) + 1000) % 1000;
  return hour + minute / 60 + (second + milliseconds / 1000) / 3600;
}

/** Local day of week, 0 = Sunday … 6 = Saturday (as Date#getDay). */
export function localDayOfWeek(date: Date, timeZone: string): number {
  return localParts(date, timeZone).weekday;
}
