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
});
