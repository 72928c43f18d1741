/** Battery texts shared by the hybrid inverters and the BMS map (SunSpec model 802, Apache-2.0). */
import type { LocalisedText } from '../types.js';
import { type EventText, ev, type PointSpec, t } from './builder.js';

/** Model 802 ChaSt. */
export const CHARGE_STATES: Record<number, LocalisedText> = {
  1: t('Off', '关闭'),
  2: t('Empty', '电量耗尽'),
  3: t('Discharging', '放电中'),
  4: t('Charging', '充电中'),
  5: t('Full', '已充满'),
  6: t('Holding', '保持'),
  7: t('Testing', '测试中'),
};

/** Model 802 State (state of the battery bank). */
export const BANK_STATES: Record<number, LocalisedText> = {
  1: t('Disconnected', '已断开'),
  2: t('Initialising', '初始化'),
  3: t('Connected', '已连接'),
  4: t('Standby', '待机'),
  5: t('SOC protection', 'SOC保护'),
  6: t('Suspending', '暂停中'),
  99: t('Fault', '故障'),
};

const CHECK_BMS_COMMS = t(
  'Check the BMS communication cable (CAN/RS485), the terminating resistors and the battery protocol setting of the inverter',
  '检查BMS通信线（CAN/RS485）、终端电阻以及逆变器的电池协议设置',
);
const COOL_DOWN = t(
  'Stop charging and discharging and check the ventilation and cooling of the battery room',
  '暂停充放电，检查电池室通风和散热',
);
const IMPROVE_COOLING = t(
  'Improve ventilation; charge and discharge power are reduced until the temperature drops',
  '加强通风；温度回落前充放电功率将被降低',
);
const WARM_UP = t(
  'Charging is blocked below the minimum temperature; heat the battery room or wait for it to warm up',
  '低于最低温度时禁止充电，请为电池室加热或等待温度回升',
);
const KEEP_WARM = t('Charge power is reduced; keep the battery room warm', '充电功率将被降低，请做好电池室保温');
const CHECK_CHARGE_LIMIT = t(
  "Check the inverter's charge current limit against the battery's rating",
  '核对逆变器充电电流限值与电池额定参数',
);
const CHECK_DISCHARGE_LIMIT = t("Reduce the load or the inverter's discharge current limit", '减小负载或降低逆变器放电电流限值');
const STOP_CHARGING = t(
  'Stop charging and check the charge voltage setting and the cell balancing',
  '停止充电，检查充电电压设置和电芯均衡',
);
const CHARGE_SOON = t('Charge the battery as soon as possible from PV or the grid', '请尽快通过光伏或电网为电池充电');
const SERVICE = t('Contact service', '请联系售后服务');

