/**
 * SunSpec models shared by several maps (common 1, inverters 101/103, immediate controls 123, multiple
 * MPPT 160), with offsets as in sunspec/models (Apache-2.0, see ../NOTICE.md). Points a device family
 * does not use are left out; their registers stay in the layout so every address matches the model.
 */
import type { EventDefinition, LocalisedText } from '../types.js';
import { type EventText, ev, eventsOf, type RegisterMapBuilder, sf, t } from './builder.js';

/** Model 1 (common, L = 66): the device's identity, kept as strings (not stored in the numeric series). */
export function addCommonModel(b: RegisterMapBuilder): void {
  const m = b.model(66);
  m(0, { id: 'Mn', label: t('Manufacturer', '制造商'), type: 'string', count: 16 });
  m(16, { id: 'Md', label: t('Model', '型号'), type: 'string', count: 16 });
  m(32, { id: 'Opt', label: t('Options', '选配项'), type: 'string', count: 8 });
  m(40, { id: 'Vr', label: t('Firmware version', '固件版本'), type: 'string', count: 8 });
  m(48, { id: 'SN', label: t('Serial number', '序列号'), type: 'string', count: 16 });
}

/** SunSpec St (models 101–103): the operating state every inverter-like map reports. */
export const INVERTER_STATES: Record<number, LocalisedText> = {
  1: t('Off', '关机'),
  2: t('Sleeping (night)', '休眠（夜间）'),
  3: t('Starting', '启动中'),
  4: t('Producing (MPPT)', '并网发电（MPPT）'),
  5: t('Throttled (power limited)', '限功率运行'),
  6: t('Shutting down', '正在关机'),
  7: t('Fault', '故障'),
  8: t('Standby', '待机'),
};

const PHASES = ['A', 'B', 'C'] as const;

/**
 * Model 101 (single phase) or 103 (three phase), L = 50: AC and DC measurements, lifetime energy,
 * temperatures, operating state and Evt1. The main `power` is the AC output W.
 */
export function addInverterModel(b: RegisterMapBuilder, phases: 1 | 3): void {
  const m = b.model(50);
  const used = PHASES.slice(0, phases);
  m(0, { id: 'A', label: t('AC current', '交流电流'), type: 'u16', unit: 'A', scaleFactorPoint: 'A_SF' });
  used.forEach((phase, i) => {
    m(1 + i, { id: `Aph${phase}`, label: t(`Phase ${phase} current`, `${phase}相电流`), type: 'u16', unit: 'A', scaleFactorPoint: 'A_SF' });
  });
  m(4, sf('A_SF', t('Current scale factor', '电流比例因子')));
  if (phases === 3) {
    const lines = [
      ['AB', 5],
      ['BC', 6],
      ['CA', 7],
    ] as const;
    for (const [pair, offset] of lines) {
      m(offset, {
        id: `PPVph${pair}`,
        label: t(`Line voltage ${pair}`, `${pair}线电压`),
        type: 'u16',
        unit: 'V',
        scaleFactorPoint: 'V_SF',
      });
    }
  }
  used.forEach((phase, i) => {
    m(8 + i, {
      id: `PhVph${phase}`,
      label: t(`Phase ${phase} voltage`, `${phase}相电压`),
      type: 'u16',
      unit: 'V',
      scaleFactorPoint: 'V_SF',
    });
  });
  m(11, sf('V_SF', t('Voltage scale factor', '电压比例因子')));
  m(12, {
    id: 'W',
    label: t('AC active power', '交流有功功率'),
    type: 's16',
    unit: 'W',
    scaleFactorPoint: 'W_SF',
    role: 'power',
    required: true,
  });
  m(13, sf('W_SF', t('Power scale factor', '功率比例因子')));
  m(14, { id: 'Hz', label: t('Grid frequency', '电网频率'), type: 'u16', unit: 'Hz', scaleFactorPoint: 'Hz_SF' });
  m(15, sf('Hz_SF', t('Frequency scale factor', '频率比例因子')));
  m(16, { id: 'VA', label: t('Apparent power', '视在功率'), type: 's16', unit: 'VA', scaleFactorPoint: 'VA_SF' });
  m(17, sf('VA_SF', t('Apparent power scale factor', '视在功率比例因子')));
  m(18, { id: 'VAr', label: t('Reactive power', '无功功率'), type: 's16', unit: 'var', scaleFactorPoint: 'VAr_SF' });
  m(19, sf('VAr_SF', t('Reactive power scale factor', '无功功率比例因子')));
  m(20, { id: 'PF', label: t('Power factor', '功率因数'), type: 's16', unit: '%', scaleFactorPoint: 'PF_SF' });
  m(21, sf('PF_SF', t('Power factor scale factor', '功率因数比例因子')));
  m(22, {
    id: 'WH',
    label: t('Lifetime energy', '累计发电量'),
    type: 'u32',
    accumulator: true,
    unit: 'Wh',
    scaleFactorPoint: 'WH_SF',
    role: 'energy_total',
    required: true,
  });
  m(24, sf('WH_SF', t('Energy scale factor', '电量比例因子')));
  m(25, { id: 'DCA', label: t('DC current', '直流电流'), type: 'u16', unit: 'A', scaleFactorPoint: 'DCA_SF' });
  m(26, sf('DCA_SF', t('DC current scale factor', '直流电流比例因子')));
  m(27, { id: 'DCV', label: t('DC voltage', '直流电压'), type: 'u16', unit: 'V', scaleFactorPoint: 'DCV_SF' });
  m(28, sf('DCV_SF', t('DC voltage scale factor', '直流电压比例因子')));
  m(29, { id: 'DCW', label: t('DC power', '直流功率'), type: 's16', unit: 'W', scaleFactorPoint: 'DCW_SF' });
  m(30, sf('DCW_SF', t('DC power scale factor', '直流功率比例因子')));
  m(31, { id: 'TmpCab', label: t('Cabinet temperature', '机箱温度'), type: 's16', unit: '°C', scaleFactorPoint: 'Tmp_SF' });
  m(32, { id: 'TmpSnk', label: t('Heat sink temperature', '散热器温度'), type: 's16', unit: '°C', scaleFactorPoint: 'Tmp_SF' });
  m(35, sf('Tmp_SF', t('Temperature scale factor', '温度比例因子')));
  m(36, {
    id: 'St',
    label: t('Operating state', '运行状态'),
    type: 'u16',
    role: 'operating_state',
    required: true,
    enumeration: INVERTER_STATES,
  });
  m(38, { id: 'Evt1', label: t('Event flags', '事件标志'), type: 'bits32', role: 'event_bits', required: true });
}

