import { describe, expect, it } from 'vitest';
import { decodeBlocks, decodeEvents, encodeValues, numericPointIds, registersForType } from '../codec.js';
import { sampleValues } from '../sample-values.js';
import type { DeviceFamily, LocalisedText, ProtocolDefinition, RegisterPoint } from '../types.js';
import { BUILT_IN_PROTOCOLS, protocolById } from './index.js';

const FAMILIES = Object.keys({
  inverter: true,
  hybrid_inverter: true,
  micro_inverter: true,
  meter: true,
  battery: true,
  optimizer: true,
  weather_station: true,
  combiner_box: true,
  heat_pump: true,
  ac_switch: true,
} satisfies Record<DeviceFamily, true>) as DeviceFamily[];

const IDS = [
  'sunspec-inverter-1p',
  'sunspec-inverter-3p',
  'sunspec-hybrid-lv',
  'sunspec-hybrid-hv',
  'sunspec-micro-inverter',
  'sunspec-meter-3p',
  'sunspec-battery-bms',
  'sunspec-optimizer',
  'sunspec-weather-station',
  'sunspec-combiner-box',
  'vendor-heat-pump',
  'vendor-ac-switch',
];

const INVERTER_LIKE: readonly DeviceFamily[] = ['inverter', 'hybrid_inverter', 'micro_inverter'];

const CHINESE = /[\u4e00-\u9fff]/;

function expectLocalised(text: LocalisedText, where: string): void {
  expect(text.en.trim(), `${where} (en)`).not.toBe('');
  expect(CHINESE.test(text.zh), `${where} (zh) should be Chinese: ${text.zh}`).toBe(true);
}

function width(point: RegisterPoint): number {
  return point.type === 'string' ? point.count : registersForType(point.type);
}

function byId(protocol: ProtocolDefinition, id: string): RegisterPoint {
  const point = protocol.points.find((p) => p.id === id);
  if (point === undefined) throw new Error(`${protocol.id} has no point ${id}`);
  return point;
}

describe('the built-in maps as a set', () => {
  it('has the ids gateways send', () => {
    expect(BUILT_IN_PROTOCOLS.map((protocol) => protocol.id).sort()).toEqual([...IDS].sort());
    for (const id of IDS) expect(protocolById(id)?.id).toBe(id);
    expect(protocolById('sunspec-inverter')).toBeUndefined();
  });

  it('covers every device family', () => {
    for (const family of FAMILIES)
      expect(
        BUILT_IN_PROTOCOLS.some((protocol) => protocol.family === family),
        family,
      ).toBe(true);
  });
});

