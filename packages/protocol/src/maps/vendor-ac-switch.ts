/**
 * Smart three-phase AC switch (recloser with metering and residual-current protection), vendor-style
 * map: input registers for measurements, holding registers from 256 for the switch and its limits.
 */
import type { LocalisedText, ProtocolDefinition } from '../types.js';
import { ev, eventsOf, RegisterMapBuilder, t } from './builder.js';

const PHASES = ['A', 'B', 'C'] as const;

const STATES: Record<number, LocalisedText> = {
  0: t('Off (open)', '分闸'),
  1: t('On (closed)', '合闸'),
  2: t('Tripped', '跳闸'),
  3: t('Fault', '故障'),
};

function switchPoints() {
  const inputs = new RegisterMapBuilder(4, 0);
  inputs.place(0, {
    id: 'St',
    label: t('Switch state', '开关状态'),
    type: 'u16',
    role: 'operating_state',
    required: true,
    enumeration: STATES,
  });
  PHASES.forEach((phase, i) => {
    inputs.place(1 + i, { id: `PhVph${phase}`, label: t(`Phase ${phase} voltage`, `${phase}相电压`), type: 'u16', unit: 'V', scale: 0.1 });
    inputs.place(4 + i, { id: `Aph${phase}`, label: t(`Phase ${phase} current`, `${phase}相电流`), type: 'u16', unit: 'A', scale: 0.01 });
    inputs.place(7 + i, { id: `Wph${phase}`, label: t(`Phase ${phase} active power`, `${phase}相有功功率`), type: 's16', unit: 'W' });
  });
  inputs.place(10, { id: 'W', label: t('Total active power', '总有功功率'), type: 's32', unit: 'W', role: 'power', required: true });
  inputs.place(12, { id: 'Hz', label: t('Frequency', '频率'), type: 'u16', unit: 'Hz', scale: 0.01 });
  inputs.place(13, { id: 'LeakA', label: t('Leakage current', '漏电流'), type: 'u16', unit: 'mA' });
  inputs.place(14, { id: 'Tmp', label: t('Internal temperature', '内部温度'), type: 's16', unit: '°C', scale: 0.1 });
  inputs.place(16, { id: 'WH', label: t('Lifetime energy', '累计电量'), type: 'u64', unit: 'Wh', role: 'energy_total', required: true });
  inputs.place(20, { id: 'Evt', label: t('Trip and alarm flags', '跳闸及告警标志'), type: 'bits32', role: 'event_bits', required: true });
  inputs.place(22, { id: 'TripCnt', label: t('Trip count', '跳闸次数'), type: 'u32', wordSwap: true });
  inputs.place(30, { id: 'SN', label: t('Serial number', '序列号'), type: 'string', count: 8 });

  const holding = new RegisterMapBuilder(3, 256);
  holding.place(256, {
    id: 'Conn',
    label: t('Switch on / off', '合闸/分闸'),
    type: 'u16',
    operation: 'rw',
    min: 0,
    max: 1,
    enumeration: { 0: t('Off', '分闸'), 1: t('On', '合闸') },
  });
  holding.place(257, { id: 'WLim', label: t('Power limit', '功率限值'), type: 'u16', unit: 'W', operation: 'rw', min: 1, max: 45000 });
  holding.place(258, {
    id: 'ALim',
    label: t('Current limit', '电流限值'),
    type: 'u16',
    unit: 'A',
    scale: 0.1,
    operation: 'rw',
    min: 1,
    max: 63,
  });
  holding.place(259, {
    id: 'VLimHi',
    label: t('Over-voltage limit', '过压限值'),
    type: 'u16',
    unit: 'V',
    scale: 0.1,
    operation: 'rw',
    min: 230,
    max: 300,
  });
  holding.place(260, {
    id: 'VLimLo',
    label: t('Under-voltage limit', '欠压限值'),
    type: 'u16',
    unit: 'V',
    scale: 0.1,
    operation: 'rw',
    min: 150,
    max: 220,
  });
  holding.place(261, {
    id: 'LeakLim',
    label: t('Leakage current limit', '漏电流限值'),
    type: 'u16',
    unit: 'mA',
    operation: 'rw',
    min: 10,
    max: 300,
  });
  holding.place(262, {
    id: 'TmpLim',
    label: t('Temperature limit', '温度限值'),
    type: 's16',
    unit: '°C',
    scale: 0.1,
    operation: 'rw',
    min: 40,
    max: 100,
  });
  // The closed (reclose) value of each limit (spec 02 §5): rw, the unit, scale and range of its open value.
  // Over-limits close again below it; the under-voltage limit closes again above it (see settingPairs).
  const reclose = (address: number, open: string, label: LocalisedText) => {
    const of = holding.points.find((p) => p.id === open);
    if (!of) throw new Error(`no open value ${open}`);
    holding.place(address, {
      id: `${open}Rcl`,
      label,
      type: of.type,
      ...(of.unit ? { unit: of.unit } : {}),
      ...(of.scale ? { scale: of.scale } : {}),
      operation: 'rw',
      ...(of.min !== undefined ? { min: of.min } : {}),
      ...(of.max !== undefined ? { max: of.max } : {}),
    });
  };
  reclose(263, 'WLim', t('Power limit, reclose value', '功率限值（恢复合闸值）'));
  reclose(264, 'ALim', t('Current limit, reclose value', '电流限值（恢复合闸值）'));
  reclose(265, 'VLimHi', t('Over-voltage limit, reclose value', '过压限值（恢复合闸值）'));
  reclose(266, 'VLimLo', t('Under-voltage limit, reclose value', '欠压限值（恢复合闸值）'));
  reclose(267, 'LeakLim', t('Leakage current limit, reclose value', '漏电流限值（恢复合闸值）'));
  reclose(268, 'TmpLim', t('Temperature limit, reclose value', '温度限值（恢复合闸值）'));
  // The residual-current self-check (issue 22): writing 1 starts a leakage test; the switch answers the write at
  // once (as any Modbus write) and reports the outcome in LeakTestRes/LeakTestMa/LeakTestCnt when it is done.
  holding.place(269, {
    id: 'LeakTest',
    label: t('Start leakage self-test', '启动漏电自检'),
    type: 'u16',
    operation: 'rw',
    min: 0,
    max: 1,
    enumeration: { 0: t('Idle', '空闲'), 1: t('Start', '启动') },
  });
  // How often the switch reports, in minutes (the console's upload frequency, written to the switch).
  holding.place(270, {
    id: 'RptIntv',
    label: t('Report interval', '上报间隔'),
    type: 'u16',
    unit: 'min',
    operation: 'rw',
    min: 1,
    max: 60,
  });
  // Appended after the holding registers: the stored readings keep the order of the first version.
  const results = new RegisterMapBuilder(4, 24);
  results.place(24, {
    id: 'LeakTestRes',
    label: t('Last leakage self-test', '上次漏电自检结果'),
    type: 'u16',
    enumeration: { 0: t('None yet', '尚未自检'), 1: t('Passed', '通过'), 2: t('Failed', '失败'), 3: t('Under way', '进行中') },
  });
  results.place(25, { id: 'LeakTestMa', label: t('Self-test leakage current', '自检漏电流'), type: 'u16', unit: 'mA' });
  results.place(26, { id: 'LeakTestCnt', label: t('Self-tests done', '自检次数'), type: 'u16' });
  return [...inputs.points, ...holding.points, ...results.points];
}

