import type { SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { decodeBlocks, encodeValues } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { describe, expect, it } from 'vitest';
import { createDeviceState, deviceValues } from './device-values.js';
import { createRandom } from './physics/random.js';
import { createPlantModel } from './plant-model.js';

const gateway: SimulatedGateway = {
  sn: 'GWTEST01',
  key: 'k',
  intervalSeconds: 60,
  plant: { name: 'Test', latitude: 40.4, longitude: -3.7, timezone: 'Europe/Madrid', capacityKwp: 8, plantType: 3, load: 'household' },
  devices: [
    { sn: 'HY1', protocolId: 'sunspec-hybrid-lv', family: 'hybrid_inverter', ratedPowerW: 8000 },
    { sn: 'BT1', protocolId: 'sunspec-battery-bms', family: 'battery', capacityKwh: 10 },
    { sn: 'MT1', protocolId: 'sunspec-meter-3p', family: 'meter' },
    { sn: 'WS1', protocolId: 'sunspec-weather-station', family: 'weather_station' },
    { sn: 'OP1', protocolId: 'sunspec-optimizer', family: 'optimizer', ratedPowerW: 450 },
    { sn: 'HP1', protocolId: 'vendor-heat-pump', family: 'heat_pump', ratedPowerW: 3000 },
  ],
};

function runDay(seed: number) {
  const random = createRandom(seed);
  const plant = createPlantModel(gateway, random.fork('plant'));
  const states = gateway.devices.map((d) => {
    const protocol = protocolById(d.protocolId);
    if (!protocol) throw new Error(d.protocolId);
    return createDeviceState(d, protocol, random.fork(d.sn));
  });
  const start = Date.parse('2026-06-21T00:00:00Z');
  const samples: { pv: number; counters: number; values: Record<string, unknown>[] }[] = [];
  for (let minute = 0; minute <= 24 * 60; minute += 15) {
    const snapshot = plant.step(new Date(start + minute * 60_000), { shutdown: new Set(), powerLimitPct: new Map() });
    samples.push({
      pv: snapshot.pvW,
      counters: snapshot.counters.pv.get('HY1') ?? 0,
      values: states.map((s) => deviceValues(s, snapshot, 900, { faultRate: 0, shutdown: false, powerLimitPct: 100 })),
    });
  }
  return { samples, states };
}

describe('simulated plant', () => {
  it('repeats exactly for a seed, and differs for another', () => {
    expect(runDay(5).samples).toEqual(runDay(5).samples);
    expect(runDay(5).samples.map((s) => s.pv)).not.toEqual(runDay(6).samples.map((s) => s.pv));
  });

  it('produces PV by day and none at night, with counters that only grow', () => {
    const { samples } = runDay(1);
    const noon = samples[Math.floor(samples.length / 2)];
    expect(noon?.pv ?? 0).toBeGreaterThan(1000);
    expect(samples[0]?.pv).toBe(0);
    for (let i = 1; i < samples.length; i++) expect(samples[i]?.counters ?? 0).toBeGreaterThanOrEqual(samples[i - 1]?.counters ?? 0);
  });

  it('gives every device values that survive the real register encoding', () => {
    const { samples, states } = runDay(2);
    const noon = samples[Math.floor(samples.length / 2)];
    states.forEach((state, i) => {
      const values = noon?.values[i] as Record<string, number | string>;
      const decoded = decodeBlocks(state.protocol, encodeValues(state.protocol, values));
      expect(decoded.problems, state.device.sn).toEqual([]);
      const power = state.protocol.points.find((p) => p.role === 'power');
      // Within the point's resolution: a scale factor of 1 means tens of watts, as on a real device.
      const resolution = power?.scaleFactorPoint ? 10 ** Number(values[power.scaleFactorPoint] ?? 0) : 1;
      if (power) expect(Math.abs(Number(decoded.values[power.id]) - Number(values[power.id]))).toBeLessThanOrEqual(resolution / 2);
    });
  });
});