const OPEN_CLOSE: Record<number, LocalisedText> = {
  0: t('Disconnect (shut down)', '断开（关机）'),
  1: t('Connect (start)', '连接（开机）'),
};

const ENABLED: Record<number, LocalisedText> = {
  0: t('Disabled', '禁用'),
  1: t('Enabled', '启用'),
};

/**
 * Model 123 (immediate controls, L = 24): what remote operation writes. Conn 0/1 shuts the inverter
 * down or starts it; WMaxLimPct with WMaxLim_Ena = 1 limits output to a percentage of rated power.
 */
export function addControlsModel(b: RegisterMapBuilder): void {
  const m = b.model(24);
  m(2, {
    id: 'Conn',
    label: t('Connection (remote start/shutdown)', '并网连接（远程开关机）'),
    type: 'u16',
    operation: 'rw',
    min: 0,
    max: 1,
    enumeration: OPEN_CLOSE,
  });
  m(3, {
    id: 'WMaxLimPct',
    label: t('Active power limit (% of rated)', '有功功率限值（额定功率百分比）'),
    type: 'u16',
    unit: '%',
    scaleFactorPoint: 'WMaxLimPct_SF',
    operation: 'rw',
    min: 0,
    max: 100,
  });
  m(7, {
    id: 'WMaxLim_Ena',
    label: t('Power limit enabled', '功率限制使能'),
    type: 'u16',
    operation: 'rw',
    min: 0,
    max: 1,
    enumeration: ENABLED,
  });
  m(8, {
    id: 'OutPFSet',
    label: t('Power factor setpoint', '功率因数设定值'),
    type: 's16',
    scaleFactorPoint: 'OutPFSet_SF',
    operation: 'rw',
    min: 0.8,
    max: 1,
  });
  m(12, {
    id: 'OutPFSet_Ena',
    label: t('Power factor setpoint enabled', '功率因数设定使能'),
    type: 'u16',
    operation: 'rw',
    min: 0,
    max: 1,
    enumeration: ENABLED,
  });
  m(21, sf('WMaxLimPct_SF', t('Power limit scale factor', '功率限值比例因子')));
  m(22, sf('OutPFSet_SF', t('Power factor scale factor', '功率因数比例因子')));
}

