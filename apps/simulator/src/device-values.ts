import type { SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { sampleValues } from '@sunward/protocol/sample-values';
import type { DecodedValue, PointRole, ProtocolDefinition } from '@sunward/protocol/types';
import { protect } from './ac-switch.js';
import type { Random } from './physics/random.js';
import type { BatteryLimits, PlantSnapshot } from './plant-model.js';

type Device = SimulatedGateway['devices'][number];
type Values = Record<string, DecodedValue>;

/** SunSpec St (operating state) values the simulator uses. */
const St = { OFF: 1, SLEEPING: 2, MPPT: 4, FAULT: 7, STANDBY: 8 } as const;

const round = (value: number, decimals = 0) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** State a device keeps between reports: any fault it is going through and what the server set. */
export interface DeviceState {
  device: Device;
  protocol: ProtocolDefinition;
  base: Values;
  random: Random;
  /** The fault or warning under way; `stepsLeft` Infinity for one the history schedules (it clears it). */
  fault: { point: string; bit: number; level: string; stepsLeft: number } | undefined;
  /** Parameters the server set (writable points); they stay until changed again. */
  overrides: Values;
  /** The values of the last report, for register reads. */
  lastValues: Values;
  firmwareVersion: string;
}

export function createDeviceState(device: Device, protocol: ProtocolDefinition, random: Random): DeviceState {
  const base = sampleValues(protocol);
  return {
    device,
    protocol,
    base,
    random,
    fault: undefined,
    overrides: {},
    lastValues: base,
    firmwareVersion: typeof base.Vr === 'string' ? base.Vr : '1.0.0',
  };
}

/** Occasional faults and warnings that clear by themselves (about one per device per three days at 1-minute reports). */
function stepFault(state: DeviceState, faultRate: number) {
  if (state.fault) {
    state.fault.stepsLeft -= 1;
    if (state.fault.stepsLeft <= 0) state.fault = undefined;
    return;
  }
  if (state.protocol.events.length === 0 || faultRate <= 0 || state.random.next() > faultRate) return;
  const event = state.random.pick(state.protocol.events);
  state.fault = { point: event.point, bit: event.bit, level: event.level, stepsLeft: state.random.int(3, 20) };
}

function eventBits(state: DeviceState): Values {
  const bits: Values = {};
  for (const point of state.protocol.points) if (point.role === 'event_bits') bits[point.id] = 0;
  if (state.fault) bits[state.fault.point] = 2 ** state.fault.bit;
  return bits;
}

function phases(
  totalW: number,
  phaseCount: number,
  voltage: number,
  random: Random,
  ids: { v: string[]; a: string[]; w?: string[] },
): Values {
  const out: Values = {};
  for (let i = 0; i < phaseCount; i++) {
    const v = voltage + random.normal(0, 1.2);
    const w = totalW / phaseCount;
    const vId = ids.v[i];
    const aId = ids.a[i];
    const wId = ids.w?.[i];
    if (vId) out[vId] = round(v, 1);
    if (aId) out[aId] = round(Math.abs(w) / v, 2);
    if (wId) out[wId] = round(w);
  }
  return out;
}

const pointIndex = new WeakMap<ProtocolDefinition, Map<string, ProtocolDefinition['points'][number]>>();

/**
 * `x` on the resolution the device's register map gives point `id` (its scale factor in `values`), so
 * that a total computed from its parts still equals their sum once both are encoded.
 */
function onResolution(protocol: ProtocolDefinition, values: Values, id: string, x: number): number {
  let points = pointIndex.get(protocol);
  if (!points) {
    points = new Map(protocol.points.map((p) => [p.id, p]));
    pointIndex.set(protocol, points);
  }
  const point = points.get(id);
  if (!point) return x;
  const exponent = point.scaleFactorPoint ? Number(values[point.scaleFactorPoint] ?? 0) : Math.round(Math.log10(point.scale ?? 1));
  return round(Math.round(x / 10 ** exponent) * 10 ** exponent, Math.max(0, -exponent));
}

/** Σ of the phase currents written by `phases` (SunSpec A is the total AC current). */
function totalCurrent(values: Values, ids: readonly string[]): number {
  return round(
    ids.reduce((sum, id) => sum + (typeof values[id] === 'number' ? Number(values[id]) : 0), 0),
    2,
  );
}

/** SunSpec 802 ChaSt: what the bank is doing. */
function chargeState(powerW: number, socPct: number): number {
  if (powerW < -1) return 4;
  if (powerW > 1) return 3;
  if (socPct >= 99.5) return 5;
  if (socPct <= 10.5) return 2;
  return 6;
}

/** Where the physics puts each role's quantity (SunSpec point ids), per family; anything else: `*`. */
const ROLE_SOURCES: Partial<Record<PointRole, Record<string, string>>> = {
  power: { optimizer: 'DCW', combiner_box: 'DCW', '*': 'W' },
  energy_total: { meter: 'TotWhImp', optimizer: 'DCWH', combiner_box: 'DCWh', '*': 'WH' },
  energy_export_total: { '*': 'TotWhExp' },
  energy_charge_total: { battery: 'ChaWH', '*': 'BatChaWH' },
  energy_discharge_total: { battery: 'DisChaWH', '*': 'BatDisWH' },
  soc: { '*': 'SoC' },
};

/**
 * A protocol made in the console names its points as its brand does ("Pac", "E_total"): its points with
 * a role take the physics' quantity for that role (on the point's resolution). Points named as SunSpec
 * names them already have it, and a map that has the SunSpec point keeps its own meaning for the role.
 */
function roleValues(protocol: ProtocolDefinition, values: Values, family: string): Values {
  const out: Values = {};
  for (const point of protocol.points) {
    const sources = point.role ? ROLE_SOURCES[point.role] : undefined;
    const source = sources ? (sources[family] ?? sources['*']) : undefined;
    if (!source || source === point.id || typeof values[source] !== 'number') continue;
    if (protocol.points.some((p) => p.id === source)) continue;
    out[point.id] = onResolution(protocol, values, point.id, Number(values[source]));
  }
  return out;
}

/**
 * A device's point values at a snapshot: the map's plausible defaults overridden by what the plant's
 * physics says (power, counters, temperatures, battery, grid). Values that are one quantity seen from
 * two devices agree (the hybrid's battery page and the BMS), and totals are the sums of their parts
 * (strings → DC input, phases → AC current).
 */
export function deviceValues(
  state: DeviceState,
  snapshot: PlantSnapshot,
  _dtSeconds: number,
  options: { faultRate: number; shutdown: boolean; powerLimitPct: number; upgrading?: boolean; bankPacks?: number },
): Values {
  stepFault(state, options.faultRate);
  const { device, random } = state;
  const values: Values = { ...state.base, ...eventBits(state) };
  const faulted = state.fault?.level === 'fault';
  const pv = snapshot.pvDevices.get(device.sn);
  const own = snapshot.otherDevices.get(device.sn);
  const bank = snapshot.battery;
  const night = snapshot.poa < 5;
  const PHASE_A = ['AphA', 'AphB', 'AphC'];
  switch (device.family) {
    case 'inverter':
    case 'hybrid_inverter':
    case 'micro_inverter': {
      const hybrid = device.family === 'hybrid_inverter';
      const acW = faulted ? 0 : (pv?.acW ?? 0) + (hybrid ? snapshot.batteryW : 0);
      const threePhase = state.protocol.points.some((p) => p.id === 'PhVphC');
      Object.assign(values, phases(acW, threePhase ? 3 : 1, 230, random, { v: ['PhVphA', 'PhVphB', 'PhVphC'], a: PHASE_A }));
      values.A = totalCurrent(values, threePhase ? PHASE_A : ['AphA']);
      if (threePhase)
        Object.assign(values, {
          PPVphAB: round(400 + random.normal(0, 2), 1),
          PPVphBC: round(400 + random.normal(0, 2), 1),
          PPVphCA: round(400 + random.normal(0, 2), 1),
        });
      values.W = round(acW);
      values.VA = round(Math.abs(acW) * 1.01);
      // A power factor setpoint, once enabled, is what the inverter holds (lagging): the reactive power follows.
      const pfSet =
        state.overrides.OutPFSet_Ena === 1 && typeof state.overrides.OutPFSet === 'number' ? state.overrides.OutPFSet : undefined;
      values.VAr = pfSet === undefined ? round(acW * 0.05) : round(acW * Math.tan(Math.acos(pfSet)));
      values.VA = pfSet === undefined ? values.VA : round(Math.abs(acW) / pfSet);
      values.PF = acW === 0 ? 100 : pfSet === undefined ? 99.5 : round(pfSet * 100, 1);
      values.Hz = round(snapshot.frequencyHz, 2);
      values.WH = pv?.acEnergyWh ?? 0;
      // The strings are rounded first and the DC totals are their sums, so the page adds up.
      const strings = (pv?.strings ?? []).map((m, i) => ({
        v: round(faulted || m.powerW <= 0 ? 0 : m.voltageV, 1),
        a: onResolution(state.protocol, values, `DCA${i + 1}`, faulted ? 0 : m.currentA),
        w: onResolution(state.protocol, values, `DCW${i + 1}`, faulted ? 0 : m.powerW),
        wh: m.energyWh,
      }));
      const dcW = strings.reduce((sum, m) => sum + m.w, 0);
      const dcA = round(
        strings.reduce((sum, m) => sum + m.a, 0),
        2,
      );
      values.DCW = dcW;
      values.DCA = dcA;
      values.DCV = round(dcA > 0 ? dcW / dcA : 0, 1);
      strings.forEach((m, i) => {
        values[`DCV${i + 1}`] = m.v;
        values[`DCA${i + 1}`] = m.a;
        values[`DCW${i + 1}`] = m.w;
        values[`DCWH${i + 1}`] = m.wh;
      });
      const load = (device.ratedPowerW ?? 5000) > 0 ? Math.abs(acW) / (device.ratedPowerW ?? 5000) : 0;
      values.TmpCab = round(snapshot.ambientC + 8 + load * 15, 1);
      values.TmpSnk = round(snapshot.ambientC + 12 + load * 25, 1);
      values.St = options.shutdown ? St.OFF : faulted ? St.FAULT : night && acW === 0 ? St.SLEEPING : St.MPPT;
      values.Conn = options.shutdown ? 0 : 1;
      values.WMaxLimPct = options.powerLimitPct;
      values.WMaxLim_Ena = options.powerLimitPct < 100 ? 1 : 0;
      if (hybrid) {
        values.SoC = round(snapshot.socPct, 1);
        values.BatW = round(snapshot.batteryW);
        if (bank) {
          values.BatV = round(bank.voltageV, 1);
          values.BatA = round(snapshot.batteryW / bank.voltageV, 1);
          values.BatTmp = round(bank.tempC, 1);
          values.CellVMax = Math.max(...bank.cellV);
          values.CellVMin = Math.min(...bank.cellV);
        } else values.BatA = round(snapshot.batteryW / Number(values.BatV ?? 51.2), 1);
        values.ChaSt = chargeState(snapshot.batteryW, snapshot.socPct);
        values.State = 3;
        values.GridW = round(snapshot.gridW);
        values.LoadW = round(snapshot.loadW);
        values.BatChaWH = snapshot.counters.chargeWh;
        values.BatDisWH = snapshot.counters.dischargeWh;
        values.GridImpWH = snapshot.counters.gridImportWh;
        values.GridExpWH = snapshot.counters.gridExportWh;
        values.LoadWH = snapshot.counters.loadWh;
        values.PvWH = strings.reduce((sum, m) => sum + m.wh, 0);
        // The plant model dispatches for self-consumption (physics/battery.ts), so that is the mode it reports.
        values.WorkMode = 0;
      }
      break;
    }
    case 'meter': {
      Object.assign(
        values,
        phases(snapshot.gridW, 3, 230, random, { v: ['PhVphA', 'PhVphB', 'PhVphC'], a: PHASE_A, w: ['WphA', 'WphB', 'WphC'] }),
      );
      for (const id of ['WphA', 'WphB', 'WphC']) values[id] = onResolution(state.protocol, values, id, Number(values[id] ?? 0));
      values.W = ['WphA', 'WphB', 'WphC'].reduce((sum, id) => sum + Number(values[id] ?? 0), 0);
      values.A = totalCurrent(values, PHASE_A);
      values.Hz = round(snapshot.frequencyHz, 2);
      values.TotWhImp = snapshot.counters.gridImportWh;
      values.TotWhExp = snapshot.counters.gridExportWh;
      break;
    }
    case 'battery': {
      // The master reports the bank; a slave pack carries its share of the bank's power.
      const share = device.parentSn ? 1 / (options.bankPacks ?? 1) : 1;
      const voltage = bank?.voltageV ?? 51.2;
      const w = round(snapshot.batteryW * share);
      values.SoC = round(snapshot.socPct + (device.parentSn ? random.normal(0, 0.3) : 0), 1);
      values.W = w;
      values.V = round(voltage, 1);
      values.A = round(w / voltage, 1);
      values.ChaWH = Math.round(snapshot.counters.chargeWh * share);
      values.DisChaWH = Math.round(snapshot.counters.dischargeWh * share);
      // The same pack temperature and cells the hybrid inverter shows on its battery page.
      const tempC = bank?.tempC ?? snapshot.ambientC + 4;
      values.Tmp = round(tempC, 1);
      const cells = bank?.cellV ?? Array.from({ length: 16 }, () => 3.3);
      cells.forEach((v, i) => {
        values[`CellV${i + 1}`] = v;
      });
      (bank?.cellT ?? []).forEach((t, i) => {
        values[`CellT${i + 1}`] = t;
      });
      values.CellVMax = Math.max(...cells);
      values.CellVMin = Math.min(...cells);
      values.CellVAvg = round(cells.reduce((sum, v) => sum + v, 0) / cells.length, 3);
      values.ChaSt = chargeState(w, snapshot.socPct);
      // Connected: main + and main − relays closed (bits 0 and 1) whenever the bank charges, discharges or stands by.
      values.SetOp = 1;
      values.RelaySt = faulted ? 0 : 0b11;
      values.SysSt = faulted ? 1 : w < -1 ? 4 : w > 1 ? 5 : 1;
      if (faulted) {
        values.W = 0;
        values.A = 0;
        values.ChaSt = 6;
      }
      break;
    }
    case 'optimizer': {
      const w = faulted ? 0 : (own?.powerW ?? 0);
      const dcV = night ? 0 : round(38 + random.normal(0, 0.5), 1);
      values.DCW = round(w);
      values.DCV = dcV;
      values.DCA = round(dcV > 0 ? w / dcV : 0, 2);
      values.OutW = round(w * 0.99);
      values.OutV = round(night ? 0 : 40, 1);
      values.OutA = round(night ? 0 : (w * 0.99) / 40, 2);
      values.DCWH = own?.energyWh ?? 0;
      values.Tmp = round(snapshot.moduleC, 1);
      break;
    }
    case 'weather_station': {
      values.GHI = round(snapshot.ghi);
      values.POAI = round(snapshot.poa);
      values.DFI = round(snapshot.ghi * 0.2);
      values.DNI = round(Math.max(0, snapshot.ghi * 0.9));
      values.TmpAmb = round(snapshot.ambientC, 1);
      values.TmpBOM = round(snapshot.moduleC, 1);
      values.RH = round(snapshot.humidityPct);
      values.WndSpd = round(snapshot.windMs, 1);
      values.Rain = 0;
      break;
    }
    case 'combiner_box': {
      const dcW = own?.powerW ?? 0;
      const voltage = dcW <= 0 ? 0 : round(650 + random.normal(0, 3), 1);
      const total = voltage > 0 ? dcW / voltage : 0;
      // Sixteen strings whose currents add up to the box's; string 7 sags while a fault is under way.
      const weights = Array.from({ length: 16 }, (_, i) => (i === 6 && state.fault ? 0.2 : 1 + random.normal(0, 0.02)));
      const sum = weights.reduce((a, b) => a + b, 0);
      const currents = weights.map((w, i) => onResolution(state.protocol, values, `InDCA${i + 1}`, (total * w) / sum));
      currents.forEach((a, i) => {
        values[`InDCA${i + 1}`] = a;
      });
      values.DCA = round(
        currents.reduce((a, b) => a + b, 0),
        2,
      );
      values.DCV = voltage;
      values.DCW = round(dcW);
      values.DCWh = own?.energyWh ?? 0;
      break;
    }
    case 'heat_pump':
    case 'ac_switch': {
      const w = own?.powerW ?? 0;
      values.W = round(w);
      values.WH = own?.energyWh ?? 0;
      if (device.family === 'ac_switch') {
        Object.assign(values, phases(w, 3, 230, random, { v: ['PhVphA', 'PhVphB', 'PhVphC'], a: PHASE_A, w: ['WphA', 'WphB', 'WphC'] }));
        values.W = ['WphA', 'WphB', 'WphC'].reduce((sum, id) => sum + Number(values[id] ?? 0), 0);
      } else {
        values.AmbTmp = round(snapshot.ambientC, 1);
        // In standby (mode 0) the compressor stops and the controller says so.
        if (state.overrides.Mode === 0) {
          values.St = 1;
          values.CompHz = 0;
        }
      }
      break;
    }
    default:
      break;
  }
  Object.assign(values, roleValues(state.protocol, values, device.family));
  Object.assign(values, state.overrides);
  // An AC switch trips on a limit it passes (ac-switch.ts).
  protect(state, values);
  if (state.protocol.points.some((p) => p.id === 'Vr')) values.Vr = state.firmwareVersion;
  // While it flashes new firmware a device produces nothing and reports standby.
  if (options.upgrading) {
    for (const point of state.protocol.points) if (point.role === 'power') values[point.id] = 0;
    if (state.protocol.points.some((p) => p.id === 'St')) values.St = St.STANDBY;
  }
  state.lastValues = values;
  return values;
}

/**
 * What the settings written to a gateway's devices change in its plant's physics: the bank's SOC window and
 * charge and discharge power limits (written to the BMS or to a hybrid inverter), and heat pumps in standby.
 */
export function writtenSettings(states: readonly DeviceState[]): { battery: BatteryLimits; standby: Set<string> } {
  const battery: BatteryLimits = {};
  const standby = new Set<string>();
  for (const { device, overrides } of states) {
    if (device.family === 'heat_pump' && overrides.Mode === 0) standby.add(device.sn);
    if (device.family !== 'battery' && device.family !== 'hybrid_inverter') continue;
    if (device.parentSn) continue;
    const at = (id: string) => (typeof overrides[id] === 'number' ? (overrides[id] as number) : undefined);
    battery.minSocPct = at('SoCRsvMin') ?? battery.minSocPct;
    battery.maxSocPct = at('SocRsvMax') ?? battery.maxSocPct;
    battery.maxChargeW = at('BatChaWMax') ?? battery.maxChargeW;
    battery.maxDischargeW = at('BatDisWMax') ?? battery.maxDischargeW;
    // A demand-response discharge (energy hub, issue 23) written to the bank's master.
    battery.forceDischargeW = at('DrDisW') ?? battery.forceDischargeW;
  }
  return { battery, standby };
}
