import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { DeviceRegistryRepository } from './device-registry.repository.js';
import { createIngestPipeline } from './ingest-pipeline.js';
import { createLiveHub } from './live-hub.js';
import type { DeviceRecord, TelemetryRepository } from './telemetry.repository.js';

// What no single report may do to the pipeline (and what discovery may not lose), against an in-memory
// registry and repository: no database, no broker. The same over MQTT: ingest-robust.api.test.ts.

const PROTOCOL = 'sunspec-inverter-3p';
const protocol = protocolById(PROTOCOL);
if (!protocol) throw new Error('map missing');
const blocks = encodeValues(protocol, { W: 4321, WH: 99_000, St: 4 }).map((b) => ({
  fc: b.functionCode,
  addr: b.address,
  hex: registersToHex(b.registers),
}));

function report(seq: number, sns: readonly string[], ts = Date.now() - 1000): Buffer {
  return Buffer.from(JSON.stringify({ v: 1, seq, ts, devices: sns.map((sn) => ({ sn, proto: PROTOCOL, blocks })) }));
}

type WriteBatch = TelemetryRepository['writeBatch'];
type Batch = Parameters<WriteBatch>[0];

/** A registry in memory: devices by SN, users' deletions, discovery with a delay like a database round trip. */
function world(options: { devices?: { sn: string; gatewayId: number }[]; deleted?: { gatewayId: number; sn: string }[] } = {}) {
  const devices: DeviceRecord[] = (options.devices ?? []).map((d, i) => ({
    id: i + 1,
    sn: d.sn,
    gatewayId: d.gatewayId,
    plantId: null,
    protocolId: PROTOCOL,
    timezone: 'UTC',
  }));
  const deleted = [...(options.deleted ?? [])];
  const stored: Batch['readings'] = [];
  let registrations = 0;
  const tick = () => new Promise((resolve) => setTimeout(resolve, 2));
  let writeBatch: WriteBatch = async (batch) => {
    stored.push(...batch.readings);
    return { statusChanges: [], energyDays: [] };
  };
  const repository: Partial<TelemetryRepository> = {
    loadDevices: async () => [...devices],
    openEvents: async () => [],
    findDevice: async (sn) => {
      await tick();
      return devices.find((d) => d.sn === sn);
    },
    writeBatch: (batch) => writeBatch(batch),
    updateNameplates: async () => undefined,
    plantDeviceStatuses: async () => [],
  };
  const deviceRegistry: DeviceRegistryRepository = {
    async registerDiscoveredDevice(device) {
      registrations++;
      await tick();
      if (devices.some((d) => d.sn === device.sn) || deleted.some((d) => d.gatewayId === device.gatewayId && d.sn === device.sn))
        return false;
      devices.push({
        id: devices.length + 1,
        sn: device.sn,
        gatewayId: device.gatewayId,
        plantId: null,
        protocolId: device.protocolId,
        timezone: 'UTC',
      });
      return true;
    },
    deletedDevices: async () => [...deleted],
    existingDeviceIds: async (ids) => new Set(ids.filter((id) => devices.some((d) => d.id === id))),
  };
  return {
    devices,
    deleted,
    stored,
    registrations: () => registrations,
    /** The repository's write from now on (the default stores every reading). */
    onWrite(write: (batch: Batch, store: () => void) => void) {
      writeBatch = async (batch) => {
        write(batch, () => stored.push(...batch.readings));
        return { statusChanges: [], energyDays: [] };
      };
    },
    async pipeline() {
      const pipeline = createIngestPipeline({
        repository: repository as TelemetryRepository,
        deviceRegistry,
        log: pino({ level: 'silent' }),
        live: createLiveHub(),
        settings: { maxBatchDelayMs: 20 },
      });
      await pipeline.start();
      return pipeline;
    },
  };
}

const dbError = (code: string, message: string) =>
  Object.assign(new Error('Failed query'), { cause: Object.assign(new Error(message), { code }) });

