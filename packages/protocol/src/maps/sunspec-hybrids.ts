/**
 * Hybrid inverters with a battery: the inverter models of the string inverters plus the battery base
 * model 802 and a vendor model for the energy flows SunSpec does not cover (grid, load, counters).
 */
import type { LocalisedText, ProtocolDefinition, RegisterPoint } from '../types.js';
import { BANK_STATES, BATTERY_EVENT_TEXTS, CHARGE_STATES, HYBRID_BATTERY_EVENT_BITS, SOC_RESERVE_MAX } from './battery-parts.js';
import { eventsOf, RegisterMapBuilder, sf, t } from './builder.js';
import { addCommonModel, addControlsModel, addInverterModel, addMpptModel, GRID_SETTINGS, inverterEvents } from './sunspec-parts.js';

const WORK_MODES: Record<number, LocalisedText> = {
  0: t('Self-consumption', '自发自用'),
  1: t('Time of use', '分时电价'),
  2: t('Backup priority', '备电优先'),
  3: t('Feed-in priority', '馈网优先'),
};

/**
 * Model 802 (battery base, L = 62) as a hybrid inverter sees its battery. Ids that model 103 already
 * uses (V, A, W, Evt1 and their scale factors) get a "Bat" prefix; the battery's power is BatW, never
 * the map's main power, which stays the inverter's AC output.
 */
function addBatteryModel(b: RegisterMapBuilder, voltage: 'lv' | 'hv'): void {
  const m = b.model(62);
  m(7, { ...SOC_RESERVE_MAX, section: 'battery' });
  m(8, {
    id: 'SoCRsvMin',
    label: t('Backup reserve SOC', '备电保留SOC'),
    type: 'u16',
    unit: '%',
    scaleFactorPoint: 'SoC_SF',
    operation: 'rw',
    min: 0,
    max: 100,
  });
  m(9, {
    id: 'SoC',
    label: t('Battery state of charge', '电池SOC'),
    type: 'u16',
    unit: '%',
    scaleFactorPoint: 'SoC_SF',
    role: 'soc',
    required: true,
  });
  m(11, { id: 'SoH', label: t('Battery state of health', '电池SOH'), type: 'u16', unit: '%', scaleFactorPoint: 'SoH_SF' });
  m(12, { id: 'NCyc', label: t('Battery cycle count', '电池循环次数'), type: 'u32' });
  m(14, { id: 'ChaSt', label: t('Battery charge status', '电池充放电状态'), type: 'u16', enumeration: CHARGE_STATES });
  m(20, { id: 'State', label: t('Battery state', '电池状态'), type: 'u16', enumeration: BANK_STATES });
  m(24, { id: 'BatEvt1', label: t('Battery event flags', '电池事件标志'), type: 'bits32', role: 'event_bits' });
  m(32, { id: 'BatV', label: t('Battery voltage', '电池电压'), type: 'u16', unit: 'V', scaleFactorPoint: 'BatV_SF' });
  if (voltage === 'hv') {
    // A high-voltage stack is limited by its voltage window (802: VMax/VMin, else AChaMax/ADisChaMax).
    m(33, { id: 'BatVMax', label: t('Maximum charge voltage', '最高充电电压'), type: 'u16', unit: 'V', scaleFactorPoint: 'BatV_SF' });
    m(34, { id: 'BatVMin', label: t('Minimum discharge voltage', '最低放电电压'), type: 'u16', unit: 'V', scaleFactorPoint: 'BatV_SF' });
  }
  m(35, { id: 'CellVMax', label: t('Highest cell voltage', '最高单体电压'), type: 'u16', unit: 'V', scaleFactorPoint: 'CellV_SF' });
  m(38, { id: 'CellVMin', label: t('Lowest cell voltage', '最低单体电压'), type: 'u16', unit: 'V', scaleFactorPoint: 'CellV_SF' });
  m(42, {
    id: 'BatA',
    label: t('Battery current (+discharge / −charge)', '电池电流（放电为正，充电为负）'),
    type: 's16',
    unit: 'A',
    scaleFactorPoint: 'BatA_SF',
  });
  if (voltage === 'lv') {
    // A 48 V battery is limited by current: the BMS tells the inverter how many amps it may take.
    m(43, { id: 'AChaMax', label: t('Maximum charge current', '最大充电电流'), type: 'u16', unit: 'A', scaleFactorPoint: 'AMax_SF' });
    m(44, { id: 'ADisChaMax', label: t('Maximum discharge current', '最大放电电流'), type: 'u16', unit: 'A', scaleFactorPoint: 'AMax_SF' });
  }
  m(45, {
    id: 'BatW',
    label: t('Battery power (+discharge / −charge)', '电池功率（放电为正，充电为负）'),
    type: 's16',
    unit: 'W',
    scaleFactorPoint: 'BatW_SF',
  });
  m(54, sf('SoC_SF', t('SOC scale factor', 'SOC比例因子')));
  m(56, sf('SoH_SF', t('SOH scale factor', 'SOH比例因子')));
  m(57, sf('BatV_SF', t('Battery voltage scale factor', '电池电压比例因子')));
  m(58, sf('CellV_SF', t('Cell voltage scale factor', '单体电压比例因子')));
  m(59, sf('BatA_SF', t('Battery current scale factor', '电池电流比例因子')));
  if (voltage === 'lv') m(60, sf('AMax_SF', t('Current limit scale factor', '电流限值比例因子')));
  m(61, sf('BatW_SF', t('Battery power scale factor', '电池功率比例因子')));
}

