import type { SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { protocolById } from '@sunward/protocol/maps/index';
import { describe, expect, it } from 'vitest';
import { createDeviceState, writtenSettings } from './device-values.js';
import { createRandom } from './physics/random.js';
import { createPlantModel } from './plant-model.js';

// The energy hub (issue 23) writes DrDisW to the bank's master: the bank discharges at that power, whatever the
// PV and the load, down to its SOC floor; written back to 0 it returns to self-consumption.
const gateway: SimulatedGateway = {
  sn: 'GWDR0001',
  key: 'k',
  intervalSeconds: 60,
  plant: { name: 'DR', latitude: 48.1, longitude: 11.6, timezone: 'Europe/Berlin', capacityKwp: 5, plantType: 3, load: 'household' },
  devices: [
    { sn: 'DRIN1', protocolId: 'sunspec-inverter-3p', family: 'inverter', ratedPowerW: 5000 },
    { sn: 'DRBT1', protocolId: 'sunspec-battery-bms', family: 'battery', capacityKwh: 10 },
  ],
};

describe('a demand-response discharge written to the battery', () => {
  it('discharges at the written power, stops at the SOC floor and counts what it delivered', () => {
    const protocol = protocolById('sunspec-battery-bms');
    if (!protocol) throw new Error('no BMS map');
    const bms = createDeviceState(gateway.devices[1] as SimulatedGateway['devices'][number], protocol, createRandom(3));
    const plant = createPlantModel(gateway, createRandom(5).fork('plant'));
    const start = Date.parse('2026-06-20T12:00:00Z');
    const step = (t: number) => plant.step(new Date(t), { shutdown: new Set(), powerLimitPct: new Map(), ...writtenSettings([bms]) });
    const before = step(start);
    bms.overrides.DrDisW = 3000;
    bms.overrides.SoCRsvMin = 30;
    step(start + 60_000);
    const during = step(start + 120_000);
    // At noon self-consumption would charge from the sun; the written power discharges instead.
    expect(during.batteryW).toBeCloseTo(3000, 0);
    expect(during.counters.dischargeWh - before.counters.dischargeWh).toBeGreaterThan(90);
    let last = during;
    for (let t = start + 180_000; t < start + 6 * 3_600_000; t += 60_000) last = step(t);
    expect(last.socPct).toBeCloseTo(30, 5);
    expect(last.batteryW).toBe(0);
    bms.overrides.DrDisW = 0;
    expect(step(start + 6 * 3_600_000 + 60_000).batteryW).toBeLessThanOrEqual(0);
  });
});
