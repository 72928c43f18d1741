import type { SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { describe, expect, it } from 'vitest';
import { createRandom } from './physics/random.js';
import { createPlantModel } from './plant-model.js';

const gateway: SimulatedGateway = {
  sn: 'GWSHADE1',
  key: 'k',
  intervalSeconds: 60,
  plant: { name: 'Roof', latitude: 40.4, longitude: -3.7, timezone: 'Europe/Madrid', capacityKwp: 5.4, plantType: 1, load: 'household' },
  devices: [
    { sn: 'IN1', protocolId: 'sunspec-inverter-1p', family: 'inverter', ratedPowerW: 5400 },
    { sn: 'OP1', protocolId: 'sunspec-optimizer', family: 'optimizer', ratedPowerW: 450 },
    { sn: 'OP2', protocolId: 'sunspec-optimizer', family: 'optimizer', ratedPowerW: 450, shading: 0.45 },
  ],
};

describe('optimizers per panel', () => {
  it('a shaded panel’s optimizer gives about its unshaded share of its neighbour’s power all day', () => {
    const plant = createPlantModel(gateway, createRandom(7).fork('plant'));
    const start = Date.parse('2026-06-21T00:00:00Z');
    let clear = 0;
    let shaded = 0;
    for (let minute = 0; minute <= 24 * 60; minute += 10) {
      const snapshot = plant.step(new Date(start + minute * 60_000), { shutdown: new Set(), powerLimitPct: new Map() });
      clear += snapshot.otherDevices.get('OP1')?.powerW ?? 0;
      shaded += snapshot.otherDevices.get('OP2')?.powerW ?? 0;
    }
    expect(clear).toBeGreaterThan(0);
    expect(shaded / clear).toBeGreaterThan(0.5);
    expect(shaded / clear).toBeLessThan(0.6);
  });

  it('optimizers under every panel add up to their inverter’s power within 1 %, and the shading lowers the inverter too', () => {
    const roof: SimulatedGateway = {
      ...gateway,
      plant: { ...gateway.plant, capacityKwp: 2.7 },
      devices: [
        { sn: 'IN1', protocolId: 'sunspec-inverter-1p', family: 'inverter', ratedPowerW: 3000 },
        ...Array.from({ length: 6 }, (_, i) => ({
          sn: `OP${i + 1}`,
          protocolId: 'sunspec-optimizer',
          family: 'optimizer',
          ratedPowerW: 450,
          ...(i === 3 ? { shading: 0.45 } : {}),
        })),
      ],
    };
    const unshaded: SimulatedGateway = { ...roof, devices: roof.devices.map(({ shading: _, ...d }) => d) };
    const shadedPlant = createPlantModel(roof, createRandom(7).fork('plant'));
    const clearPlant = createPlantModel(unshaded, createRandom(7).fork('plant'));
    const noon = Date.parse('2026-06-21T12:00:00Z');
    for (let minute = -180; minute <= 180; minute += 30) {
      const at = new Date(noon + minute * 60_000);
      const step = { shutdown: new Set<string>(), powerLimitPct: new Map<string, number>() };
      const snapshot = shadedPlant.step(at, step);
      const clear = clearPlant.step(at, step);
      const inverterW = snapshot.pvDevices.get('IN1')?.acW ?? 0;
      const optimizersW = [...snapshot.otherDevices.values()].reduce((a, d) => a + d.powerW, 0);
      expect(inverterW).toBeGreaterThan(0);
      expect(Math.abs(optimizersW - inverterW) / inverterW).toBeLessThan(0.01);
      expect(inverterW).toBeLessThan(clear.pvDevices.get('IN1')?.acW ?? 0);
    }
  });
});
