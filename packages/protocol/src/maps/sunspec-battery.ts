/**
 * Battery system master (BMS): SunSpec model 802 for the pack, plus a vendor model for what 802 leaves
 * to vendors (system state, relays, per-cell voltages and temperatures, energy counters, BMS alarms).
 */
import type { LocalisedText, ProtocolDefinition } from '../types.js';
import { BATTERY_EVENT_TEXTS, CHARGE_STATES, SOC_RESERVE_MAX } from './battery-parts.js';
import { ev, eventsOf, RegisterMapBuilder, sf, t } from './builder.js';
import { addCommonModel } from './sunspec-parts.js';

const CELLS = 16;
const CELL_SENSORS = 8;

/** States of the master's start-up and run sequence, as Chinese BMS vendors number them. */
const SYSTEM_STATES: Record<number, LocalisedText> = {
  0: t('Initialising', '初始化'),
  1: t('Standby', '待机'),
  2: t('Power-on coding (addressing)', '上电编址'),
  3: t('Insulation detection', '绝缘检测'),
  4: t('Charging', '充电'),
  5: t('Discharging', '放电'),
  6: t('Locked', '锁定'),
};

const SET_OPERATIONS: Record<number, LocalisedText> = {
  1: t('Connect', '连接'),
  2: t('Disconnect', '断开'),
};

