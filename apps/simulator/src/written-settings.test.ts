import { protocolById } from '@sunward/protocol/maps/index';
import { describe, expect, it } from 'vitest';
import { createDeviceState, writtenSettings } from './device-values.js';
import { createRandom } from './physics/random.js';

const state = (sn: string, protocolId: string, family: string, parentSn?: string) =>
  createDeviceState(
    { sn, protocolId, family, ...(parentSn ? { parentSn } : {}) } as Parameters<typeof createDeviceState>[0],
    protocolById(protocolId) ?? (undefined as never),
    createRandom(1),
  );

describe('settings written to the devices', () => {
  it('bound the bank from the master BMS or the hybrid, and put a heat pump in standby', () => {
    const bms = state('BT1', 'sunspec-battery-bms', 'battery');
    const slave = state('BT2', 'sunspec-battery-bms', 'battery', 'BT1');
    const hybrid = state('HY1', 'sunspec-hybrid-hv', 'hybrid_inverter');
    const heatPump = state('HP1', 'vendor-heat-pump', 'heat_pump');
    bms.overrides.SocRsvMax = 90;
    slave.overrides.SoCRsvMin = 45;
    hybrid.overrides.BatChaWMax = 2000;
    heatPump.overrides.Mode = 0;
    const written = writtenSettings([bms, slave, hybrid, heatPump]);
    // A slave pack's own write does not steer the bank.
    expect(written.battery).toEqual({ maxSocPct: 90, maxChargeW: 2000 });
    expect([...written.standby]).toEqual(['HP1']);
    heatPump.overrides.Mode = 2;
    expect(writtenSettings([heatPump]).standby.size).toBe(0);
  });
});