/** Each limit's open (trip) value beside its closed (reclose) value; under-voltage trips below its limit. */
const LIMIT_PAIRS = [
  { open: 'WLim', closed: 'WLimRcl', trip: 'above' },
  { open: 'ALim', closed: 'ALimRcl', trip: 'above' },
  { open: 'VLimHi', closed: 'VLimHiRcl', trip: 'above' },
  { open: 'VLimLo', closed: 'VLimLoRcl', trip: 'below' },
  { open: 'LeakLim', closed: 'LeakLimRcl', trip: 'above' },
  { open: 'TmpLim', closed: 'TmpLimRcl', trip: 'above' },
] as const;

export const VENDOR_AC_SWITCH: ProtocolDefinition = {
  id: 'vendor-ac-switch',
  version: '1.0.0',
  name: t('Smart AC switch', '智能空开'),
  family: 'ac_switch',
  manufacturer: 'Generic',
  source: 'Vendor-style map (no SunSpec model exists for AC switches)',
  points: switchPoints(),
  settingsFamilies: { 'setting/switch': LIMIT_PAIRS.flatMap((pair) => [pair.open, pair.closed]) },
  settingPairs: LIMIT_PAIRS,
  events: eventsOf('Evt', 7001, [
    ev(
      0,
      'protect',
      t('Over-current trip', '过流跳闸'),
      t('Reduce the load below the current limit, then switch on again', '将负载降到电流限值以下后重新合闸'),
    ),
    ev(
      1,
      'fault',
      t('Short-circuit trip', '短路跳闸'),
      t('Find and repair the short circuit downstream before switching on', '排查并修复下游回路短路后再合闸'),
    ),
    ev(
      2,
      'protect',
      t('Over-voltage trip', '过压跳闸'),
      t(
        'Check the supply voltage; with auto-reclose enabled the switch closes again once the voltage is normal',
        '检查供电电压；若启用自动重合闸，电压恢复正常后将自动合闸',
      ),
    ),
    ev(
      3,
      'protect',
      t('Under-voltage trip', '欠压跳闸'),
      t(
        'Check the supply voltage; with auto-reclose enabled the switch closes again once the voltage is normal',
        '检查供电电压；若启用自动重合闸，电压恢复正常后将自动合闸',
      ),
    ),
    ev(
      4,
      'protect',
      t('Residual current trip', '漏电跳闸'),
      t('Check the downstream equipment and cables for damaged insulation or moisture', '检查下游设备和线缆是否绝缘破损或受潮'),
    ),
    ev(
      5,
      'protect',
      t('Over-temperature trip', '过温跳闸'),
      t('Check the terminals for loose connections and improve the ventilation', '检查接线端子是否松动，并改善通风'),
    ),
    ev(6, 'protect', t('Over-power trip', '过载跳闸'), t('Reduce the load below the power limit', '将负载降到功率限值以下')),
    ev(7, 'protect', t('Phase loss', '缺相'), t('Check the upstream supply of every phase', '检查上级各相供电')),
    ev(
      8,
      'warning',
      t('Switched off by hand', '手动分闸'),
      t('Switch on again when the work on the circuit is finished', '回路作业完成后重新合闸'),
    ),
    ev(
      9,
      'warning',
      t('Switched off remotely', '远程分闸'),
      t('Switch on again from the console when the circuit may be energised', '确认回路可以送电后在平台上重新合闸'),
    ),
    ev(
      10,
      'fault',
      t('Contacts welded', '触头粘连'),
      t('Replace the switch: it can no longer disconnect the circuit reliably', '请更换开关：该回路已无法可靠断开'),
    ),
    ev(
      11,
      'fault',
      t('Residual current self-test failed', '漏电自检失败'),
      t('Press the test button again and replace the switch if it does not trip', '再次按下试验按钮，若不能脱扣请更换开关'),
    ),
  ]),
};
