import { GATEWAY_PROTOCOL_VERSION, type ReplyPayload } from '@sunward/contracts/gateway-protocol';
import type { ProtocolFile } from '@sunward/contracts/protocols';
import type { SimulatedGateway } from '@sunward/contracts/simulated-fleet';
import { decodeBlocks, encodeValues } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { uninstallProtocols } from '@sunward/protocol/registry';
import { describe, expect, it } from 'vitest';
import { createCommandHandler, createControls } from './command-handler.js';
import { createDeviceState, deviceValues } from './device-values.js';
import { createRandom } from './physics/random.js';
import { createPlantModel } from './plant-model.js';
import { definitionOfFile, installFleetProtocols, parseProtocolFile } from './protocol-files.js';

/** A brand's protocol as the console exports it: its own point names, roles and one writable register. */
const FILE: ProtocolFile = {
  format: 'sunward-protocol',
  formatVersion: 1,
  protocol: {
    identifier: 'zenit-inv',
    code: 'ZENIT-1',
    name: 'ZENIT inv1',
    manufacturer: 'Zenit Energy',
    family: 'inverter',
    protocolVersion: '1.0',
    configurationVersion: '1',
    content: {
      title: { en: 'Zenit string inverter', zh: 'Zenit 组串逆变器' },
      source: 'Zenit manual',
      points: [
        {
          id: 'Pac',
          label: { en: 'Active power', zh: '有功功率' },
          functionCode: 3,
          address: 0,
          count: 2,
          type: 'u32',
          unit: 'W',
          operation: 'r',
          role: 'power',
        },
        {
          id: 'Etot',
          label: { en: 'Total yield', zh: '总发电量' },
          functionCode: 3,
          address: 2,
          count: 2,
          type: 'u32',
          unit: 'Wh',
          operation: 'r',
          role: 'energy_total',
        },
        {
          id: 'Tsink',
          label: { en: 'Heat sink', zh: '散热器' },
          functionCode: 3,
          address: 4,
          count: 1,
          type: 's16',
          unit: '°C',
          scale: 0.1,
          operation: 'r',
        },
        {
          id: 'PLim',
          label: { en: 'Export limit', zh: '馈网限制' },
          functionCode: 3,
          address: 10,
          count: 1,
          type: 'u16',
          unit: '%',
          operation: 'rw',
          min: 0,
          max: 100,
        },
      ],
      events: [],
      settingsFamilies: { asw: ['PLim'] },
    },
  },
};

const GATEWAY: SimulatedGateway = {
  sn: 'GWZEN00001',
  key: 'k',
  intervalSeconds: 60,
  plant: { name: 'Zenit', latitude: 0, longitude: 0, timezone: 'UTC', capacityKwp: 6, plantType: 1, load: 'household' },
  devices: [{ sn: 'ZEN0000001', protocolId: 'zenit-inv', family: 'inverter', ratedPowerW: 6000 }],
};

describe('a protocol made in the console, played by the simulator', () => {
  it('reads the console’s export file and refuses another file naming the field', () => {
    expect(parseProtocolFile(JSON.stringify(FILE), 'zenit.json')).toEqual(FILE);
    const broken = { ...FILE, protocol: { ...FILE.protocol, family: 'toaster' } };
    expect(() => parseProtocolFile(JSON.stringify(broken), 'zenit.json')).toThrow(/zenit\.json: not a protocol file \(protocol\.family/);
  });

  it('installs the file beside the built-in maps for as long as the process plays it', () => {
    try {
      expect(installFleetProtocols([FILE])).toEqual(['zenit-inv']);
      expect(protocolById('zenit-inv')?.manufacturer).toBe('Zenit Energy');
      expect(protocolById('sunspec-inverter-3p')).toBeDefined();
    } finally {
      uninstallProtocols();
    }
    expect(protocolById('zenit-inv')).toBeUndefined();
  });

  it('puts the physics’ power and counter on the brand’s own points, and answers a write of its writable register', () => {
    const protocol = definitionOfFile(FILE);
    const [device] = GATEWAY.devices;
    if (!device) throw new Error('no device');
    const state = createDeviceState(device, protocol, createRandom(7));
    const plant = createPlantModel(GATEWAY, createRandom(7));
    const noon = Date.UTC(2026, 5, 1, 12);
    plant.step(new Date(noon - 60_000), { shutdown: new Set(), powerLimitPct: new Map() });
    const snapshot = plant.step(new Date(noon), { shutdown: new Set(), powerLimitPct: new Map() });
    const values = deviceValues(state, snapshot, 60, { faultRate: 0, shutdown: false, powerLimitPct: 100 });
    const acW = snapshot.pvDevices.get(device.sn)?.acW ?? 0;
    expect(acW).toBeGreaterThan(1000);
    const decoded = decodeBlocks(protocol, encodeValues(protocol, values)).values;
    expect(decoded.Pac).toBe(Math.round(acW));
    expect(decoded.Etot).toBe(Math.round(snapshot.pvDevices.get(device.sn)?.acEnergyWh ?? -1));

    const replies: ReplyPayload[] = [];
    const handler = createCommandHandler({ states: [state], controls: createControls(), reply: (r) => replies.push(r) });
    const send = (id: string, params: Record<string, number>) =>
      handler.handle(Buffer.from(JSON.stringify({ v: GATEWAY_PROTOCOL_VERSION, id, op: 'set', device: device.sn, params })));
    send('1', { PLim: 40 });
    send('2', { Pac: 10 });
    send('3', { PLim: 140 });
    expect(replies.map((r) => [r.id, r.status, r.error ?? null])).toEqual([
      ['1', 'ok', null],
      ['2', 'error', 'unsupported'],
      ['3', 'error', 'out_of_range'],
    ]);
    const after = deviceValues(state, plant.step(new Date(noon + 60_000), { shutdown: new Set(), powerLimitPct: new Map() }), 60, {
      faultRate: 0,
      shutdown: false,
      powerLimitPct: 100,
    });
    expect(decodeBlocks(protocol, encodeValues(protocol, after)).values.PLim).toBe(40);
  });
});
