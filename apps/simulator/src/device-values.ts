import type { SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { sampleValues } from '@sunward/protocol/sample-values';
import type { DecodedValue, ProtocolDefinition } from '@sunward/protocol/types';
import { createEnergyCounter, type EnergyCounter, integrate } from './physics/counters.js';
import type { Random } from './physics/random.js';
import type { PlantSnapshot } from './plant-model.js';

type Device = SimulatedGateway['devices'][number];
type Values = Record<string, DecodedValue>;

/** SunSpec St (operating state) values the simulator uses. */
const St = { OFF: 1, SLEEPING: 2, MPPT: 4, FAULT: 7, STANDBY: 8 } as const;

const round = (value: number, decimals = 0) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** State a device keeps between reports: its own counters and any fault it is going through. */
export interface DeviceState {
  device: Device;
  protocol: ProtocolDefinition;
  base: Values;
  counter: EnergyCounter;
  random: Random;
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
    counter: createEnergyCounter(Math.round(random.next() * 5e6)),
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
  if (state.protocol.events.length === 0 || state.random.next() > faultRate) return;
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

/**
 * A device's point values at a snapshot: the map's plausible defaults overridden by what the plant's
 * physics says (power, counters, temperatures, battery, grid).
 */
export function deviceValues(
  state: DeviceState,
  snapshot: PlantSnapshot,
  dtSeconds: number,
  options: { faultRate: number; shutdown: boolean; powerLimitPct: number; upgrading?: boolean; bankPacks?: number },
): Values {
  stepFault(state, options.faultRate);
  const { device, random } = state;
  const values: Values = { ...state.base, ...eventBits(state) };
  const faulted = state.fault?.level === 'fault';
  const pv = snapshot.pvDevices.get(device.sn);
  const night = snapshot.poa < 5;
  switch (device.family) {
    case 'inverter':
    case 'hybrid_inverter':
    case 'micro_inverter': {
      const hybrid = device.family === 'hybrid_inverter';
      const acW = faulted ? 0 : (pv?.acW ?? 0) + (hybrid ? snapshot.batteryW : 0);
      const threePhase = state.protocol.points.some((p) => p.id === 'PhVphC');
      Object.assign(
        values,
        phases(acW, threePhase ? 3 : 1, 230, random, { v: ['PhVphA', 'PhVphB', 'PhVphC'], a: ['AphA', 'AphB', 'AphC'] }),
      );
      values.A = round(Math.abs(acW) / 230 / (threePhase ? 3 : 1), 2);
      if (threePhase)
        Object.assign(values, {
          PPVphAB: round(400 + random.normal(0, 2), 1),
          PPVphBC: round(400 + random.normal(0, 2), 1),
          PPVphCA: round(400 + random.normal(0, 2), 1),
        });
      values.W = round(acW);
      values.VA = round(Math.abs(acW) * 1.01);
      values.VAr = round(acW * 0.05);
      values.PF = acW === 0 ? 100 : 99.5;
      values.Hz = round(snapshot.frequencyHz, 2);
      values.WH = snapshot.counters.pv.get(device.sn) ?? 0;
      const dcW = faulted ? 0 : (pv?.dcW ?? 0);
      const mppt = pv?.mppt ?? [];
      const dcV = mppt.length > 0 ? mppt.reduce((s, m) => s + m.voltageV, 0) / mppt.length : 0;
      values.DCW = round(dcW);
      values.DCV = round(night ? 0 : dcV, 1);
      values.DCA = round(dcV > 0 ? dcW / dcV : 0, 2);
      mppt.forEach((m, i) => {
        values[`DCV${i + 1}`] = round(night ? 0 : m.voltageV, 1);
        values[`DCA${i + 1}`] = round(faulted ? 0 : m.currentA, 2);
        values[`DCW${i + 1}`] = round(faulted ? 0 : m.powerW);
        values[`DCWH${i + 1}`] = Math.round((Number(values.WH) * 1.02) / mppt.length);
      });
      const load = (device.ratedPowerW ?? 5000) > 0 ? Math.abs(acW) / (device.ratedPowerW ?? 5000) : 0;
      values.TmpCab = round(snapshot.ambientC + 8 + load * 15, 1);
      values.TmpSnk = round(snapshot.ambientC + 12 + load * 25, 1);
      values.St = options.shutdown ? St.OFF : faulted ? St.FAULT : night ? St.SLEEPING : St.MPPT;
      values.Conn = options.shutdown ? 0 : 1;
      values.WMaxLimPct = options.powerLimitPct;
      values.WMaxLim_Ena = options.powerLimitPct < 100 ? 1 : 0;
      if (hybrid) {
        values.SoC = round(snapshot.socPct, 1);
        values.BatW = round(snapshot.batteryW);
        values.BatA = round(snapshot.batteryW / (device.protocolId.endsWith('hv') ? 400 : 51.2), 1);
        values.GridW = round(snapshot.gridW);
        values.LoadW = round(snapshot.loadW);
        values.BatChaWH = snapshot.counters.chargeWh;
        values.BatDisWH = snapshot.counters.dischargeWh;
        values.GridImpWH = snapshot.counters.gridImportWh;
        values.GridExpWH = snapshot.counters.gridExportWh;
        values.LoadWH = snapshot.counters.loadWh;
        values.PvWH = snapshot.counters.pv.get(device.sn) ?? 0;
        // The plant model dispatches for self-consumption (physics/battery.ts), so that is the mode it reports.
        values.WorkMode = 0;
      }
      break;
    }
    case 'meter': {
      Object.assign(
        values,
        phases(snapshot.gridW, 3, 230, random, {
          v: ['PhVphA', 'PhVphB', 'PhVphC'],
          a: ['AphA', 'AphB', 'AphC'],
          w: ['WphA', 'WphB', 'WphC'],
        }),
      );
      values.W = round(snapshot.gridW);
      values.A = round(Math.abs(snapshot.gridW) / 230, 2);
      values.Hz = round(snapshot.frequencyHz, 2);
      values.TotWhImp = snapshot.counters.gridImportWh;
      values.TotWhExp = snapshot.counters.gridExportWh;
      break;
    }
    case 'battery': {
      // The master reports the bank; a slave pack carries its share of the bank's power.
      const packs = device.parentSn ? 1 / (options.bankPacks ?? 1) : 1;
      const voltage = 51.2 + (snapshot.socPct - 50) * 0.04;
      values.SoC = round(snapshot.socPct + (device.parentSn ? random.normal(0, 0.3) : 0), 1);
      values.W = round(snapshot.batteryW * packs);
      values.V = round(voltage, 1);
      values.A = round((snapshot.batteryW * packs) / voltage, 1);
      values.ChaWH = Math.round(snapshot.counters.chargeWh * packs);
      values.DisChaWH = Math.round(snapshot.counters.dischargeWh * packs);
      values.Tmp = round(snapshot.ambientC + 4 + Math.abs(snapshot.batteryW) / 2000, 1);
      const cell = 3.2 + snapshot.socPct * 0.0015;
      for (let i = 1; i <= 16; i++) values[`CellV${i}`] = round(cell + random.normal(0, 0.004), 3);
      for (let i = 1; i <= 8; i++) values[`CellT${i}`] = round(Number(values.Tmp) + random.normal(0, 0.6), 1);
      values.CellVMax = Math.max(...Array.from({ length: 16 }, (_, i) => Number(values[`CellV${i + 1}`])));
      values.CellVMin = Math.min(...Array.from({ length: 16 }, (_, i) => Number(values[`CellV${i + 1}`])));
      break;
    }
    case 'optimizer': {
      const w =
        faulted || night
          ? 0
          : Math.min(device.ratedPowerW ?? 450, (snapshot.poa / 1000) * (device.ratedPowerW ?? 450) * (0.92 + random.normal(0, 0.01)));
      state.counter.add(integrate(w, dtSeconds));
      values.DCW = round(w);
      values.DCV = round(night ? 0 : 38 + random.normal(0, 0.5), 1);
      values.DCA = round(night ? 0 : w / 38, 2);
      values.OutW = round(w * 0.99);
      values.OutV = round(night ? 0 : 40, 1);
      values.OutA = round(night ? 0 : (w * 0.99) / 40, 2);
      values.DCWH = state.counter.value();
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
      const dcW = snapshot.pvW * 0.3;
      const voltage = night ? 0 : 650 + random.normal(0, 3);
      const total = voltage > 0 ? dcW / voltage : 0;
      for (let i = 1; i <= 16; i++)
        values[`InDCA${i}`] = round((total / 16) * (i === 7 && state.fault ? 0.2 : 1 + random.normal(0, 0.02)), 2);
      values.DCA = round(total, 2);
      values.DCV = round(voltage, 1);
      values.DCW = round(dcW);
      state.counter.add(integrate(dcW, dtSeconds));
      values.DCWh = state.counter.value();
      break;
    }
    case 'heat_pump':
    case 'ac_switch': {
      const w = Math.max(0, snapshot.loadW * (device.family === 'heat_pump' ? 0.3 : 0.15) + random.normal(0, 20));
      state.counter.add(integrate(w, dtSeconds));
      values.W = round(w);
      values.WH = state.counter.value();
      if (device.family === 'ac_switch')
        Object.assign(
          values,
          phases(w, 3, 230, random, { v: ['PhVphA', 'PhVphB', 'PhVphC'], a: ['AphA', 'AphB', 'AphC'], w: ['WphA', 'WphB', 'WphC'] }),
        );
      else values.AmbTmp = round(snapshot.ambientC, 1);
      break;
    }
    default:
      break;
  }
  Object.assign(values, state.overrides);
  if (state.protocol.points.some((p) => p.id === 'Vr')) values.Vr = state.firmwareVersion;
  // While it flashes new firmware a device produces nothing and reports standby.
  if (options.upgrading) {
    for (const point of state.protocol.points) if (point.role === 'power') values[point.id] = 0;
    if (state.protocol.points.some((p) => p.id === 'St')) values.St = St.STANDBY;
  }
  state.lastValues = values;
  return values;
}
