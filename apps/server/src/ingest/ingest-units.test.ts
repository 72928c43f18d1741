import { DeviceStatus } from '@sunward/contracts/device-status';
import { localDayOf } from '@sunward/contracts/plant-energy';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { describe, expect, it } from 'vitest';
import { isTransientConflict, isUniqueViolation } from '../db/errors.js';
import { isSilent, statusFromReading } from './device-state.js';
import { gatewayKeyMatches, hashGatewayKey, isValidGatewayIdentity, mayPublish, maySubscribe } from './gateway-auth.js';
import { decodeReport, parseReport } from './report-decoder.js';
import { packValues } from './telemetry.repository.js';

describe('gateway topic rules', () => {
  it('lets a gateway publish only on its own up topics', () => {
    expect(mayPublish('GW1', 'sunward/v1/gw/GW1/report')).toBe('report');
    expect(mayPublish('GW1', 'sunward/v1/gw/GW1/status')).toBe('status');
    expect(mayPublish('GW1', 'sunward/v1/gw/GW1/cmd')).toBeUndefined();
    expect(mayPublish('GW1', 'sunward/v1/gw/GW2/report')).toBeUndefined();
    expect(mayPublish('GW1', 'sunward/v1/gw/GW1/report/extra')).toBeUndefined();
  });
  it('lets a gateway subscribe only to its own command topic, never a wildcard', () => {
    expect(maySubscribe('GW1', 'sunward/v1/gw/GW1/cmd')).toBe(true);
    expect(maySubscribe('GW1', 'sunward/v1/gw/+/cmd')).toBe(false);
    expect(maySubscribe('GW1', 'sunward/v1/gw/#')).toBe(false);
    expect(maySubscribe('GW1', 'sunward/v1/gw/GW2/cmd')).toBe(false);
  });
  it('requires username = client id = a valid SN, and checks keys against their hash', () => {
    expect(isValidGatewayIdentity('GW1', 'GW1')).toBe(true);
    expect(isValidGatewayIdentity('GW1', 'GW2')).toBe(false);
    expect(isValidGatewayIdentity('G W', 'G W')).toBe(false);
    expect(gatewayKeyMatches('secret', hashGatewayKey('secret'))).toBe(true);
    expect(gatewayKeyMatches('Secret', hashGatewayKey('secret'))).toBe(false);
  });
});

describe('report decoding', () => {
  const protocol = protocolById('sunspec-inverter-3p');
  if (!protocol) throw new Error('map missing');
  const blocks = encodeValues(protocol, { W: 4321, WH: 99_000, St: 4 }).map((b) => ({
    fc: b.functionCode as 3 | 4,
    addr: b.address,
    hex: registersToHex(b.registers),
  }));
  const context = {
    gatewayId: 7,
    now: new Date('2026-06-01T12:00:00Z'),
    maxAgeMs: 86_400_000,
    maxFutureMs: 300_000,
    findDevice: (sn: string) =>
      sn === 'INV1'
        ? { id: 1, gatewayId: 7, protocolId: protocol.id }
        : sn === 'OTHER'
          ? { id: 2, gatewayId: 8, protocolId: protocol.id }
          : undefined,
    findProtocol: protocolById,
  };
  const report = (devices: unknown[], ts = Date.parse('2026-06-01T11:59:00Z')) => {
    const parsed = parseReport(JSON.stringify({ v: 1, seq: 3, ts, devices }));
    if (!parsed.ok) throw new Error(parsed.detail);
    return parsed.report;
  };

  it('decodes power, energy and state, and lays values out in storage order', () => {
    const out = decodeReport(report([{ sn: 'INV1', proto: protocol.id, blocks }]), context);
    expect(out.rejected).toEqual([]);
    expect(out.readings[0]).toMatchObject({ deviceId: 1, powerW: 4321, energyTotalWh: 99_000, operatingState: 4, activeEvents: [] });
  });

  it('refuses unknown devices, other gateways’ devices and mismatched maps, keeping the rest', () => {
    const out = decodeReport(
      report([
        { sn: 'INV1', proto: protocol.id, blocks },
        { sn: 'NOPE', proto: protocol.id, blocks },
        { sn: 'OTHER', proto: protocol.id, blocks },
        { sn: 'INV1', proto: 'sunspec-meter-3p', blocks },
      ]),
      context,
    );
    expect(out.readings).toHaveLength(1);
    expect(out.rejected.map((r) => r.reason)).toEqual(['unknown_device', 'device_of_other_gateway', 'protocol_mismatch']);
  });

  it('refuses readings from the future or too old', () => {
    expect(
      decodeReport(report([{ sn: 'INV1', proto: protocol.id, blocks }], Date.parse('2026-06-01T13:00:00Z')), context).rejected[0]?.reason,
    ).toBe('timestamp_in_future');
    expect(
      decodeReport(report([{ sn: 'INV1', proto: protocol.id, blocks }], Date.parse('2026-05-01T00:00:00Z')), context).rejected[0]?.reason,
    ).toBe('timestamp_too_old');
  });

  it('names malformed payloads', () => {
    expect(parseReport('{')).toMatchObject({ ok: false, reason: 'malformed_json' });
    expect(parseReport(JSON.stringify({ v: 2, seq: 1, ts: 1, devices: [] }))).toMatchObject({ ok: false, reason: 'malformed_payload' });
  });
});