describe('one report cannot stop ingest (15.1)', () => {
  it('refuses a report timed past what a date can hold, and stores the next one', async () => {
    const w = world({ devices: [{ sn: 'INV0', gatewayId: 1 }] });
    const pipeline = await w.pipeline();
    const gateway = { id: 1, sn: 'GW1' };
    await pipeline.submitReport(gateway, report(1, ['INV0'], 8_700_000_000_000_000));
    await pipeline.submitReport(gateway, report(2, ['INV0'], Number.MAX_SAFE_INTEGER));
    await pipeline.submitReport(gateway, report(3, ['INV0'], Date.UTC(1999, 11, 31)));
    expect(pipeline.stats.rejected).toMatchObject({ timestamp_in_future: 2, timestamp_too_old: 1 });
    await pipeline.submitReport(gateway, report(4, ['INV0']));
    expect(w.stored).toHaveLength(1);
    pipeline.stop();
  });

  it('splits a batch the database refuses on one reading: the others are stored and acknowledged, that one refused', async () => {
    const w = world({ devices: Array.from({ length: 8 }, (_, i) => ({ sn: `INV${i}`, gatewayId: i })) });
    const poisoned = 5; // device id of INV4
    let writes = 0;
    w.onWrite((batch, store) => {
      writes++;
      if (batch.readings.some((r) => r.deviceId === poisoned)) throw dbError('22003', 'value out of range for type real');
      store();
    });
    const pipeline = await w.pipeline();
    // Eight gateways' reports in one batch window.
    await Promise.all(Array.from({ length: 8 }, (_, i) => pipeline.submitReport({ id: i, sn: `GW${i}` }, report(1, [`INV${i}`]))));
    expect(w.stored.map((r) => r.deviceId).sort()).toEqual([1, 2, 3, 4, 6, 7, 8]);
    expect(pipeline.stats.rejected.unstorable).toBe(1);
    expect(writes).toBeGreaterThan(1);
    pipeline.stop();
  });

  it('stores the other readings of a report one of whose readings is refused', async () => {
    const w = world({ devices: [0, 1, 2].map((i) => ({ sn: `INV${i}`, gatewayId: 1 })) });
    w.onWrite((batch, store) => {
      if (batch.readings.some((r) => r.deviceId === 2)) throw new RangeError('Invalid time value');
      store();
    });
    const pipeline = await w.pipeline();
    await pipeline.submitReport({ id: 1, sn: 'GW1' }, report(1, ['INV0', 'INV1', 'INV2']));
    expect(w.stored.map((r) => r.deviceId).sort()).toEqual([1, 3]);
    expect(pipeline.stats.rejected.unstorable).toBe(1);
    pipeline.stop();
  });

  it('acknowledges nothing when every reading of several gateways is refused (the database or the code, not a report)', async () => {
    const w = world({ devices: [0, 1, 2].map((i) => ({ sn: `INV${i}`, gatewayId: i })) });
    w.onWrite(() => {
      throw dbError('23502', 'null value in column violates not-null constraint');
    });
    const pipeline = await w.pipeline();
    const outcomes = await Promise.allSettled([0, 1, 2].map((i) => pipeline.submitReport({ id: i, sn: `GW${i}` }, report(1, [`INV${i}`]))));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(pipeline.stats.rejected.unstorable).toBeUndefined();
    pipeline.stop();
  });

  it('acknowledges nothing when the database itself fails, and keeps serving afterwards', async () => {
    const w = world({ devices: [{ sn: 'INV0', gatewayId: 1 }] });
    let down = true;
    w.onWrite((_batch, store) => {
      if (down) throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
      store();
    });
    const pipeline = await w.pipeline();
    await expect(pipeline.submitReport({ id: 1, sn: 'GW1' }, report(1, ['INV0']))).rejects.toThrow('Connection terminated');
    expect(pipeline.stats.rejected.unstorable).toBeUndefined();
    down = false;
    await pipeline.submitReport({ id: 1, sn: 'GW1' }, report(1, ['INV0']));
    expect(w.stored).toHaveLength(1);
    pipeline.stop();
  });
});