describe.each(BUILT_IN_PROTOCOLS.map((protocol) => [protocol.id, protocol] as const))('%s', (_id, protocol) => {
  it('names its source, its version and itself in both languages', () => {
    expect(protocol.source).not.toBe('');
    if (protocol.id.startsWith('sunspec-')) expect(protocol.source).toMatch(/SunSpec models? [\d, ]+.*Apache-2\.0/);
    expect(protocol.version).toMatch(/^\d+\.\d+\.\d+$/);
    expectLocalised(protocol.name, 'name');
  });

  it('has unique point ids and well-formed points', () => {
    const ids = protocol.points.map((point) => point.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const point of protocol.points) {
      expect(point.id).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
      expect([3, 4]).toContain(point.functionCode);
      expect(Number.isInteger(point.address) && point.address >= 0, point.id).toBe(true);
      expect(point.count, point.id).toBe(width(point));
      expect(point.address + point.count, point.id).toBeLessThanOrEqual(0x10000);
      expectLocalised(point.label, point.id);
      for (const [value, text] of Object.entries(point.enumeration ?? {})) expectLocalised(text, `${point.id}=${value}`);
      if (point.operation === 'rw') {
        expect(point.min, `${point.id} min`).toBeTypeOf('number');
        expect(point.max, `${point.id} max`).toBeTypeOf('number');
        expect(point.min ?? 0).toBeLessThanOrEqual(point.max ?? 0);
      }
      if (point.accumulator) expect(['u16', 'u32', 'u64']).toContain(point.type);
    }
  });

  it('has no two points of the same function code overlapping', () => {
    for (const functionCode of [3, 4]) {
      const points = protocol.points.filter((point) => point.functionCode === functionCode).sort((a, b) => a.address - b.address);
      points.forEach((point, i) => {
        const next = points[i + 1];
        if (next) expect(point.address + point.count, `${point.id} overlaps ${next.id}`).toBeLessThanOrEqual(next.address);
      });
    }
  });

  it('names an existing s16 point in every scaleFactorPoint', () => {
    for (const point of protocol.points) {
      if (point.scaleFactorPoint === undefined) continue;
      const factor = byId(protocol, point.scaleFactorPoint);
      expect(factor.type, `${point.id} → ${factor.id}`).toBe('s16');
      expect(factor.scaleFactorPoint).toBeUndefined();
      expect(factor.role).toBeUndefined();
    }
  });

  it('attaches every event to an event_bits point, on a bit within its width, with a unique code', () => {
    for (const event of protocol.events) {
      const point = byId(protocol, event.point);
      expect(point.role, event.point).toBe('event_bits');
      expect(Number.isInteger(event.bit) && event.bit >= 0 && event.bit < 16 * point.count, `bit ${event.bit}`).toBe(true);
      expect(String(event.code)).toMatch(/^[1-9]\d*$/);
      expect(['fault', 'warning', 'protect']).toContain(event.level);
      expectLocalised(event.description, `event ${event.code}`);
      expectLocalised(event.solution, `event ${event.code} solution`);
    }
    const codes = protocol.events.map((event) => event.code);
    expect(new Set(codes).size).toBe(codes.length);
    const bits = protocol.events.map((event) => `${event.point}:${event.bit}`);
    expect(new Set(bits).size).toBe(bits.length);
  });

  it('gives each pipeline role to at most one point, with the right unit', () => {
    const units: Record<string, string> = {
      power: 'W',
      energy_total: 'Wh',
      energy_export_total: 'Wh',
      energy_charge_total: 'Wh',
      energy_discharge_total: 'Wh',
      soc: '%',
    };
    for (const [role, unit] of Object.entries(units)) {
      const points = protocol.points.filter((point) => point.role === role);
      expect(points.length, role).toBeLessThanOrEqual(1);
      for (const point of points) expect(point.unit, point.id).toBe(unit);
    }
    expect(protocol.points.filter((point) => point.role === 'operating_state').length).toBeLessThanOrEqual(1);
  });

  it('round-trips a realistic value set through encodeValues and decodeBlocks', () => {
    const values = sampleValues(protocol);
    expect(Object.keys(values)).toHaveLength(protocol.points.length);
    const decoded = decodeBlocks(protocol, encodeValues(protocol, values));
    expect(decoded.problems).toEqual([]);
    expect(decoded.values).toEqual(values);
    expect(decodeEvents(protocol, decoded.values)).toEqual([]);
  });

  it('raises every event from its bit', () => {
    const values = sampleValues(protocol);
    for (const event of protocol.events) {
      const decoded = decodeBlocks(protocol, encodeValues(protocol, { ...values, [event.point]: 2 ** event.bit }));
      const raised = decodeEvents(protocol, decoded.values);
      expect(raised, `event ${event.code}`).toEqual([{ code: event.code, level: event.level, bit: event.bit, point: event.point }]);
    }
  });

  it('stores every numeric point except scale factors', () => {
    const stored = numericPointIds(protocol);
    const factors = new Set(protocol.points.map((point) => point.scaleFactorPoint));
    expect(stored).toEqual(protocol.points.filter((point) => point.type !== 'string' && !factors.has(point.id)).map((point) => point.id));
    for (const role of ['power', 'energy_total', 'operating_state', 'soc', 'event_bits'] as const) {
      for (const point of protocol.points.filter((p) => p.role === role)) expect(stored).toContain(point.id);
    }
  });

  if (INVERTER_LIKE.includes(protocol.family)) {
    it('has what every inverter-like map needs', () => {
      const state = byId(protocol, 'St');
      expect(state.role).toBe('operating_state');
      expect(Object.keys(state.enumeration ?? {}).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(byId(protocol, 'W')).toMatchObject({ role: 'power', unit: 'W', scaleFactorPoint: 'W_SF' });
      expect(byId(protocol, 'WH')).toMatchObject({
        role: 'energy_total',
        unit: 'Wh',
        type: 'u32',
        accumulator: true,
        scaleFactorPoint: 'WH_SF',
      });
      expect(byId(protocol, 'Evt1').role).toBe('event_bits');
      expect(protocol.events.filter((event) => event.point === 'Evt1').map((event) => event.bit)).toEqual(
        Array.from({ length: 16 }, (_, i) => i),
      );
      expect(byId(protocol, 'Conn')).toMatchObject({ operation: 'rw', min: 0, max: 1 });
      expect(byId(protocol, 'WMaxLimPct')).toMatchObject({ operation: 'rw', min: 0, max: 100, unit: '%' });
      expect(byId(protocol, 'WMaxLim_Ena')).toMatchObject({ operation: 'rw', min: 0, max: 1 });
      for (const id of ['PhVphA', 'AphA', 'Hz', 'DCA1', 'DCV1', 'DCW1', 'TmpCab']) byId(protocol, id);
    });
  }
});

describe('family specifics', () => {
  const get = (id: string) => protocolById(id) as ProtocolDefinition;

  it('has the phases and trackers each inverter is described with', () => {
    expect(get('sunspec-inverter-1p').points.some((p) => p.id === 'PhVphB')).toBe(false);
    for (const id of ['PhVphA', 'PhVphB', 'PhVphC', 'DCA3']) byId(get('sunspec-inverter-3p'), id);
    for (const id of ['DCA4', 'DCW4', 'DCWH4']) byId(get('sunspec-micro-inverter'), id);
  });

  it('keeps the hybrid main power on the AC output and gives the battery its own points', () => {
    for (const id of ['sunspec-hybrid-lv', 'sunspec-hybrid-hv']) {
      const hybrid = get(id);
      expect(byId(hybrid, 'W').role).toBe('power');
      expect(byId(hybrid, 'BatW').role).toBeUndefined();
      expect(byId(hybrid, 'SoC').role).toBe('soc');
      expect(byId(hybrid, 'BatChaWH').role).toBe('energy_charge_total');
      expect(byId(hybrid, 'BatDisWH').role).toBe('energy_discharge_total');
      for (const point of ['GridW', 'GridImpWH', 'GridExpWH', 'LoadW', 'LoadWH', 'BatV', 'BatA']) byId(hybrid, point);
    }
    byId(get('sunspec-hybrid-hv'), 'BatVMax');
    byId(get('sunspec-hybrid-lv'), 'AChaMax');
  });

  it('describes the meter with per-phase values and import/export counters', () => {
    const meter = get('sunspec-meter-3p');
    for (const id of ['PhVphA', 'PhVphB', 'PhVphC', 'AphA', 'WphC', 'PFphB', 'Hz']) byId(meter, id);
    expect(byId(meter, 'TotWhImp').role).toBe('energy_total');
    expect(byId(meter, 'TotWhExp').role).toBe('energy_export_total');
  });

  it('describes the BMS down to its cells', () => {
    const bms = get('sunspec-battery-bms');
    for (let n = 1; n <= 16; n++) expect(byId(bms, `CellV${n}`).unit).toBe('V');
    for (let n = 1; n <= 8; n++) expect(byId(bms, `CellT${n}`).unit).toBe('°C');
    expect(bms.points.some((p) => p.id === 'CellV17' || p.id === 'CellT9')).toBe(false);
    expect(Object.keys(byId(bms, 'SysSt').enumeration ?? {})).toHaveLength(7);
    expect(byId(bms, 'RelaySt').type).toBe('bits16');
    expect(byId(bms, 'SoC').role).toBe('soc');
    expect(byId(bms, 'ChaWH').role).toBe('energy_charge_total');
    expect(byId(bms, 'DisChaWH').role).toBe('energy_discharge_total');
    for (const id of ['SoH', 'V', 'A', 'Tmp', 'NCyc', 'AHRtg']) byId(bms, id);
  });

  it('describes the remaining families', () => {
    for (let n = 1; n <= 16; n++) byId(get('sunspec-combiner-box'), `InDCA${n}`);
    for (const id of ['GHI', 'POAI', 'TmpAmb', 'TmpBOM', 'WndSpd', 'WndDir', 'RH', 'Pres', 'Rain'])
      byId(get('sunspec-weather-station'), id);
    for (const id of ['DCV', 'DCA', 'DCW', 'OutV', 'OutA', 'OutW', 'Tmp', 'DCWH']) byId(get('sunspec-optimizer'), id);
    const heatPump = get('vendor-heat-pump');
    expect(byId(heatPump, 'Mode')).toMatchObject({ operation: 'rw', min: 0, max: 4 });
    expect(Object.keys(byId(heatPump, 'Mode').enumeration ?? {})).toHaveLength(5);
    for (const id of ['WaterInTmp', 'WaterOutTmp', 'TankTmp', 'AmbTmp', 'SetTmp', 'W', 'WH', 'COP', 'Evt']) byId(heatPump, id);
    const acSwitch = get('vendor-ac-switch');
    for (const id of ['Conn', 'WLim', 'ALim', 'VLimHi', 'VLimLo', 'LeakLim', 'TmpLim']) expect(byId(acSwitch, id).operation).toBe('rw');
    // Each limit's closed (reclose) value after 262: rw, with its open value's unit, scale and range, in its family.
    expect(acSwitch.settingPairs?.map((pair) => [pair.open, pair.closed, pair.trip])).toEqual([
      ['WLim', 'WLimRcl', 'above'],
      ['ALim', 'ALimRcl', 'above'],
      ['VLimHi', 'VLimHiRcl', 'above'],
      ['VLimLo', 'VLimLoRcl', 'below'],
      ['LeakLim', 'LeakLimRcl', 'above'],
      ['TmpLim', 'TmpLimRcl', 'above'],
    ]);
    for (const [n, pair] of (acSwitch.settingPairs ?? []).entries()) {
      const open = byId(acSwitch, pair.open);
      const closed = byId(acSwitch, pair.closed);
      expect(closed).toMatchObject({ functionCode: 3, address: 263 + n, operation: 'rw', type: open.type, unit: open.unit, min: open.min });
      expect([closed.scale, closed.max]).toEqual([open.scale, open.max]);
      expect(open.min).toBeGreaterThan(0);
      expect(acSwitch.settingsFamilies?.['setting/switch']).toEqual(expect.arrayContaining([pair.open, pair.closed]));
    }
    // The built-in samples (the simulator's first values) already keep every pair in order, as whole numbers.
    const sample = sampleValues(acSwitch);
    for (const pair of acSwitch.settingPairs ?? []) {
      const [open, closed] = [Number(sample[pair.open]), Number(sample[pair.closed])];
      expect(Number.isInteger(open) && Number.isInteger(closed)).toBe(true);
      expect(pair.trip === 'above' ? open > closed : closed > open).toBe(true);
    }
    for (const id of ['PhVphA', 'AphB', 'WphC', 'LeakA', 'Tmp', 'WH', 'Evt']) byId(acSwitch, id);
    // The self-check (write 1 to start; the outcome in input registers) and the report interval, appended so
    // the stored readings keep their order; an idle sample (no test started, none done).
    expect(byId(acSwitch, 'LeakTest')).toMatchObject({ functionCode: 3, address: 269, operation: 'rw', min: 0, max: 1 });
    expect(byId(acSwitch, 'RptIntv')).toMatchObject({ functionCode: 3, address: 270, operation: 'rw', unit: 'min', min: 1, max: 60 });
    expect(['LeakTestRes', 'LeakTestMa', 'LeakTestCnt'].map((id) => [byId(acSwitch, id).functionCode, byId(acSwitch, id).address])).toEqual(
      [
        [4, 24],
        [4, 25],
        [4, 26],
      ],
    );
    expect(acSwitch.points.slice(-3).map((p) => p.id)).toEqual(['LeakTestRes', 'LeakTestMa', 'LeakTestCnt']);
    expect(sample).toMatchObject({ LeakTest: 0, LeakTestRes: 0, LeakTestCnt: 0 });
  });

  it('places SunSpec models from 40002, after "SunS" at 40000', () => {
    for (const protocol of BUILT_IN_PROTOCOLS.filter((p) => p.id.startsWith('sunspec-'))) {
      expect(byId(protocol, 'Mn').address).toBe(40004); // model 1 body, after its ID and L registers
    }
    expect(byId(get('sunspec-inverter-3p'), 'W').address).toBe(40084); // model 103 at 40070, W at offset 12
  });
});
