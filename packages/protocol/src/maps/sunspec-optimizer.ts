/**
 * Module-level power optimizer: SunSpec has no optimizer model, so the input side uses the model 160
 * layout with one input (as micro inverters do) and a vendor model carries the output side.
 */
import type { LocalisedText, ProtocolDefinition } from '../types.js';
import { ev, eventsOf, RegisterMapBuilder, sf, t } from './builder.js';
import { addCommonModel } from './sunspec-parts.js';

/** Model 160 DCSt. */
const DC_STATES: Record<number, LocalisedText> = {
  1: t('Off', '关闭'),
  2: t('Sleeping', '休眠'),
  3: t('Starting', '启动中'),
  4: t('Tracking (MPPT)', '跟踪中（MPPT）'),
  5: t('Throttled', '限功率'),
  6: t('Shutting down', '正在关闭'),
  7: t('Fault', '故障'),
  8: t('Standby', '待机'),
  9: t('Test', '测试'),
};

function optimizerPoints() {
  const b = RegisterMapBuilder.sunspec();
  addCommonModel(b);

  // Model 160 with one module (L = 28): the PV module side of the optimizer.
  const m = b.model(28);
  m(0, sf('DCA_SF', t('Input current scale factor', '输入电流比例因子')));
  m(1, sf('DCV_SF', t('Input voltage scale factor', '输入电压比例因子')));
  m(2, sf('DCW_SF', t('Input power scale factor', '输入功率比例因子')));
  m(3, sf('DCWH_SF', t('Energy scale factor', '电量比例因子')));
  m(17, { id: 'DCA', label: t('Input current', '输入电流'), type: 'u16', unit: 'A', scaleFactorPoint: 'DCA_SF' });
  m(18, { id: 'DCV', label: t('Input voltage', '输入电压'), type: 'u16', unit: 'V', scaleFactorPoint: 'DCV_SF' });
  m(19, { id: 'DCW', label: t('Input power', '输入功率'), type: 'u16', unit: 'W', scaleFactorPoint: 'DCW_SF' });
  m(20, {
    id: 'DCWH',
    label: t('Lifetime energy', '累计发电量'),
    type: 'u32',
    accumulator: true,
    unit: 'Wh',
    scaleFactorPoint: 'DCWH_SF',
    role: 'energy_total',
    required: true,
  });
  m(24, { id: 'Tmp', label: t('Temperature', '温度'), type: 's16', unit: '°C' });
  m(25, {
    id: 'DCSt',
    label: t('Operating state', '运行状态'),
    type: 'u16',
    role: 'operating_state',
    required: true,
    enumeration: DC_STATES,
  });
  m(26, { id: 'DCEvt', label: t('Event flags', '事件标志'), type: 'bits32', role: 'event_bits' });

  // Vendor model 64902 (L = 8): the string side, and the rapid-shutdown switch.
  const v = b.model(8);
  v(0, { id: 'OutA', label: t('Output current', '输出电流'), type: 'u16', unit: 'A', scaleFactorPoint: 'OutA_SF' });
  v(1, { id: 'OutV', label: t('Output voltage', '输出电压'), type: 'u16', unit: 'V', scaleFactorPoint: 'OutV_SF' });
  v(2, {
    id: 'OutW',
    label: t('Output power', '输出功率'),
    type: 'u16',
    unit: 'W',
    scaleFactorPoint: 'OutW_SF',
    role: 'power',
    required: true,
  });
  v(3, sf('OutA_SF', t('Output current scale factor', '输出电流比例因子')));
  v(4, sf('OutV_SF', t('Output voltage scale factor', '输出电压比例因子')));
  v(5, sf('OutW_SF', t('Output power scale factor', '输出功率比例因子')));
  v(6, {
    id: 'Conn',
    label: t('Output (rapid shutdown)', '输出开关（快速关断）'),
    type: 'u16',
    operation: 'rw',
    min: 0,
    max: 1,
    enumeration: { 0: t('Shut down (safe voltage)', '关断（安全电压）'), 1: t('Connected', '接通') },
  });
  return b.points;
}

export const SUNSPEC_OPTIMIZER: ProtocolDefinition = {
  id: 'sunspec-optimizer',
  version: '1.0.0',
  name: t('Power optimizer (SunSpec layout)', '功率优化器（SunSpec布局）'),
  family: 'optimizer',
  manufacturer: 'Generic SunSpec',
  source: 'SunSpec models 1, 160 with 1 input (Apache-2.0, sunspec/models); vendor model 64902 for the output side',
  points: optimizerPoints(),
  events: eventsOf('DCEvt', 4001, [
    ev(
      0,
      'fault',
      t('Ground fault', '接地故障'),
      t('Check the module and its cables for damaged insulation', '检查组件及其线缆绝缘是否破损'),
    ),
    ev(
      1,
      'protect',
      t('Input over-voltage', '输入电压过高'),
      t("Check that the module's open-circuit voltage suits the optimizer's input range", '核实组件开路电压在优化器输入范围以内'),
    ),
    ev(
      3,
      'warning',
      t('Output disconnected', '输出断开'),
      t('Check the string connectors and whether the inverter is on', '检查组串连接器以及逆变器是否开机'),
    ),
    ev(
      7,
      'protect',
      t('Over-temperature', '温度过高'),
      t(
        'Check that the optimizer is mounted in the shade of the module with free air around it',
        '检查优化器是否安装在组件背阴处且周围通风',
      ),
    ),
    ev(
      15,
      'fault',
      t('Arc fault detected', '检测到电弧故障'),
      t('Inspect the module connectors for loose or burnt contacts', '检查组件连接器是否松动或烧蚀'),
    ),
    ev(
      20,
      'fault',
      t('Self-test failed', '自检失败'),
      t('Replace the optimizer if the fault returns after a restart', '重启后若故障仍在，请更换优化器'),
    ),
    ev(
      21,
      'warning',
      t('Input under-voltage', '输入电压过低'),
      t('Normal in low light; otherwise check the module for shading or damage', '弱光下属正常现象；否则检查组件是否被遮挡或损坏'),
    ),
    ev(
      22,
      'protect',
      t('Input over-current', '输入过流'),
      t("Check that the module's short-circuit current suits the optimizer", '核实组件短路电流与优化器匹配'),
    ),
  ]),
};
