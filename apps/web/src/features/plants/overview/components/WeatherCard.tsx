import type { Weather, WeatherCondition } from '@sunward/contracts/plant-energy';
import { formatNumber } from '@sunward/contracts/units';
import { Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { Panel } from '../../../../components/Panel';
import { Text } from '../../../../components/Typo';
import { LoadFailed } from './LoadFailed';

const CONDITION_LABEL: Record<WeatherCondition, string> = {
  clear: 'overview.condClear',
  partlyCloudy: 'overview.condPartlyCloudy',
  cloudy: 'overview.condCloudy',
  fog: 'overview.condFog',
  drizzle: 'overview.condDrizzle',
  rain: 'overview.condRain',
  snow: 'overview.condSnow',
  storm: 'overview.condStorm',
};

/** A sun, a sun behind a cloud, a cloud, or a cloud with rain: drawn from the condition and irradiance. */
function WeatherGlyph({ condition, irradiance }: { condition: WeatherCondition | null; irradiance: number | null }) {
  const wet = condition === 'rain' || condition === 'drizzle' || condition === 'storm' || condition === 'snow';
  const sunny = condition === 'clear' || (condition === null && (irradiance ?? 0) > 500);
  const cloud = !sunny;
  const sun = sunny || condition === 'partlyCloudy' || (condition === null && (irradiance ?? 0) > 150);
  return (
    <svg viewBox="0 0 64 64" className="sw-ov-weather-glyph" aria-hidden>
      {sun && (
        <g transform={cloud ? 'translate(-8 -8)' : undefined}>
          <circle cx={32} cy={32} r={11} fill="#fbbf24" />
          {Array.from({ length: 8 }, (_, i) => {
            const a = (i * Math.PI) / 4;
            return (
              <line
                key={a}
                x1={32 + Math.cos(a) * 16}
                y1={32 + Math.sin(a) * 16}
                x2={32 + Math.cos(a) * 21}
                y2={32 + Math.sin(a) * 21}
                stroke="#fbbf24"
                strokeWidth={3}
                strokeLinecap="round"
              />
            );
          })}
        </g>
      )}
      {cloud && <path d="M20 46h26a9 9 0 0 0 0-18 12 12 0 0 0-23 3 7.5 7.5 0 0 0-3 15Z" fill="#e2e8f0" stroke="#94a3b8" strokeWidth={2} />}
      {wet && <path d="M24 51l-2 6M33 51l-2 6M42 51l-2 6" stroke="#3b82f6" strokeWidth={2.5} strokeLinecap="round" />}
    </svg>
  );
}

export function WeatherCard({ weather, failed, locale }: { weather: Weather | undefined; failed: boolean; locale: string }) {
  const { t } = useTranslation();
  const body = () => {
    if (!weather && failed) return <LoadFailed />;
    if (!weather) return <Skeleton active paragraph={{ rows: 2 }} />;
    if (weather.source === 'none')
      return (
        <div className="sw-ov-weather is-none" data-testid="weather-none">
          <WeatherGlyph condition="cloudy" irradiance={null} />
          <div>
            <Text strong>{t('overview.weatherUnavailable')}</Text>
            <br />
            <Text type="secondary">{t('overview.weatherHint')}</Text>
          </div>
        </div>
      );
    const value = (v: number | null, unit: string, decimals = 1) => (v === null ? '--' : `${formatNumber(v, locale, decimals)} ${unit}`);
    return (
      <div className="sw-ov-weather" data-testid="weather-now">
        <WeatherGlyph condition={weather.condition} irradiance={weather.irradianceWm2} />
        <div className="sw-ov-weather-main">
          <span className="sw-ov-weather-temp" data-testid="weather-temperature">
            {value(weather.temperatureC, '°C')}
          </span>
          <Text type="secondary">
            {weather.condition ? t(CONDITION_LABEL[weather.condition]) : ''}
            {weather.condition ? ' · ' : ''}
            {weather.source === 'station' ? t('overview.weatherStation') : t('overview.weatherProvider')}
          </Text>
        </div>
        <dl className="sw-ov-weather-facts">
          <dt>{t('overview.irradiance')}</dt>
          <dd>{value(weather.irradianceWm2, 'W/m²', 0)}</dd>
          <dt>{t('overview.wind')}</dt>
          <dd>{value(weather.windSpeedMs, 'm/s')}</dd>
          <dt>{t('overview.humidity')}</dt>
          <dd>{value(weather.humidity, '%', 0)}</dd>
        </dl>
      </div>
    );
  };
  return (
    <Panel title={t('overview.weatherTitle')} className="sw-ov-card sw-ov-weather-card" size="small" testId="weather-card">
      {body()}
    </Panel>
  );
}
