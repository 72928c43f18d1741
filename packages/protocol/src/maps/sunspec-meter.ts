/** Three-phase grid meter (SunSpec model 203, wye-connected abcn). */
import type { ProtocolDefinition } from '../types.js';
import { ev, eventsOf, RegisterMapBuilder, sf, t } from './builder.js';
import { addCommonModel } from './sunspec-parts.js';

const PHASES = ['A', 'B', 'C'] as const;

/**
 * Model 203 (L = 105). Sign convention as in SunSpec meters: positive power is imported from the grid,
 * negative is exported. Import is the meter's energy_total, export its energy_export_total.
 */
function meterPoints() {
  const b = RegisterMapBuilder.sunspec();
  addCommonModel(b);
  const m = b.model(105);
  const phased = (offset: number, id: string, unit: string, factor: string, en: string, zh: string) => {
    m(offset, { id, label: t(`Total ${en.toLowerCase()}`, zh), type: 's16', unit, scaleFactorPoint: factor });
    PHASES.forEach((phase, i) => {
      m(offset + 1 + i, {
        id: `${id}ph${phase}`,
        label: t(`Phase ${phase} ${en.toLowerCase()}`, `${phase}相${zh.replace(/^总/, '')}`),
        type: 's16',
        unit,
        scaleFactorPoint: factor,
      });
    });
  };
  m(0, { id: 'A', label: t('Total current', '总电流'), type: 's16', unit: 'A', scaleFactorPoint: 'A_SF' });
  PHASES.forEach((phase, i) => {
    m(1 + i, { id: `Aph${phase}`, label: t(`Phase ${phase} current`, `${phase}相电流`), type: 's16', unit: 'A', scaleFactorPoint: 'A_SF' });
  });
  m(4, sf('A_SF', t('Current scale factor', '电流比例因子')));
  m(5, { id: 'PhV', label: t('Average phase voltage', '平均相电压'), type: 's16', unit: 'V', scaleFactorPoint: 'V_SF' });
  PHASES.forEach((phase, i) => {
    m(6 + i, {
      id: `PhVph${phase}`,
      label: t(`Phase ${phase} voltage`, `${phase}相电压`),
      type: 's16',
      unit: 'V',
      scaleFactorPoint: 'V_SF',
    });
  });
  m(9, { id: 'PPV', label: t('Average line voltage', '平均线电压'), type: 's16', unit: 'V', scaleFactorPoint: 'V_SF' });
  const lines = ['AB', 'BC', 'CA'] as const;
  lines.forEach((pair, i) => {
    m(10 + i, { id: `PhVph${pair}`, label: t(`Line voltage ${pair}`, `${pair}线电压`), type: 's16', unit: 'V', scaleFactorPoint: 'V_SF' });
  });
  m(13, sf('V_SF', t('Voltage scale factor', '电压比例因子')));
  m(14, { id: 'Hz', label: t('Frequency', '频率'), type: 's16', unit: 'Hz', scaleFactorPoint: 'Hz_SF' });
  m(15, sf('Hz_SF', t('Frequency scale factor', '频率比例因子')));
  m(16, {
    id: 'W',
    label: t('Total active power (+import / −export)', '总有功功率（购电为正，馈网为负）'),
    type: 's16',
    unit: 'W',
    scaleFactorPoint: 'W_SF',
    role: 'power',
    required: true,
  });
  PHASES.forEach((phase, i) => {
    m(17 + i, {
      id: `Wph${phase}`,
      label: t(`Phase ${phase} active power`, `${phase}相有功功率`),
      type: 's16',
      unit: 'W',
      scaleFactorPoint: 'W_SF',
    });
  });
  m(20, sf('W_SF', t('Power scale factor', '功率比例因子')));
  phased(21, 'VA', 'VA', 'VA_SF', 'Apparent power', '总视在功率');
  m(25, sf('VA_SF', t('Apparent power scale factor', '视在功率比例因子')));
  phased(26, 'VAR', 'var', 'VAR_SF', 'Reactive power', '总无功功率');
  m(30, sf('VAR_SF', t('Reactive power scale factor', '无功功率比例因子')));
  phased(31, 'PF', '%', 'PF_SF', 'Power factor', '总功率因数');
  m(35, sf('PF_SF', t('Power factor scale factor', '功率因数比例因子')));
  m(36, {
    id: 'TotWhExp',
    label: t('Total exported energy', '累计馈网电量'),
    type: 'u32',
    accumulator: true,
    unit: 'Wh',
    scaleFactorPoint: 'TotWh_SF',
    role: 'energy_export_total',
    required: true,
  });
  m(44, {
    id: 'TotWhImp',
    label: t('Total imported energy', '累计购电量'),
    type: 'u32',
    accumulator: true,
    unit: 'Wh',
    scaleFactorPoint: 'TotWh_SF',
    role: 'energy_total',
    required: true,
  });
  m(52, sf('TotWh_SF', t('Energy scale factor', '电量比例因子')));
  m(103, { id: 'Evt', label: t('Meter event flags', '电表事件标志'), type: 'bits32', role: 'event_bits' });
  return b.points;
}

export const SUNSPEC_METER_3P: ProtocolDefinition = {
  id: 'sunspec-meter-3p',
  version: '1.0.0',
  name: t('Three-phase meter (SunSpec)', '三相电表（SunSpec）'),
  family: 'meter',
  manufacturer: 'Generic SunSpec',
  source: 'SunSpec models 1, 203 (Apache-2.0, sunspec/models)',
  points: meterPoints(),
  events: eventsOf('Evt', 2001, [
    ev(
      2,
      'fault',
      t('Meter power supply lost', '电表失电'),
      t("Check the meter's auxiliary supply and voltage wiring", '检查电表辅助电源和电压接线'),
    ),
    ev(
      3,
      'warning',
      t('Under-voltage', '电压过低'),
      t('Check the grid voltage and the voltage inputs of the meter', '检查电网电压和电表电压输入'),
    ),
    ev(
      4,
      'warning',
      t('Low power factor', '功率因数过低'),
      t("Check reactive loads and the inverters' reactive power settings", '检查无功负载以及逆变器无功功率设置'),
    ),
    ev(5, 'warning', t('Over-current', '电流过大'), t('Check the load and the CT ratio setting', '检查负载以及电流互感器变比设置')),
    ev(
      6,
      'warning',
      t('Over-voltage', '电压过高'),
      t('Check the grid voltage and the voltage inputs of the meter', '检查电网电压和电表电压输入'),
    ),
    ev(
      7,
      'fault',
      t('Current transformer missing', '电流互感器缺失'),
      t('Check that every CT is connected and points in the right direction', '检查各电流互感器是否接好、方向是否正确'),
    ),
  ]),
};