/**
 * Vendor model 64900 (L = 21): grid and load flows and the energy counters of a hybrid system, its work
 * mode and the battery's charge and discharge power limits.
 */
function addEnergyFlowModel(b: RegisterMapBuilder): void {
  const m = b.model(21);
  const counter = (id: string, label: LocalisedText, role?: RegisterPoint['role']) => ({
    id,
    label,
    type: 'u32' as const,
    accumulator: true,
    unit: 'Wh',
    scaleFactorPoint: 'FlowWH_SF',
    ...(role ? { role } : {}),
  });
  m(0, { id: 'GridW', label: t('Grid power (+import / −export)', '电网功率（购电为正，馈网为负）'), type: 's32', unit: 'W' });
  m(2, { id: 'LoadW', label: t('Load power', '负载功率'), type: 'u32', unit: 'W' });
  m(4, counter('BatChaWH', t('Battery charged energy', '电池累计充电量'), 'energy_charge_total'));
  m(6, counter('BatDisWH', t('Battery discharged energy', '电池累计放电量'), 'energy_discharge_total'));
  m(8, counter('GridImpWH', t('Energy imported from grid', '累计购电量')));
  m(10, counter('GridExpWH', t('Energy exported to grid', '累计馈网电量')));
  m(12, counter('LoadWH', t('Load energy', '负载累计用电量')));
  m(14, sf('FlowWH_SF', t('Energy flow scale factor', '能量流比例因子')));
  m(15, { id: 'BatTmp', label: t('Battery temperature', '电池温度'), type: 's16', unit: '°C', scale: 0.1 });
  m(16, { id: 'WorkMode', label: t('Work mode', '工作模式'), type: 'u16', operation: 'rw', min: 0, max: 3, enumeration: WORK_MODES });
  m(17, counter('PvWH', t('PV lifetime energy', '光伏累计发电量')));
  m(19, {
    id: 'BatChaWMax',
    label: t('Battery charge power limit', '电池充电功率限值'),
    type: 'u16',
    unit: 'W',
    operation: 'rw',
    min: 0,
    max: 20000,
    section: 'battery',
  });
  m(20, {
    id: 'BatDisWMax',
    label: t('Battery discharge power limit', '电池放电功率限值'),
    type: 'u16',
    unit: 'W',
    operation: 'rw',
    min: 0,
    max: 20000,
    section: 'battery',
  });
}

/**
 * The hybrids' settings groups: grid (power limit, power factor) and three-phase storage (work mode, SOC
 * window, charge and discharge power limits).
 */
const HYBRID_SETTINGS = {
  'dy/grid': GRID_SETTINGS,
  'dy/store/threePhase': ['WorkMode', 'SoCRsvMin', 'SocRsvMax', 'BatChaWMax', 'BatDisWMax'],
};

function hybridPoints(voltage: 'lv' | 'hv') {
  const b = RegisterMapBuilder.sunspec();
  addCommonModel(b);
  addInverterModel(b, 3);
  addControlsModel(b);
  addMpptModel(b, { inputs: 2, noun: t('MPPT', 'MPPT') });
  addBatteryModel(b, voltage);
  addEnergyFlowModel(b);
  return b.points;
}

const BATTERY_EVENTS = eventsOf(
  'BatEvt1',
  1101,
  BATTERY_EVENT_TEXTS.filter((text) => HYBRID_BATTERY_EVENT_BITS.includes(text.bit)),
);

const SOURCE =
  'SunSpec models 1, 103, 123, 160 with 2 MPPT, 802 (Apache-2.0, sunspec/models); vendor model 64900 for grid, load and energy counters';

export const SUNSPEC_HYBRID_LV: ProtocolDefinition = {
  id: 'sunspec-hybrid-lv',
  version: '1.0.0',
  name: t('Hybrid inverter, low-voltage (48 V) battery (SunSpec)', '储能逆变器（低压48V电池，SunSpec）'),
  family: 'hybrid_inverter',
  manufacturer: 'Generic SunSpec',
  source: SOURCE,
  points: hybridPoints('lv'),
  events: [...inverterEvents(), ...BATTERY_EVENTS],
  settingsFamilies: HYBRID_SETTINGS,
};

export const SUNSPEC_HYBRID_HV: ProtocolDefinition = {
  id: 'sunspec-hybrid-hv',
  version: '1.0.0',
  name: t('Hybrid inverter, high-voltage battery (SunSpec)', '储能逆变器（高压电池，SunSpec）'),
  family: 'hybrid_inverter',
  manufacturer: 'Generic SunSpec',
  source: SOURCE,
  points: hybridPoints('hv'),
  events: [...inverterEvents(), ...BATTERY_EVENTS],
  settingsFamilies: HYBRID_SETTINGS,
};
