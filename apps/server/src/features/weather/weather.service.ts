import type { Weather } from '@sunward/contracts/plant-energy';
import { pointValue } from '@sunward/protocol/positions';
import type { StationSnapshot } from './weather.repository.js';
import type { WeatherProvider } from './weather-provider.js';

/** A station reading older than this is not "current weather" any more; the provider is asked instead. */
export const STATION_STALE_MS = 2 * 3_600_000;

const NONE: Weather = {
  source: 'none',
  ts: null,
  temperatureC: null,
  irradianceWm2: null,
  windSpeedMs: null,
  humidity: null,
  condition: null,
};

/** The station's reading as weather: plane-of-array irradiance where it measures it, else horizontal. */
export function stationWeather(station: StationSnapshot): Weather {
  const value = (id: string) => pointValue(station.protocolId, station.values, id);
  const rain = value('Rain');
  return {
    source: 'station',
    ts: station.ts.toISOString(),
    temperatureC: value('TmpAmb'),
    irradianceWm2: value('POAI') ?? value('GHI'),
    windSpeedMs: value('WndSpd'),
    humidity: value('RH'),
    condition: rain !== null && rain > 0 ? 'rain' : null,
  };
}

/**
 * Current weather of a plant: its own weather station when it reported lately, otherwise the
 * configured provider, otherwise "none" (the console shows a calm "weather unavailable").
 */
export async function currentWeather(input: {
  station: StationSnapshot | undefined;
  place: { latitude: number; longitude: number };
  provider: WeatherProvider | undefined;
  now?: number;
}): Promise<Weather> {
  const now = input.now ?? Date.now();
  if (input.station && now - input.station.ts.getTime() < STATION_STALE_MS) return stationWeather(input.station);
  if (!input.provider) return NONE;
  const answer = await input.provider.current(input.place.latitude, input.place.longitude);
  return answer ? { source: 'provider', ...answer } : NONE;
}
