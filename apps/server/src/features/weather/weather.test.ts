import { pointIndex } from '@sunward/protocol/positions';
import { describe, expect, it } from 'vitest';
import { currentWeather, STATION_STALE_MS } from './weather.service.js';
import { cachedProvider, type FetchLike, openMeteoProvider, type WeatherProvider } from './weather-provider.js';

const PLACE = { latitude: 52.52, longitude: 13.4 };

function stationValues(values: Record<string, number>): number[] {
  const out: number[] = [];
  for (const [id, v] of Object.entries(values)) {
    const index = pointIndex('sunspec-weather-station', id);
    if (index === undefined) throw new Error(`no point ${id}`);
    out[index - 1] = v;
  }
  return Array.from(out, (v) => v ?? Number.NaN);
}

function fakeProvider(answers: number[]): WeatherProvider & { calls: number } {
  const provider = {
    name: 'fake',
    calls: 0,
    async current() {
      provider.calls++;
      const t = answers.shift();
      return t === undefined
        ? null
        : { ts: null, temperatureC: t, irradianceWm2: null, windSpeedMs: null, humidity: null, condition: null };
    },
  };
  return provider;
}

describe('current weather', () => {
  it('prefers a station that reported lately, asks the provider otherwise, and says none without one', async () => {
    const now = Date.parse('2024-06-01T12:00:00Z');
    const station = {
      protocolId: 'sunspec-weather-station',
      ts: new Date(now - 60_000),
      values: stationValues({ TmpAmb: 18.5, POAI: 640, WndSpd: 5, RH: 70, Rain: 1 }),
    };
    expect(await currentWeather({ station, place: PLACE, provider: undefined, now })).toMatchObject({
      source: 'station',
      temperatureC: 18.5,
      irradianceWm2: 640,
      condition: 'rain',
    });
    const stale = { ...station, ts: new Date(now - STATION_STALE_MS - 1) };
    expect((await currentWeather({ station: stale, place: PLACE, provider: fakeProvider([25]), now })).source).toBe('provider');
    expect((await currentWeather({ station: undefined, place: PLACE, provider: undefined, now })).source).toBe('none');
    expect((await currentWeather({ station: undefined, place: PLACE, provider: fakeProvider([]), now })).source).toBe('none');
  });

  it('asks the provider once per place and 10 minutes, a failed one again after a minute', async () => {
    let clock = 0;
    const inner = fakeProvider([20, 21]);
    const cached = cachedProvider(inner, () => clock);
    expect((await cached.current(1, 2))?.temperatureC).toBe(20);
    clock = 9 * 60_000;
    expect((await cached.current(1.001, 2.001))?.temperatureC).toBe(20);
    expect(inner.calls).toBe(1);
    clock = 11 * 60_000;
    expect((await cached.current(1, 2))?.temperatureC).toBe(21);
    const failing = fakeProvider([]);
    const cachedFailing = cachedProvider(failing, () => clock);
    await cachedFailing.current(3, 4);
    await cachedFailing.current(3, 4);
    expect(failing.calls).toBe(1);
    clock += 61_000;
    await cachedFailing.current(3, 4);
    expect(failing.calls).toBe(2);
  });

  it('reads Open-Meteo’s current conditions and survives its failures (no network: a fake fetch)', async () => {
    const urls: string[] = [];
    const ok: FetchLike = async (url) => {
      urls.push(url);
      return {
        ok: true,
        json: async () => ({
          current: {
            time: '2024-06-01T12:00',
            temperature_2m: 22.1,
            relative_humidity_2m: 55,
            wind_speed_10m: 3.4,
            weather_code: 3,
            shortwave_radiation: 610,
          },
        }),
      };
    };
    expect(await openMeteoProvider(ok, 'http://weather.test').current(52.52, 13.405)).toEqual({
      ts: '2024-06-01T12:00:00.000Z',
      temperatureC: 22.1,
      irradianceWm2: 610,
      windSpeedMs: 3.4,
      humidity: 55,
      condition: 'cloudy',
    });
    expect(urls[0]).toMatch(/^http:\/\/weather\.test\/v1\/forecast\?latitude=52\.520&longitude=13\.405/);
    const down: FetchLike = async () => {
      throw new Error('ECONNREFUSED');
    };
    expect(await openMeteoProvider(down).current(0, 0)).toBeNull();
    const garbage: FetchLike = async () => ({ ok: true, json: async () => ({ nope: 1 }) });
    expect(await openMeteoProvider(garbage).current(0, 0)).toBeNull();
  });
});