function bmsPoints() {
  const b = RegisterMapBuilder.sunspec();
  addCommonModel(b);

  // Model 802 (battery base, L = 62).
  const m = b.model(62);
  m(0, { id: 'AHRtg', label: t('Rated capacity', '额定容量'), type: 'u16', unit: 'Ah', scaleFactorPoint: 'AHRtg_SF' });
  m(1, { id: 'WHRtg', label: t('Rated energy', '额定电量'), type: 'u16', unit: 'Wh', scaleFactorPoint: 'WHRtg_SF' });
  m(2, {
    id: 'WChaRteMax',
    label: t('Rated maximum charge power', '额定最大充电功率'),
    type: 'u16',
    unit: 'W',
    scaleFactorPoint: 'WChaDisChaMax_SF',
  });
  m(3, {
    id: 'WDisChaRteMax',
    label: t('Rated maximum discharge power', '额定最大放电功率'),
    type: 'u16',
    unit: 'W',
    scaleFactorPoint: 'WChaDisChaMax_SF',
  });
  m(7, SOC_RESERVE_MAX);
  m(8, {
    id: 'SoCRsvMin',
    label: t('Minimum SOC (discharging stops)', '最低SOC（停止放电）'),
    type: 'u16',
    unit: '%',
    scaleFactorPoint: 'SoC_SF',
    operation: 'rw',
    min: 0,
    max: 50,
  });
  m(9, {
    id: 'SoC',
    label: t('State of charge', '荷电状态（SOC）'),
    type: 'u16',
    unit: '%',
    scaleFactorPoint: 'SoC_SF',
    role: 'soc',
    required: true,
  });
  m(11, { id: 'SoH', label: t('State of health', '健康状态（SOH）'), type: 'u16', unit: '%', scaleFactorPoint: 'SoH_SF' });
  m(12, { id: 'NCyc', label: t('Cycle count', '循环次数'), type: 'u32' });
  m(14, { id: 'ChaSt', label: t('Charge status', '充放电状态'), type: 'u16', enumeration: CHARGE_STATES });
  m(24, { id: 'Evt1', label: t('Battery event flags', '电池事件标志'), type: 'bits32', role: 'event_bits', required: true });
  m(32, { id: 'V', label: t('Pack voltage', '电池组电压'), type: 'u16', unit: 'V', scaleFactorPoint: 'V_SF' });
  m(35, { id: 'CellVMax', label: t('Highest cell voltage', '最高单体电压'), type: 'u16', unit: 'V', scaleFactorPoint: 'CellV_SF' });
  m(38, { id: 'CellVMin', label: t('Lowest cell voltage', '最低单体电压'), type: 'u16', unit: 'V', scaleFactorPoint: 'CellV_SF' });
  m(41, { id: 'CellVAvg', label: t('Average cell voltage', '平均单体电压'), type: 'u16', unit: 'V', scaleFactorPoint: 'CellV_SF' });
  m(42, {
    id: 'A',
    label: t('Pack current (+discharge / −charge)', '电池组电流（放电为正，充电为负）'),
    type: 's16',
    unit: 'A',
    scaleFactorPoint: 'A_SF',
  });
  m(43, { id: 'AChaMax', label: t('Maximum charge current', '最大充电电流'), type: 'u16', unit: 'A', scaleFactorPoint: 'AMax_SF' });
  m(44, { id: 'ADisChaMax', label: t('Maximum discharge current', '最大放电电流'), type: 'u16', unit: 'A', scaleFactorPoint: 'AMax_SF' });
  m(45, {
    id: 'W',
    label: t('Pack power (+discharge / −charge)', '电池组功率（放电为正，充电为负）'),
    type: 's16',
    unit: 'W',
    scaleFactorPoint: 'W_SF',
    role: 'power',
    required: true,
  });
  m(48, {
    id: 'SetOp',
    label: t('Connect / disconnect the battery', '电池连接/断开'),
    type: 'u16',
    operation: 'rw',
    min: 1,
    max: 2,
    enumeration: SET_OPERATIONS,
  });
  m(50, sf('AHRtg_SF', t('Capacity scale factor', '容量比例因子')));
  m(51, sf('WHRtg_SF', t('Energy rating scale factor', '额定电量比例因子')));
  m(52, sf('WChaDisChaMax_SF', t('Power rating scale factor', '额定功率比例因子')));
  m(54, sf('SoC_SF', t('SOC scale factor', 'SOC比例因子')));
  m(56, sf('SoH_SF', t('SOH scale factor', 'SOH比例因子')));
  m(57, sf('V_SF', t('Voltage scale factor', '电压比例因子')));
  m(58, sf('CellV_SF', t('Cell voltage scale factor', '单体电压比例因子')));
  m(59, sf('A_SF', t('Current scale factor', '电流比例因子')));
  m(60, sf('AMax_SF', t('Current limit scale factor', '电流限值比例因子')));
  m(61, sf('W_SF', t('Power scale factor', '功率比例因子')));

  // Vendor model 64901 (BMS master extension, L = 34).
  const v = b.model(34);
  v(0, {
    id: 'SysSt',
    label: t('System state', '系统状态'),
    type: 'u16',
    role: 'operating_state',
    required: true,
    enumeration: SYSTEM_STATES,
  });
  v(1, {
    id: 'RelaySt',
    label: t('Relays closed', '闭合的继电器'),
    bitNames: {
      0: t('Main +', '主正'),
      1: t('Main −', '主负'),
      2: t('Pre-charge', '预充'),
      3: t('Breaker', '断路器'),
      4: t('Heater', '加热'),
    },
    type: 'bits16',
  });
  v(2, { id: 'Tmp', label: t('Pack temperature', '电池组温度'), type: 's16', unit: '°C', scale: 0.1 });
  v(3, {
    id: 'ChaWH',
    label: t('Lifetime charged energy', '累计充电量'),
    type: 'u32',
    accumulator: true,
    unit: 'Wh',
    role: 'energy_charge_total',
  });
  v(5, {
    id: 'DisChaWH',
    label: t('Lifetime discharged energy', '累计放电量'),
    type: 'u32',
    accumulator: true,
    unit: 'Wh',
    role: 'energy_discharge_total',
  });
  v(7, { id: 'BmsAlm', label: t('BMS alarm flags', 'BMS告警标志'), type: 'bits32', role: 'event_bits' });
  for (let n = 1; n <= CELLS; n++) {
    v(8 + n, { id: `CellV${n}`, label: t(`Cell ${n} voltage`, `第${n}节单体电压`), type: 'u16', unit: 'V', scale: 0.001 });
  }
  for (let n = 1; n <= CELL_SENSORS; n++) {
    v(24 + n, { id: `CellT${n}`, label: t(`Cell temperature ${n}`, `单体温度${n}`), type: 's16', unit: '°C', scale: 0.1 });
  }
  // Demand response (issue 23, energy hub): a forced discharge at this power until written back to 0, down to
  // SoCRsvMin at most; 0 leaves the pack to the site's own dispatch (self-consumption).
  v(33, {
    id: 'DrDisW',
    label: t('Demand-response discharge power (0 = own dispatch)', '需求响应放电功率（0为自主调度）'),
    type: 'u16',
    unit: 'W',
    operation: 'rw',
    min: 0,
    max: 30000,
  });
  return b.points;
}

