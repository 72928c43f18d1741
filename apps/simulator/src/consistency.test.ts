import type { SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { decodeBlocks, encodeValues } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import type { DecodedValue } from '@sunward/protocol/types';
import { describe, expect, it } from 'vitest';
import { createDeviceState, type DeviceState, deviceValues } from './device-values.js';
import { createRandom } from './physics/random.js';
import { createPlantModel } from './plant-model.js';

// What a device page shows must add up: the values are checked as the server decodes them from the
// registers, so the map's resolutions (scale factors) are part of the test.

const gateway: SimulatedGateway = {
  sn: 'GWCONS01',
  key: 'k',
  intervalSeconds: 300,
  plant: { name: 'Test', latitude: 37.98, longitude: 23.73, timezone: 'Europe/Athens', capacityKwp: 30, plantType: 3, load: 'household' },
  devices: [
    { sn: 'HY1', protocolId: 'sunspec-hybrid-hv', family: 'hybrid_inverter', ratedPowerW: 12000 },
    { sn: 'IN1', protocolId: 'sunspec-inverter-3p', family: 'inverter', ratedPowerW: 10000 },
    { sn: 'IN2', protocolId: 'sunspec-inverter-1p', family: 'inverter', ratedPowerW: 8000 },
    { sn: 'BT1', protocolId: 'sunspec-battery-bms', family: 'battery', capacityKwh: 20 },
    { sn: 'MT1', protocolId: 'sunspec-meter-3p', family: 'meter' },
    { sn: 'CB1', protocolId: 'sunspec-combiner-box', family: 'combiner_box' },
  ],
};

type Decoded = Record<string, DecodedValue>;

/** Two summer days at 5-minute reports; every device's decoded values at every report. */
function play(): { at: number; devices: Map<string, Decoded> }[] {
  const random = createRandom(7);
  const plant = createPlantModel(gateway, random.fork('plant'));
  const states: DeviceState[] = gateway.devices.map((d) => {
    const protocol = protocolById(d.protocolId);
    if (!protocol) throw new Error(d.protocolId);
    return createDeviceState(d, protocol, random.fork(d.sn));
  });
  const start = Date.parse('2026-06-20T00:00:00Z');
  const out: { at: number; devices: Map<string, Decoded> }[] = [];
  for (let t = start; t < start + 2 * 86_400_000; t += 300_000) {
    const snapshot = plant.step(new Date(t), { shutdown: new Set(), powerLimitPct: new Map() });
    const devices = new Map<string, Decoded>();
    for (const state of states) {
      const values = deviceValues(state, snapshot, 300, { faultRate: 0, shutdown: false, powerLimitPct: 100 });
      const decoded = decodeBlocks(state.protocol, encodeValues(state.protocol, values));
      expect(decoded.problems, state.device.sn).toEqual([]);
      devices.set(state.device.sn, decoded.values);
    }
    out.push({ at: t, devices });
  }
  return out;
}

const samples = play();
const n = (values: Decoded | undefined, id: string) => Number(values?.[id] ?? Number.NaN);
/** A lifetime counter: SunSpec reads an accumulator of 0 as "not counted yet" (absent). */
const counter = (values: Decoded | undefined, id: string) => Number(values?.[id] ?? 0);
const strings = (values: Decoded | undefined, prefix: string) =>
  Object.keys(values ?? {})
    .filter((id) => new RegExp(`^${prefix}\\d+$`).test(id))
    .map((id) => n(values, id));
/** Half the step of the point as the device encodes it (its scale factor), the most a total may be off. */
const halfStep = (protocolId: string, values: Decoded | undefined, id: string) => {
  const point = protocolById(protocolId)?.points.find((p) => p.id === id);
  const exponent = point?.scaleFactorPoint ? n(values, point.scaleFactorPoint) : Math.log10(point?.scale ?? 1);
  return 10 ** exponent / 2 + 1e-9;
};

describe('simulated values are physically consistent', () => {
  it('has as many strings as the map has MPP trackers, adding up to the DC totals and, for energy, to the PV total', () => {
    let producing = 0;
    for (const { devices } of samples)
      for (const device of gateway.devices.filter((d) => d.family.endsWith('inverter'))) {
        const v = devices.get(device.sn);
        const powers = strings(v, 'DCW');
        const trackers = protocolById(device.protocolId)?.points.filter((p) => /^DCW\d+$/.test(p.id)).length;
        expect(powers).toHaveLength(trackers ?? -1);
        const sumW = powers.reduce((a, b) => a + b, 0);
        const sumA = strings(v, 'DCA').reduce((a, b) => a + b, 0);
        expect(Math.abs(sumW - n(v, 'DCW'))).toBeLessThanOrEqual(halfStep(device.protocolId, v, 'DCW'));
        expect(Math.abs(sumA - n(v, 'DCA'))).toBeLessThanOrEqual(halfStep(device.protocolId, v, 'DCA') + 0.01 * powers.length);
        if (sumW > 0) producing++;
        const energies = (protocolById(device.protocolId)?.points ?? []).filter((p) => /^DCWH\d+$/.test(p.id)).map((p) => counter(v, p.id));
        // Strings differ (orientation, length), so their energies are not copies of one another.
        if (energies.every((e) => e > 1000)) expect(new Set(energies).size).toBe(energies.length);
        if (device.family === 'hybrid_inverter') expect(energies.reduce((a, b) => a + b, 0)).toBe(counter(v, 'PvWH'));
        // AC energy is the DC energy less the conversion losses.
        expect(counter(v, 'WH')).toBeLessThanOrEqual(energies.reduce((a, b) => a + b, 0) + 1);
      }
    expect(producing).toBeGreaterThan(100);
  });

  it('gives the total AC current as the sum of the phases', () => {
    for (const { devices } of samples)
      for (const sn of ['IN1', 'MT1']) {
        const v = devices.get(sn);
        const phases = ['AphA', 'AphB', 'AphC'].map((id) => n(v, id));
        expect(Math.abs(phases.reduce((a, b) => a + b, 0) - n(v, 'A'))).toBeLessThan(0.011);
      }
  });

  it('shows a charging battery with its relays closed and charging, on the BMS and on the hybrid alike', () => {
    let charging = 0;
    for (const { devices } of samples) {
      const bms = devices.get('BT1');
      const hybrid = devices.get('HY1');
      if (n(bms, 'W') < 0) {
        charging++;
        expect(n(bms, 'RelaySt') & 0b11).toBe(0b11);
        expect(n(bms, 'ChaSt')).toBe(4);
        expect(n(bms, 'SysSt')).toBe(4);
        expect(n(hybrid, 'ChaSt')).toBe(4);
        expect(n(bms, 'A')).toBeLessThan(0);
      }
      expect(n(bms, 'SetOp')).toBe(1);
      // One bank seen from two devices: same temperature, SOC, voltage and power.
      expect(Math.abs(n(bms, 'Tmp') - n(hybrid, 'BatTmp'))).toBeLessThanOrEqual(0.1);
      expect(n(bms, 'SoC')).toBeCloseTo(n(hybrid, 'SoC'), 1);
      expect(Math.abs(n(bms, 'V') - n(hybrid, 'BatV'))).toBeLessThanOrEqual(0.1);
      expect(Math.abs(n(bms, 'W') - n(hybrid, 'BatW'))).toBeLessThanOrEqual(10);
      expect(n(bms, 'CellVMax')).toBe(n(hybrid, 'CellVMax'));
      // The pack's cells make its voltage.
      const cells = strings(bms, 'CellV');
      expect(Math.abs(cells.reduce((a, b) => a + b, 0) - n(bms, 'V'))).toBeLessThanOrEqual(0.06);
    }
    expect(charging).toBeGreaterThan(10);
  });

  it("adds the meter's phases up to its power and the combiner's strings up to its current", () => {
    for (const { devices } of samples) {
      const meter = devices.get('MT1');
      expect(n(meter, 'WphA') + n(meter, 'WphB') + n(meter, 'WphC')).toBeCloseTo(n(meter, 'W'), 6);
      const box = devices.get('CB1');
      const inputs = strings(box, 'InDCA').reduce((a, b) => a + b, 0);
      expect(Math.abs(inputs - n(box, 'DCA'))).toBeLessThanOrEqual(0.05 + 1e-9);
    }
  });

  it('starts lifetime counters at zero, so a lifetime is what the plant played', () => {
    const first = samples[0]?.devices;
    expect(counter(first?.get('IN1'), 'WH')).toBe(0);
    expect(counter(first?.get('MT1'), 'TotWhImp')).toBe(0);
    const last = samples.at(-1)?.devices;
    // Two June days of a 10 kW inverter in Athens: tens of kWh, not megawatt-hours.
    expect(n(last?.get('IN1'), 'WH')).toBeGreaterThan(20_000);
    expect(n(last?.get('IN1'), 'WH')).toBeLessThan(200_000);
  });

  it("stops a faulted inverter's production and counters, and a faulted bank's power", () => {
    const plant = createPlantModel(gateway, createRandom(9).fork('plant'));
    const noon = Date.parse('2026-06-20T10:00:00Z');
    const none = { shutdown: new Set<string>(), powerLimitPct: new Map<string, number>() };
    plant.step(new Date(noon), none);
    const before = plant.step(new Date(noon + 300_000), none);
    expect(before.pvDevices.get('IN1')?.acW).toBeGreaterThan(0);
    const faulted = { shutdown: new Set(['IN1', 'BT1']), powerLimitPct: new Map<string, number>() };
    const during = plant.step(new Date(noon + 600_000), faulted);
    const later = plant.step(new Date(noon + 900_000), faulted);
    expect(later.pvDevices.get('IN1')?.acW).toBe(0);
    expect(later.pvDevices.get('IN1')?.acEnergyWh).toBe(during.pvDevices.get('IN1')?.acEnergyWh);
    expect(later.pvDevices.get('IN1')?.strings.map((x) => x.energyWh)).toEqual(during.pvDevices.get('IN1')?.strings.map((x) => x.energyWh));
    expect(later.batteryW).toBe(0);
    expect(later.counters.chargeWh).toBe(during.counters.chargeWh);
  });
});