/** Model 802 Evt1 (bits as in the model). */
export const BATTERY_EVENT_TEXTS: readonly EventText[] = [
  ev(0, 'fault', t('Battery communication lost', '电池通信中断'), CHECK_BMS_COMMS),
  ev(1, 'protect', t('Battery over-temperature', '电池温度过高'), COOL_DOWN),
  ev(2, 'warning', t('Battery temperature high', '电池温度偏高'), IMPROVE_COOLING),
  ev(3, 'protect', t('Battery under-temperature', '电池温度过低'), WARM_UP),
  ev(4, 'warning', t('Battery temperature low', '电池温度偏低'), KEEP_WARM),
  ev(5, 'protect', t('Charge over-current', '充电过流'), CHECK_CHARGE_LIMIT),
  ev(6, 'warning', t('Charge current high', '充电电流偏高'), CHECK_CHARGE_LIMIT),
  ev(7, 'protect', t('Discharge over-current', '放电过流'), CHECK_DISCHARGE_LIMIT),
  ev(8, 'warning', t('Discharge current high', '放电电流偏高'), CHECK_DISCHARGE_LIMIT),
  ev(9, 'protect', t('Battery over-voltage', '电池电压过高'), STOP_CHARGING),
  ev(10, 'warning', t('Battery voltage high', '电池电压偏高'), STOP_CHARGING),
  ev(11, 'protect', t('Battery under-voltage', '电池电压过低'), CHARGE_SOON),
  ev(12, 'warning', t('Battery voltage low', '电池电压偏低'), CHARGE_SOON),
  ev(
    13,
    'protect',
    t('State of charge below minimum', '电量低于下限'),
    t('Discharging has stopped; charge the battery', '已停止放电，请为电池充电'),
  ),
  ev(14, 'warning', t('State of charge low', '电量偏低'), CHARGE_SOON),
  ev(
    15,
    'protect',
    t('State of charge above maximum', '电量高于上限'),
    t('Charging has stopped; check the SOC calibration and the charge settings', '已停止充电，请检查SOC校准和充电设置'),
  ),
  ev(16, 'warning', t('State of charge high', '电量偏高'), t('Charge power is reduced near full charge', '接近满电时充电功率将被降低')),
  ev(
    17,
    'warning',
    t('Cell voltage imbalance', '电芯电压不均衡'),
    t(
      'Let the battery complete a full charge so the BMS can balance the cells; contact service if it persists',
      '让电池完成一次满充以便BMS均衡电芯；若持续出现请联系售后服务',
    ),
  ),
  ev(
    18,
    'protect',
    t('Temperature imbalance', '电池温差过大'),
    t('Check the cooling of each module and the temperature sensors', '检查各模块散热和温度传感器'),
  ),
  ev(19, 'warning', t('Temperature difference high', '电池温差偏大'), t('Check the cooling of each module', '检查各模块散热情况')),
  ev(
    20,
    'fault',
    t('Contactor fault', '接触器故障'),
    t('Check the main contactor and its drive circuit, then contact service', '检查主接触器及其驱动回路，并联系售后服务'),
  ),
  ev(
    21,
    'warning',
    t('Fan fault', '风扇故障'),
    t('Check the fan for blockage or damage and replace it if needed', '检查风扇是否堵转或损坏，必要时更换'),
  ),
  ev(
    22,
    'fault',
    t('Battery ground fault', '电池接地故障'),
    t('Isolate the battery and check the DC cables and enclosure for damaged insulation', '断开电池，检查直流线缆和外壳绝缘是否破损'),
  ),
  ev(23, 'warning', t('Battery cabinet door open', '电池柜门打开'), t('Close the cabinet door', '关闭电池柜门')),
  ev(
    24,
    'warning',
    t('Current imbalance between strings', '电池簇间电流不均衡'),
    t('Check the string connections and fuses', '检查电池簇连接和熔断器'),
  ),
  ev(25, 'fault', t('Other battery alarm', '其他电池告警'), t('Read the BMS alarm log for details', '查看BMS告警记录了解详情')),
  ev(26, 'warning', t('Other battery warning', '其他电池警告'), t('Read the BMS alarm log for details', '查看BMS告警记录了解详情')),
  ev(
    28,
    'fault',
    t('Battery configuration error', '电池配置错误'),
    t('Check the battery model, module count and protocol settings', '检查电池型号、模块数量和协议设置'),
  ),
  ev(29, 'warning', t('Battery configuration warning', '电池配置警告'), SERVICE),
];

/** The battery events a hybrid inverter raises itself; warnings stay with the BMS. */
export const HYBRID_BATTERY_EVENT_BITS: readonly number[] = [0, 1, 3, 5, 7, 9, 11, 13, 17, 20, 22];

/**
 * Model 802's SocRsvMax (writable): the SOC at which charging stops, one of the battery settings (the BMS's
 * gy/setting, the hybrids' storage form).
 */
export const SOC_RESERVE_MAX: PointSpec = {
  id: 'SocRsvMax',
  label: t('Maximum SOC (charging stops)', '最高SOC（停止充电）'),
  type: 'u16',
  unit: '%',
  scaleFactorPoint: 'SoC_SF',
  operation: 'rw',
  min: 50,
  max: 100,
};
