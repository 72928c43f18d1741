/** Weather station: irradiance (SunSpec 302), base met (307) and module temperature (308). */
import type { ProtocolDefinition } from '../types.js';
import { RegisterMapBuilder, t } from './builder.js';
import { addCommonModel } from './sunspec-parts.js';

function weatherPoints() {
  const b = RegisterMapBuilder.sunspec();
  addCommonModel(b);

  // Model 302 (irradiance) with one sensor set (L = 5).
  const irradiance = b.model(5);
  irradiance(0, { id: 'GHI', label: t('Global horizontal irradiance', '水平面总辐照度'), type: 'u16', unit: 'W/m²' });
  irradiance(1, { id: 'POAI', label: t('Plane-of-array irradiance', '组件倾斜面辐照度'), type: 'u16', unit: 'W/m²' });
  irradiance(2, { id: 'DFI', label: t('Diffuse irradiance', '散射辐照度'), type: 'u16', unit: 'W/m²' });
  irradiance(3, { id: 'DNI', label: t('Direct normal irradiance', '法向直射辐照度'), type: 'u16', unit: 'W/m²' });

  // Model 307 (base met, L = 11). TmpAmb has a fixed scale factor of -1 in the model, hence scale 0.1.
  const met = b.model(11);
  met(0, { id: 'TmpAmb', label: t('Ambient temperature', '环境温度'), type: 's16', unit: '°C', scale: 0.1 });
  met(1, { id: 'RH', label: t('Relative humidity', '相对湿度'), type: 's16', unit: '%' });
  met(2, { id: 'Pres', label: t('Barometric pressure', '大气压力'), type: 's16', unit: 'hPa' });
  met(3, { id: 'WndSpd', label: t('Wind speed', '风速'), type: 's16', unit: 'm/s' });
  met(4, { id: 'WndDir', label: t('Wind direction', '风向'), type: 's16', unit: '°' });
  met(5, { id: 'Rain', label: t('Rainfall', '降雨量'), type: 's16', unit: 'mm' });

  // Model 308 (mini met, L = 4): only the back-of-module temperature; the rest repeats 302 and 307.
  const mini = b.model(4);
  mini(1, { id: 'TmpBOM', label: t('Module temperature', '组件温度'), type: 's16', unit: '°C', scale: 0.1 });
  return b.points;
}

export const SUNSPEC_WEATHER_STATION: ProtocolDefinition = {
  id: 'sunspec-weather-station',
  version: '1.0.0',
  name: t('Weather station (SunSpec)', '气象站（SunSpec）'),
  family: 'weather_station',
  manufacturer: 'Generic SunSpec',
  source: 'SunSpec models 1, 302, 307, 308 (Apache-2.0, sunspec/models)',
  points: weatherPoints(),
  events: [],
};
