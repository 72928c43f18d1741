/**
 * DC string combiner box with 16 string inputs. The layout is SunSpec model 404 (the advanced form of
 * 403: same string currents, plus the power and energy a monitoring portal needs).
 */
import type { ProtocolDefinition } from '../types.js';
import { ev, eventsOf, RegisterMapBuilder, sf, t } from './builder.js';
import { addCommonModel } from './sunspec-parts.js';

const STRINGS = 16;
/** Registers per string in model 404 (InID, InEvt, InEvtVnd, InDCA, InDCAhr, InDCV, InDCW, InDCWh, InDCPR, InN). */
const STRING_LENGTH = 14;

function combinerPoints() {
  const b = RegisterMapBuilder.sunspec();
  addCommonModel(b);
  const m = b.model(25 + STRING_LENGTH * STRINGS);
  m(0, sf('DCA_SF', t('Current scale factor', '电流比例因子')));
  m(2, sf('DCV_SF', t('Voltage scale factor', '电压比例因子')));
  m(3, sf('DCW_SF', t('Power scale factor', '功率比例因子')));
  m(4, sf('DCWh_SF', t('Energy scale factor', '电量比例因子')));
  m(5, { id: 'DCAMax', label: t('Rated current', '额定电流'), type: 'u16', unit: 'A', scaleFactorPoint: 'DCA_SF' });
  m(7, { id: 'Evt', label: t('Event flags', '事件标志'), type: 'bits32', role: 'event_bits', required: true });
  m(11, { id: 'DCA', label: t('Total current', '总电流'), type: 's16', unit: 'A', scaleFactorPoint: 'DCA_SF' });
  m(14, { id: 'DCV', label: t('Bus voltage', '母线电压'), type: 's16', unit: 'V', scaleFactorPoint: 'DCV_SF' });
  m(15, { id: 'Tmp', label: t('Internal temperature', '箱内温度'), type: 's16', unit: '°C' });
  m(16, {
    id: 'DCW',
    label: t('Output power', '输出功率'),
    type: 's16',
    unit: 'W',
    scaleFactorPoint: 'DCW_SF',
    role: 'power',
    required: true,
  });
  m(18, {
    id: 'DCWh',
    label: t('Lifetime energy', '累计电量'),
    type: 'u32',
    accumulator: true,
    unit: 'Wh',
    scaleFactorPoint: 'DCWh_SF',
    role: 'energy_total',
    required: true,
  });
  m(20, sf('InDCA_SF', t('String current scale factor', '组串电流比例因子')));
  for (let n = 1; n <= STRINGS; n++) {
    m(25 + STRING_LENGTH * (n - 1) + 5, {
      id: `InDCA${n}`,
      label: t(`String ${n} current`, `第${n}路组串电流`),
      type: 's16',
      unit: 'A',
      scaleFactorPoint: 'InDCA_SF',
    });
  }
  return b.points;
}

const CHECK_MODULES = t('Check the modules of the string for shading, soiling or damage', '检查该组串组件是否被遮挡、脏污或损坏');

export const SUNSPEC_COMBINER_BOX: ProtocolDefinition = {
  id: 'sunspec-combiner-box',
  version: '1.0.0',
  name: t('String combiner box, 16 inputs (SunSpec)', '16路汇流箱（SunSpec）'),
  family: 'combiner_box',
  manufacturer: 'Generic SunSpec',
  source: 'SunSpec models 1, 404 with 16 strings (Apache-2.0, sunspec/models)',
  points: combinerPoints(),
  events: eventsOf('Evt', 5001, [
    ev(
      0,
      'warning',
      t('Low string voltage', '组串电压过低'),
      t('Check the string for shading, soiling or missing modules', '检查组串是否有遮挡、脏污或缺少组件'),
    ),
    ev(1, 'warning', t('Low power', '功率偏低'), CHECK_MODULES),
    ev(
      2,
      'warning',
      t('Low efficiency', '效率偏低'),
      t('Compare with neighbouring combiner boxes and clean the modules', '与相邻汇流箱对比，并清洗组件'),
    ),
    ev(
      3,
      'protect',
      t('String over-current', '组串过流'),
      t('Check the string for reverse current or a short circuit', '检查组串是否存在反向电流或短路'),
    ),
    ev(4, 'protect', t('Over-voltage', '电压过高'), t('Check the number of modules per string', '核对每串组件数量')),
    ev(5, 'warning', t('Power out of range', '功率异常'), CHECK_MODULES),
    ev(6, 'warning', t('Low performance ratio', '系统效率偏低'), CHECK_MODULES),
    ev(
      7,
      'warning',
      t('String disconnected', '组串断开'),
      t('Check the string connectors and the input switch', '检查组串连接器和输入开关'),
    ),
    ev(
      8,
      'fault',
      t('String fuse blown', '组串熔丝熔断'),
      t('Remove the cause (short circuit or reverse current) and replace the fuse', '排除短路或反向电流等原因后更换熔丝'),
    ),
    ev(9, 'fault', t('Output fuse blown', '输出熔断器熔断'), t('Find the cause and replace the output fuse', '排查原因后更换输出熔断器')),
    ev(10, 'warning', t('Cabinet door open', '箱门打开'), t('Close and lock the cabinet door', '关闭并锁好箱门')),
    ev(
      11,
      'protect',
      t('Over-temperature', '箱内温度过高'),
      t('Check the ventilation and the terminals for overheating', '检查通风以及接线端子是否发热'),
    ),
    ev(12, 'fault', t('Ground fault', '接地故障'), t('Check the strings and cables for damaged insulation', '检查组串和线缆绝缘是否破损')),
    ev(
      13,
      'fault',
      t('Reversed string polarity', '组串极性接反'),
      t('Disconnect the string and correct its polarity', '断开该组串并纠正正负极接线'),
    ),
    ev(15, 'warning', t('Communication fault', '通信故障'), t('Check the RS485 cable and the device address', '检查RS485通信线和设备地址')),
    ev(
      16,
      'fault',
      t('Internal error', '内部故障'),
      t('Restart the monitoring unit; contact service if it persists', '重启监测单元；若持续出现请联系售后服务'),
    ),
    ev(
      17,
      'fault',
      t('Anti-theft alarm', '防盗告警'),
      t('Check on site whether modules or cables were removed', '现场检查组件或线缆是否被拆除'),
    ),
    ev(
      18,
      'fault',
      t('Arc fault detected', '检测到电弧故障'),
      t('Open the string switch and inspect connectors and cables', '断开组串开关，检查连接器和线缆'),
    ),
  ]),
};
