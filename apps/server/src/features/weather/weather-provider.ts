import { conditionOfWmoCode, type Weather } from '@sunward/contracts/plant-energy';
import { z } from 'zod';

/** Current weather at a place from an outside service (plants without a weather station). */
export interface WeatherProvider {
  readonly name: string;
  /** null when the service cannot answer now; never throws. */
  current(latitude: number, longitude: number): Promise<Omit<Weather, 'source'> | null>;
}

export type FetchLike = (url: string, init: { signal: AbortSignal }) => Promise<{ ok: boolean; json(): Promise<unknown> }>;

const OpenMeteoSchema = z.object({
  current: z.object({
    time: z.string(),
    temperature_2m: z.number().nullable().optional(),
    relative_humidity_2m: z.number().nullable().optional(),
    wind_speed_10m: z.number().nullable().optional(),
    weather_code: z.number().nullable().optional(),
    shortwave_radiation: z.number().nullable().optional(),
  }),
});

/** Open-Meteo's forecast API: free, no key; asked only when WEATHER_PROVIDER=open-meteo. */
export function openMeteoProvider(fetchImpl: FetchLike = fetch, baseUrl = 'https://api.open-meteo.com'): WeatherProvider {
  return {
    name: 'open-meteo',
    async current(latitude, longitude) {
      const query = new URLSearchParams({
        latitude: latitude.toFixed(3),
        longitude: longitude.toFixed(3),
        current: 'temperature_2m,relative_humidity_2m,wind_speed_10m,weather_code,shortwave_radiation',
        wind_speed_unit: 'ms',
        timezone: 'GMT',
      });
      try {
        const response = await fetchImpl(`${baseUrl}/v1/forecast?${query}`, { signal: AbortSignal.timeout(5000) });
        if (!response.ok) return null;
        const parsed = OpenMeteoSchema.safeParse(await response.json());
        if (!parsed.success) return null;
        const c = parsed.data.current;
        // Open-Meteo gives GMT times without a zone suffix.
        const ts = new Date(`${c.time}${/Z|[+-]\d\d:?\d\d$/.test(c.time) ? '' : 'Z'}`);
        return {
          ts: Number.isNaN(ts.getTime()) ? null : ts.toISOString(),
          temperatureC: c.temperature_2m ?? null,
          irradianceWm2: c.shortwave_radiation ?? null,
          windSpeedMs: c.wind_speed_10m ?? null,
          humidity: c.relative_humidity_2m ?? null,
          condition: conditionOfWmoCode(c.weather_code),
        };
      } catch {
        return null;
      }
    },
  };
}

const ANSWER_TTL_MS = 10 * 60_000;
// A service that failed is asked again after a minute, not on every page view.
const FAILURE_TTL_MS = 60_000;
const CACHE_MAX = 5000;

/**
 * Remembers answers for 10 minutes per place (rounded to ~1 km), so a busy console asks the service
 * at most once per plant and 10 minutes. Concurrent asks for one place share one call.
 */
export function cachedProvider(provider: WeatherProvider, now: () => number = Date.now): WeatherProvider {
  const cache = new Map<string, { at: number; answer: Promise<Omit<Weather, 'source'> | null> }>();
  return {
    name: provider.name,
    current(latitude, longitude) {
      const key = `${latitude.toFixed(2)},${longitude.toFixed(2)}`;
      const hit = cache.get(key);
      const t = now();
      if (hit) {
        const ttl = hit.answer.then((a) => (a ? ANSWER_TTL_MS : FAILURE_TTL_MS));
        return ttl.then((ms) => (t - hit.at < ms ? hit.answer : fresh()));
      }
      return fresh();

      function fresh() {
        if (cache.size >= CACHE_MAX) cache.clear();
        const answer = provider.current(latitude, longitude);
        cache.set(key, { at: t, answer });
        return answer;
      }
    },
  };
}

/** The provider named by the WEATHER_PROVIDER setting, cached; undefined when none is set. */
export function weatherProviderFor(setting: 'open-meteo' | undefined): WeatherProvider | undefined {
  if (setting === 'open-meteo') return cachedProvider(openMeteoProvider());
  return undefined;
}
