/** Grid-tied PV inverters: single and three phase string inverters and micro inverters (SunSpec). */
import type { ProtocolDefinition } from '../types.js';
import { RegisterMapBuilder, t } from './builder.js';
import { addCommonModel, addControlsModel, addInverterModel, addMpptModel, GRID_SETTINGS, inverterEvents } from './sunspec-parts.js';

const MPPT = t('MPPT', 'MPPT');

function inverterPoints(phases: 1 | 3, inputs: number, noun = MPPT) {
  const b = RegisterMapBuilder.sunspec();
  addCommonModel(b);
  addInverterModel(b, phases);
  addControlsModel(b);
  addMpptModel(b, { inputs, noun });
  return b.points;
}

export const SUNSPEC_INVERTER_1P: ProtocolDefinition = {
  id: 'sunspec-inverter-1p',
  version: '1.0.0',
  name: t('Single-phase string inverter (SunSpec)', '单相组串式逆变器（SunSpec）'),
  family: 'inverter',
  manufacturer: 'Generic SunSpec',
  source: 'SunSpec models 1, 101, 123, 160 with 2 MPPT (Apache-2.0, sunspec/models)',
  points: inverterPoints(1, 2),
  events: inverterEvents(),
  settingsFamilies: { 'dy/grid': GRID_SETTINGS },
};

export const SUNSPEC_INVERTER_3P: ProtocolDefinition = {
  id: 'sunspec-inverter-3p',
  version: '1.0.0',
  name: t('Three-phase string inverter (SunSpec)', '三相组串式逆变器（SunSpec）'),
  family: 'inverter',
  manufacturer: 'Generic SunSpec',
  source: 'SunSpec models 1, 103, 123, 160 with 3 MPPT (Apache-2.0, sunspec/models)',
  points: inverterPoints(3, 3),
  events: inverterEvents(),
  settingsFamilies: { 'dy/grid': GRID_SETTINGS },
};

export const SUNSPEC_MICRO_INVERTER: ProtocolDefinition = {
  id: 'sunspec-micro-inverter',
  version: '1.0.0',
  name: t('Micro inverter, 4 modules (SunSpec)', '微型逆变器（四块组件，SunSpec）'),
  family: 'micro_inverter',
  manufacturer: 'Generic SunSpec',
  source: 'SunSpec models 1, 101, 123, 160 with 4 PV inputs (Apache-2.0, sunspec/models)',
  points: inverterPoints(1, 4, t('PV input', '光伏输入')),
  events: inverterEvents(),
  settingsFamilies: { 'dy/grid': GRID_SETTINGS },
};