/**
 * The grid settings group every inverter map carries (model 123): the active power limit and the power
 * factor, each with its enable switch; the console's dy/grid form.
 */
export const GRID_SETTINGS: readonly string[] = ['WMaxLim_Ena', 'WMaxLimPct', 'OutPFSet_Ena', 'OutPFSet'];

export interface MpptOptions {
  /** Number of MPPT trackers (inverters) or PV inputs (micro inverters). */
  inputs: number;
  /** What one input is called in labels: "MPPT" for string inverters, "PV input" for micro inverters. */
  noun: LocalisedText;
}

/**
 * Model 160 (multiple MPPT, L = 8 + 20 per input): per-input current, voltage, power and lifetime
 * energy. Its scale factors and global events are prefixed "Mppt" because model 103 already uses the
 * SunSpec names DCA_SF… and Evt for the inverter totals.
 */
export function addMpptModel(b: RegisterMapBuilder, options: MpptOptions): void {
  const m = b.model(8 + 20 * options.inputs);
  m(0, sf('MpptDCA_SF', t('MPPT current scale factor', 'MPPT电流比例因子')));
  m(1, sf('MpptDCV_SF', t('MPPT voltage scale factor', 'MPPT电压比例因子')));
  m(2, sf('MpptDCW_SF', t('MPPT power scale factor', 'MPPT功率比例因子')));
  m(3, sf('MpptDCWH_SF', t('MPPT energy scale factor', 'MPPT电量比例因子')));
  m(4, { id: 'MpptEvt', label: t('MPPT event flags', 'MPPT事件标志'), type: 'bits32', role: 'event_bits' });
  for (let n = 1; n <= options.inputs; n++) {
    const at = 8 + 20 * (n - 1);
    const en = `${options.noun.en} ${n}`;
    const zh = `${options.noun.zh}${n}`;
    m(at + 9, { id: `DCA${n}`, label: t(`${en} current`, `${zh}电流`), type: 'u16', unit: 'A', scaleFactorPoint: 'MpptDCA_SF' });
    m(at + 10, { id: `DCV${n}`, label: t(`${en} voltage`, `${zh}电压`), type: 'u16', unit: 'V', scaleFactorPoint: 'MpptDCV_SF' });
    m(at + 11, { id: `DCW${n}`, label: t(`${en} power`, `${zh}功率`), type: 'u16', unit: 'W', scaleFactorPoint: 'MpptDCW_SF' });
    m(at + 12, {
      id: `DCWH${n}`,
      label: t(`${en} lifetime energy`, `${zh}累计发电量`),
      type: 'u32',
      accumulator: true,
      unit: 'Wh',
      scaleFactorPoint: 'MpptDCWH_SF',
    });
  }
}