export const SUNSPEC_BATTERY_BMS: ProtocolDefinition = {
  id: 'sunspec-battery-bms',
  version: '1.0.0',
  name: t('Battery system master (BMS, SunSpec)', '电池系统主控（BMS，SunSpec）'),
  family: 'battery',
  manufacturer: 'Generic SunSpec',
  source: 'SunSpec models 1, 802 (Apache-2.0, sunspec/models); vendor model 64901 for system state, relays, cells and counters',
  points: bmsPoints(),
  // The pack's SOC window and its connection: the gy/setting form (battery settings).
  settingsFamilies: { 'gy/setting': ['SoCRsvMin', 'SocRsvMax', 'SetOp'] },
  events: [
    ...eventsOf('Evt1', 3001, BATTERY_EVENT_TEXTS),
    ...eventsOf('BmsAlm', 3101, [
      ev(0, 'protect', t('Cell over-voltage', '单体过压'), t('Stop charging and check the cell balancing', '停止充电并检查电芯均衡')),
      ev(
        1,
        'protect',
        t('Cell under-voltage', '单体欠压'),
        t('Charge the battery; if one cell stays low, contact service', '为电池充电；若某节电芯持续偏低，请联系售后服务'),
      ),
      ev(
        2,
        'warning',
        t('Cell voltage difference too large', '单体压差过大'),
        t(
          'Let the BMS balance the cells with a full charge; contact service if it persists',
          '满充一次让BMS均衡电芯；若持续出现请联系售后服务',
        ),
      ),
      ev(
        3,
        'fault',
        t('Insulation resistance too low', '绝缘阻抗过低'),
        t('Check the battery cables and modules for damaged insulation', '检查电池线缆和模块绝缘是否破损'),
      ),
      ev(
        4,
        'fault',
        t('Pre-charge failed', '预充失败'),
        t('Check the pre-charge resistor and relay and the DC bus of the PCS', '检查预充电阻、预充继电器以及PCS直流母线'),
      ),
      ev(
        5,
        'fault',
        t('Relay welded', '继电器粘连'),
        t('Replace the relay and do not run the battery until it is repaired', '更换继电器，修复前请勿运行电池'),
      ),
      ev(
        6,
        'fault',
        t('BMS internal communication fault', 'BMS内部通信故障'),
        t('Check the communication cables between the master and the slave units', '检查主控与从控之间的通信线'),
      ),
      ev(
        7,
        'warning',
        t('Power-on addressing failed', '上电编址失败'),
        t('Check the daisy-chain cables between the modules and restart the BMS', '检查模块间级联通信线后重启BMS'),
      ),
      ev(
        8,
        'fault',
        t('Temperature sensor fault', '温度传感器故障'),
        t('Check the temperature sensing wires of the modules', '检查模块温度采样线'),
      ),
      ev(9, 'warning', t('Heater fault', '加热膜故障'), t('Check the heater and its fuse', '检查加热膜及其熔断器')),
    ]),
  ],
};
