import { isLatitude, isLongitude } from '@sunward/contracts/plants';
import { isPlainText, isTimeZoneName } from '@sunward/contracts/validators';
import { describe, expect, it } from 'vitest';
import { foldText, matchTimeZone, PLACES, placeLabel, searchPlaces } from './gazetteer';

// An older server listed only the runtime's (ICU's) spellings; today's lists every IANA name
// (features/plants/time-zones.ts). Places must match either.
const SERVER_ZONES = [...Intl.supportedValuesOf('timeZone'), 'UTC'];

describe('built-in gazetteer', () => {
  it('holds a few hundred places with valid coordinates, a zone the server knows and a storable region', () => {
    expect(PLACES.length).toBeGreaterThanOrEqual(250);
    for (const place of PLACES) {
      expect(isLatitude(place.lat) && isLongitude(place.lng), place.name).toBe(true);
      expect(matchTimeZone(place.timezone, SERVER_ZONES), `${place.name} ${place.timezone}`).toBeDefined();
      expect(isTimeZoneName(place.timezone), place.timezone).toBe(true);
      expect(isPlainText(place.country), place.country).toBe(true);
      expect(placeLabel(place).length).toBeLessThanOrEqual(200);
    }
  });

  it('has no place twice in one country', () => {
    const keys = PLACES.map((p) => `${p.name}|${p.country}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('covers the large solar markets', () => {
    const count = (country: string) => PLACES.filter((p) => p.country === country).length;
    for (const country of ['China', 'India', 'Brazil', 'Vietnam', 'Turkey', 'Australia', 'United States', 'Germany', 'Spain', 'Italy'])
      expect(count(country), country).toBeGreaterThanOrEqual(5);
  });

  it('finds a city by the start of its name, ignoring case and accents', () => {
    expect(searchPlaces('Berlin')[0]).toMatchObject({ name: 'Berlin', country: 'Germany', timezone: 'Europe/Berlin' });
    expect(searchPlaces('berl')[0]?.name).toBe('Berlin');
    expect(searchPlaces('sao paulo')[0]?.name).toBe('São Paulo');
    expect(searchPlaces('lodz')[0]?.name).toBe('Łódź');
    expect(searchPlaces('izmir')[0]?.name).toBe('Izmir');
  });

  it('finds local spellings and words inside a name', () => {
    expect(searchPlaces('北京')[0]?.name).toBe('Beijing');
    expect(searchPlaces('münchen')[0]?.name).toBe('Munich');
    expect(searchPlaces('chi minh')[0]?.name).toBe('Ho Chi Minh City');
  });

  it('ranks a name that starts with the text above one that only contains it, and limits the list', () => {
    const names = searchPlaces('san').map((p) => p.name);
    expect(names.length).toBeLessThanOrEqual(8);
    expect(
      names.every((n) =>
        foldText(n)
          .split(/[\s-]+/)
          .some((w) => w.startsWith('san')),
      ),
    ).toBe(true);
    expect(searchPlaces('')).toEqual([]);
  });

  it('matches a zone to the server’s spelling of it', () => {
    expect(matchTimeZone('Europe/Berlin', ['Europe/Berlin'])).toBe('Europe/Berlin');
    expect(matchTimeZone('Asia/Kolkata', SERVER_ZONES)).toBeDefined();
    expect(matchTimeZone('Asia/Kolkata', ['Europe/Berlin'])).toBeUndefined();
    // The user's spelling wins when the list has it: no rewrite to an alias.
    expect(matchTimeZone('Asia/Kolkata', ['Asia/Calcutta', 'Asia/Kolkata'])).toBe('Asia/Kolkata');
    expect(matchTimeZone('Asia/Calcutta', ['Asia/Calcutta', 'Asia/Kolkata'])).toBe('Asia/Calcutta');
    expect(matchTimeZone('Not/AZone', SERVER_ZONES)).toBeUndefined();
  });
});