/** SunSpec Evt1 of models 101–103 (bits as in the model). */
export const INVERTER_EVENT_TEXTS: readonly EventText[] = [
  ev(
    0,
    'fault',
    t('Ground fault (insulation resistance too low)', '接地故障（绝缘阻抗过低）'),
    t(
      'Check the PV strings and cables for damaged insulation or a short to ground, and measure the insulation resistance before restarting',
      '检查光伏组串和线缆绝缘是否破损或对地短路，重新开机前测量绝缘阻抗',
    ),
  ),
  ev(
    1,
    'protect',
    t('DC input over-voltage', '直流输入过压'),
    t(
      "Check that the string open-circuit voltage at the lowest site temperature stays below the inverter's maximum input voltage; reduce the modules per string if needed",
      '核实组串在当地最低温度下的开路电压低于逆变器最大输入电压，必要时减少每串组件数量',
    ),
  ),
  ev(
    2,
    'warning',
    t('AC switch open', '交流开关断开'),
    t('Close the AC disconnect or breaker between the inverter and the grid', '闭合逆变器与电网之间的交流开关或断路器'),
  ),
  ev(3, 'warning', t('DC switch open', '直流开关断开'), t('Close the DC switch of the inverter', '闭合逆变器的直流开关')),
  ev(
    4,
    'protect',
    t('Grid lost', '电网断开'),
    t(
      'Check the grid connection and breakers and whether there is a utility outage; the inverter reconnects by itself when the grid is back',
      '检查并网线路和断路器，确认是否电网停电；电网恢复后逆变器会自动重新并网',
    ),
  ),
  ev(5, 'warning', t('Cabinet door open', '机柜门打开'), t('Close and lock the cabinet door', '关闭并锁好机柜门')),
  ev(
    6,
    'warning',
    t('Manual shutdown', '手动关机'),
    t(
      'The inverter was shut down by a local or remote command; start it again when the work is finished',
      '逆变器已被本地或远程指令关机，作业完成后请重新开机',
    ),
  ),
  ev(
    7,
    'protect',
    t('Over-temperature', '机内温度过高'),
    t(
      'Check the ventilation, fans and heat sink for dust or obstruction, and keep the inverter out of direct sunlight',
      '检查通风、风扇和散热器是否积尘或被遮挡，避免阳光直射逆变器',
    ),
  ),
  ev(
    8,
    'protect',
    t('Grid over-frequency', '电网频率过高'),
    t(
      'Check the grid frequency; if it persists, verify the grid code setting or contact the grid operator',
      '检查电网频率；若持续出现，请核实并网标准设置或联系电网公司',
    ),
  ),
  ev(
    9,
    'protect',
    t('Grid under-frequency', '电网频率过低'),
    t(
      'Check the grid frequency; if it persists, verify the grid code setting or contact the grid operator',
      '检查电网频率；若持续出现，请核实并网标准设置或联系电网公司',
    ),
  ),
  ev(
    10,
    'protect',
    t('Grid over-voltage', '电网电压过高'),
    t(
      'Measure the voltage at the inverter terminals and check the AC cable size and length; contact the grid operator if the grid itself is high',
      '测量逆变器交流端电压，检查交流线缆线径和长度；若电网电压本身偏高请联系电网公司',
    ),
  ),
  ev(
    11,
    'protect',
    t('Grid under-voltage', '电网电压过低'),
    t('Measure the grid voltage and check the AC wiring and breaker', '测量电网电压，检查交流接线和断路器'),
  ),
  ev(
    12,
    'fault',
    t('String fuse blown', '组串熔丝熔断'),
    t(
      'Find the string with the blown fuse, remove the cause (short circuit or reverse current) and replace the fuse',
      '找到熔丝熔断的组串，排除短路或反向电流等原因后更换熔丝',
    ),
  ),
  ev(
    13,
    'warning',
    t('Under-temperature', '机内温度过低'),
    t(
      'The inverter waits until its internal temperature is back in the operating range; contact service if it persists',
      '逆变器将等待机内温度回到工作范围；若持续出现请联系售后服务',
    ),
  ),
  ev(
    14,
    'fault',
    t('Memory error', '存储器故障'),
    t('Restart the inverter; if the fault returns, contact service', '重启逆变器；若故障再次出现，请联系售后服务'),
  ),
  ev(
    15,
    'fault',
    t('Hardware self-test failed', '硬件自检失败'),
    t('Restart the inverter; if the self-test fails again, contact service', '重启逆变器；若自检仍然失败，请联系售后服务'),
  ),
];

/** Model 160 global events worth raising on their own (the others repeat Evt1). */
export const MPPT_EVENT_TEXTS: readonly EventText[] = [
  ev(
    15,
    'fault',
    t('DC arc fault detected', '检测到直流电弧故障'),
    t(
      'Shut the inverter down and inspect the DC connectors and cables for loose or burnt contacts before restarting',
      '关闭逆变器，检查直流连接器和线缆是否松动或烧蚀，处理后再开机',
    ),
  ),
  ev(
    21,
    'warning',
    t('PV input under-voltage', '光伏输入电压过低'),
    t(
      'Normal at dawn and dusk; otherwise check the string wiring and the number of modules per string',
      '清晨和傍晚属正常现象；否则请检查组串接线和每串组件数量',
    ),
  ),
  ev(
    22,
    'protect',
    t('PV input over-current', '光伏输入过流'),
    t(
      "Check that the strings' short-circuit current and the number of parallel strings are within the inverter's input limits",
      '核实组串短路电流和并联组串数量在逆变器输入限值以内',
    ),
  ),
];

/**
 * Events of an inverter-like map: Evt1 codes 1001–1016 (1001 + bit); the MPPT model's own events go on
 * from 1017 in bit order, so codes stay short and stable.
 */
export function inverterEvents(): EventDefinition[] {
  const mppt = MPPT_EVENT_TEXTS.map((text, i) => ({
    point: 'MpptEvt',
    bit: text.bit,
    code: 1017 + i,
    level: text.level,
    description: text.description,
    solution: text.solution,
  }));
  return [...eventsOf('Evt1', 1001, INVERTER_EVENT_TEXTS), ...mppt];
}
