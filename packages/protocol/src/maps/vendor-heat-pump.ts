/**
 * Air-to-water heat pump, vendor-style map (SunSpec has no heat pump model): holding registers from 0
 * for measurements, from 1000 for settings, as such controllers commonly lay them out.
 */
import type { LocalisedText, ProtocolDefinition } from '../types.js';
import { ev, eventsOf, RegisterMapBuilder, t } from './builder.js';

const STATES: Record<number, LocalisedText> = {
  0: t('Off', '关机'),
  1: t('Standby', '待机'),
  2: t('Running', '运行'),
  3: t('Defrosting', '除霜'),
  4: t('Fault', '故障'),
};

const MODES: Record<number, LocalisedText> = {
  0: t('Standby', '待机'),
  1: t('Heating', '制热'),
  2: t('Cooling', '制冷'),
  3: t('Hot water', '热水'),
  4: t('Automatic', '自动'),
};

function heatPumpPoints() {
  const b = new RegisterMapBuilder(3, 0);
  b.place(0, {
    id: 'St',
    label: t('Operating state', '运行状态'),
    type: 'u16',
    role: 'operating_state',
    required: true,
    enumeration: STATES,
  });
  b.place(1, { id: 'WaterInTmp', label: t('Water inlet temperature', '进水温度'), type: 's16', unit: '°C', scale: 0.1 });
  b.place(2, { id: 'WaterOutTmp', label: t('Water outlet temperature', '出水温度'), type: 's16', unit: '°C', scale: 0.1 });
  b.place(3, { id: 'TankTmp', label: t('Tank temperature', '水箱温度'), type: 's16', unit: '°C', scale: 0.1 });
  b.place(4, { id: 'AmbTmp', label: t('Ambient temperature', '环境温度'), type: 's16', unit: '°C', scale: 0.1 });
  b.place(5, { id: 'CompHz', label: t('Compressor frequency', '压缩机频率'), type: 'u16', unit: 'Hz', scale: 0.1 });
  b.place(6, { id: 'W', label: t('Electrical input power', '输入电功率'), type: 'u32', unit: 'W', role: 'power', required: true });
  // Counted in 0.1 kWh and sent low word first, as many heat pump controllers do.
  b.place(8, {
    id: 'WH',
    label: t('Lifetime electricity consumed', '累计耗电量'),
    type: 'u32',
    wordSwap: true,
    unit: 'Wh',
    scale: 100,
    role: 'energy_total',
    required: true,
  });
  b.place(10, { id: 'COP', label: t('Coefficient of performance (COP)', '能效比（COP）'), type: 'f32' });
  b.place(12, { id: 'FlowRate', label: t('Water flow rate', '水流量'), type: 'f32', unit: 'm³/h' });
  b.place(14, { id: 'Evt', label: t('Fault flags', '故障标志'), type: 'bits32', role: 'event_bits', required: true });
  b.place(16, { id: 'RunHours', label: t('Compressor running hours', '压缩机累计运行时间'), type: 'u32', unit: 'h' });
  b.place(20, { id: 'SN', label: t('Serial number', '序列号'), type: 'string', count: 8 });
  b.place(28, { id: 'Vr', label: t('Firmware version', '固件版本'), type: 'string', count: 4 });
  b.place(1000, { id: 'Mode', label: t('Operating mode', '运行模式'), type: 'u16', operation: 'rw', min: 0, max: 4, enumeration: MODES });
  b.place(1001, {
    id: 'SetTmp',
    label: t('Water temperature setpoint', '出水温度设定值'),
    type: 's16',
    unit: '°C',
    scale: 0.1,
    operation: 'rw',
    min: 15,
    max: 60,
  });
  b.place(1002, {
    id: 'TankSetTmp',
    label: t('Hot water setpoint', '热水温度设定值'),
    type: 's16',
    unit: '°C',
    scale: 0.1,
    operation: 'rw',
    min: 30,
    max: 75,
  });
  return b.points;
}

const CHECK_SENSOR = t('Check the sensor wiring; replace the sensor if it is open or shorted', '检查传感器接线，若开路或短路请更换传感器');

export const VENDOR_HEAT_PUMP: ProtocolDefinition = {
  id: 'vendor-heat-pump',
  version: '1.0.0',
  name: t('Air-to-water heat pump', '空气源热泵'),
  family: 'heat_pump',
  manufacturer: 'Generic',
  source: 'Vendor-style map (no SunSpec model exists for heat pumps)',
  points: heatPumpPoints(),
  // Its mode (standby, heating, cooling, hot water, automatic) and temperature setpoints: the mt/setting form.
  settingsFamilies: { 'mt/setting': ['Mode', 'SetTmp', 'TankSetTmp'] },
  events: eventsOf('Evt', 6001, [
    ev(
      0,
      'protect',
      t('High-pressure protection', '高压保护'),
      t('Check the water flow, the water filter and the refrigerant charge', '检查水流量、水过滤器以及冷媒充注量'),
    ),
    ev(
      1,
      'protect',
      t('Low-pressure protection', '低压保护'),
      t('Check for refrigerant leaks and whether the evaporator is blocked or iced', '检查冷媒是否泄漏、蒸发器是否堵塞或结霜'),
    ),
    ev(
      2,
      'protect',
      t('Compressor over-current', '压缩机过流'),
      t('Check the supply voltage and the compressor, then contact service', '检查供电电压和压缩机，并联系售后服务'),
    ),
    ev(
      3,
      'fault',
      t('Water flow fault', '水流故障'),
      t(
        'Check the circulation pump, valves and filter, and purge air from the water circuit',
        '检查循环水泵、阀门和过滤器，排出水路中的空气',
      ),
    ),
    ev(4, 'fault', t('Water inlet temperature sensor fault', '进水温度传感器故障'), CHECK_SENSOR),
    ev(5, 'fault', t('Water outlet temperature sensor fault', '出水温度传感器故障'), CHECK_SENSOR),
    ev(6, 'fault', t('Tank temperature sensor fault', '水箱温度传感器故障'), CHECK_SENSOR),
    ev(7, 'fault', t('Ambient temperature sensor fault', '环境温度传感器故障'), CHECK_SENSOR),
    ev(
      8,
      'protect',
      t('Discharge temperature too high', '排气温度过高'),
      t('Check the refrigerant charge and the expansion valve', '检查冷媒充注量和电子膨胀阀'),
    ),
    ev(
      9,
      'protect',
      t('Anti-freeze protection', '防冻保护'),
      t(
        'Normal in cold weather: the unit runs the pump or heater to keep the water circuit from freezing; keep the power on',
        '寒冷天气下的正常保护，机组会运行水泵或电加热防止水路结冰，请勿断电',
      ),
    ),
    ev(
      10,
      'fault',
      t('Controller communication fault', '线控器通信故障'),
      t('Check the cable between the wired controller and the main board', '检查线控器与主板之间的连线'),
    ),
    ev(
      11,
      'fault',
      t('Fan motor fault', '风机故障'),
      t('Check the fan for obstruction and check its wiring', '检查风机是否被卡住并检查其接线'),
    ),
    ev(12, 'protect', t('Phase loss or reversed phase', '电源缺相或逆相'), t('Check the three-phase supply wiring', '检查三相电源接线')),
    ev(13, 'warning', t('Defrost failed', '除霜失败'), t('Check the defrost sensor and the four-way valve', '检查除霜传感器和四通阀')),
  ]),
};