describe('device status', () => {
  it('is Fault on a fault state or event, Protect, Warning, else Normal', () => {
    expect(statusFromReading(7, [])).toBe(DeviceStatus.FAULT);
    expect(statusFromReading(4, [{ level: 'fault' }])).toBe(DeviceStatus.FAULT);
    expect(statusFromReading(4, [{ level: 'protect' }])).toBe(DeviceStatus.PROTECT);
    expect(statusFromReading(4, [{ level: 'warning' }])).toBe(DeviceStatus.WARNING);
    expect(statusFromReading(4, [])).toBe(DeviceStatus.NORMAL);
  });
  it('is silent after the given number of report intervals', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    expect(isSilent(new Date('2026-06-01T11:56:00Z'), 60, 3, now)).toBe(true);
    expect(isSilent(new Date('2026-06-01T11:58:00Z'), 60, 3, now)).toBe(false);
    expect(isSilent(null, 60, 3, now)).toBe(true);
  });
});

describe('localDayOf', () => {
  it('puts an instant in the plant’s own calendar day', () => {
    const instant = Date.parse('2026-06-01T22:30:00Z');
    expect(localDayOf(instant, 'Europe/Berlin')).toBe('2026-06-02');
    expect(localDayOf(instant, 'America/Phoenix')).toBe('2026-06-01');
    expect(localDayOf(instant, 'Asia/Shanghai')).toBe('2026-06-02');
  });
});

describe('database conflicts', () => {
  it('knows a deadlock or serialization failure, also wrapped by the driver, as worth another attempt', () => {
    expect(isTransientConflict({ code: '40P01' })).toBe(true);
    expect(isTransientConflict(Object.assign(new Error('Failed query'), { cause: { code: '40001' } }))).toBe(true);
    expect(isTransientConflict({ code: '23505' })).toBe(false);
    expect(isTransientConflict(new Error('connection lost'))).toBe(false);
    expect(isTransientConflict(null)).toBe(false);
    expect(isUniqueViolation({ cause: { code: '23505' } })).toBe(true);
  });
});

describe('values packed for the readings insert', () => {
  it('puts every row in one binary double precision[] with its slice, NaN and empty rows included', () => {
    const { packed, starts, ends } = packValues([{ values: [1.5, Number.NaN] }, { values: [] }, { values: [399_889_258.125] }]);
    expect(starts).toEqual([1, 3, 3]);
    expect(ends).toEqual([2, 2, 3]);
    // array_recv's header: 1 dimension, no nulls, float8, 3 elements from index 1; then length + value each.
    expect([0, 4, 8, 12, 16].map((at) => packed.readInt32BE(at))).toEqual([1, 0, 701, 3, 1]);
    expect([0, 1, 2].map((i) => packed.readInt32BE(20 + 12 * i))).toEqual([8, 8, 8]);
    expect(packed.readDoubleBE(24)).toBe(1.5);
    expect(packed.readDoubleBE(36)).toBeNaN();
    // Full precision: a 4-byte float kept this counter to ~32 Wh.
    expect(packed.readDoubleBE(48)).toBe(399_889_258.125);
    expect(packed.length).toBe(56);
  });

  it('sends an empty array when no row has values', () => {
    const { packed, starts, ends } = packValues([{ values: [] }]);
    expect([packed.readInt32BE(0), packed.length]).toEqual([0, 12]);
    expect([starts, ends]).toEqual([[1], [0]]);
  });
});