describe('a deleted device (15.3)', () => {
  it('deleted while its reading waits in a batch: refused alone, another company’s reading in the batch is stored', async () => {
    const w = world({
      devices: [
        { sn: 'METER1', gatewayId: 1 },
        { sn: 'INV2', gatewayId: 2 },
      ],
    });
    w.onWrite((batch, store) => {
      // As the foreign key on device_realtime does.
      if (batch.readings.some((r) => !w.devices.some((d) => d.id === r.deviceId))) throw dbError('23503', 'violates foreign key');
      store();
    });
    const pipeline = await w.pipeline();
    const meter = pipeline.submitReport({ id: 1, sn: 'GW1' }, report(1, ['METER1']));
    // The meter is deleted (the API committed it) after its report was decoded, before the batch is written.
    w.devices.splice(0, 1);
    w.deleted.push({ gatewayId: 1, sn: 'METER1' });
    const inverter = pipeline.submitReport({ id: 2, sn: 'GW2' }, report(1, ['INV2']));
    await Promise.all([meter, inverter]);
    expect(w.stored.map((r) => r.deviceId)).toEqual([2]);
    expect(pipeline.stats.rejected.deleted_device).toBe(1);
    // Its gateway keeps reporting it: refused at once, not discovered again.
    await pipeline.submitReport({ id: 1, sn: 'GW1' }, report(2, ['METER1']));
    expect(pipeline.stats.rejected.deleted_device).toBe(2);
    expect(w.registrations()).toBe(0);
    expect(w.devices.map((d) => d.sn)).toEqual(['INV2']);
    pipeline.stop();
  });

  it('acknowledges a batch holding only readings of devices deleted meanwhile, writing nothing more', async () => {
    const w = world({ devices: [{ sn: 'METER1', gatewayId: 1 }] });
    let writes = 0;
    w.onWrite((batch, store) => {
      writes++;
      if (batch.readings.some((r) => !w.devices.some((d) => d.id === r.deviceId))) throw dbError('23503', 'violates foreign key');
      store();
    });
    const pipeline = await w.pipeline();
    const meter = pipeline.submitReport({ id: 1, sn: 'GW1' }, report(1, ['METER1']));
    w.devices.splice(0, 1);
    await meter;
    expect(writes).toBe(1);
    expect(w.stored).toHaveLength(0);
    expect(pipeline.stats.rejected.deleted_device).toBe(1);
    pipeline.stop();
  });

  it('is refused after the registry reload, without a database round trip per report', async () => {
    const w = world({ devices: [{ sn: 'INV0', gatewayId: 1 }] });
    const pipeline = await w.pipeline();
    w.devices.splice(0, 1);
    w.deleted.push({ gatewayId: 1, sn: 'INV0' });
    await pipeline.reloadDevices();
    await pipeline.submitReport({ id: 1, sn: 'GW1' }, report(1, ['INV0']));
    expect(pipeline.stats.rejected.deleted_device).toBe(1);
    expect(w.registrations()).toBe(0);
    expect(w.stored).toHaveLength(0);
    pipeline.stop();
  });
});

describe('auto-discovery loses nothing (16.3)', () => {
  it('stores every reading of a new gateway’s first 100 reports, sent at once, registering each device once', async () => {
    const w = world();
    const pipeline = await w.pipeline();
    const sns = Array.from({ length: 10 }, (_, i) => `NEWINV${i}`);
    const now = Date.now() - 200_000;
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => pipeline.submitReport({ id: 9, sn: 'GW9' }, report(i + 1, sns, now + i * 1000))),
    );
    expect(w.stored).toHaveLength(1000);
    expect(pipeline.stats.rejected).toEqual({});
    expect(w.devices.map((d) => d.sn).sort()).toEqual(sns);
    expect(w.registrations()).toBe(10);
    pipeline.stop();
  });

  it('creates no device from a report that does not decode', async () => {
    const w = world();
    const pipeline = await w.pipeline();
    const undecodable = Buffer.from(
      JSON.stringify({
        v: 1,
        seq: 1,
        ts: Date.now(),
        devices: [{ sn: 'NEWINV0', proto: PROTOCOL, blocks: [{ fc: 3, addr: 1, hex: '0000' }] }],
      }),
    );
    await pipeline.submitReport({ id: 9, sn: 'GW9' }, undecodable);
    await pipeline.submitReport({ id: 9, sn: 'GW9' }, report(2, ['NEWINV1'], 8_700_000_000_000_000));
    expect(pipeline.stats.rejected).toMatchObject({ bad_registers: 1, timestamp_in_future: 1 });
    expect(w.registrations()).toBe(0);
    expect(w.devices).toHaveLength(0);
    pipeline.stop();
  });
});
