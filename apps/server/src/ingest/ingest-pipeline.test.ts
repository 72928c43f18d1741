import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { DeviceRegistryRepository } from './device-registry.repository.js';
import { createIngestPipeline } from './ingest-pipeline.js';
import { createLiveHub } from './live-hub.js';
import type { TelemetryRepository } from './telemetry.repository.js';

// The pipeline's batching and retries against an in-memory repository: no database, no broker.

const protocol = protocolById('sunspec-inverter-3p');
if (!protocol) throw new Error('map missing');
const blocks = encodeValues(protocol, { W: 4321, WH: 99_000, St: 4 }).map((b) => ({
  fc: b.functionCode,
  addr: b.address,
  hex: registersToHex(b.registers),
}));
const GATEWAYS = 60;

function report(gateway: number, seq: number): Buffer {
  return Buffer.from(JSON.stringify({ v: 1, seq, ts: Date.now(), devices: [{ sn: `INV${gateway}`, proto: protocol?.id, blocks }] }));
}

type WriteBatch = TelemetryRepository['writeBatch'];

function fakeRepository(writeBatch: WriteBatch): TelemetryRepository {
  const devices = Array.from({ length: GATEWAYS }, (_, i) => ({
    id: i + 1,
    sn: `INV${i}`,
    gatewayId: i,
    plantId: null,
    protocolId: protocol?.id ?? '',
    timezone: 'UTC',
  }));
  const repository: Partial<TelemetryRepository> = {
    loadDevices: async () => devices,
    openEvents: async () => [],
    findDevice: async (sn) => devices.find((d) => d.sn === sn),
    writeBatch,
    updateNameplates: async () => undefined,
    plantDeviceStatuses: async () => [],
  };
  return repository as TelemetryRepository;
}

/** No discovery; every device exists. */
function fakeDeviceRegistry(): DeviceRegistryRepository {
  return {
    registerDiscoveredDevice: async () => false,
    deletedDevices: async () => [],
    existingDeviceIds: async (ids) => new Set(ids),
  };
}

async function pipelineWith(writeBatch: WriteBatch) {
  const pipeline = createIngestPipeline({
    repository: fakeRepository(writeBatch),
    deviceRegistry: fakeDeviceRegistry(),
    log: pino({ level: 'silent' }),
    live: createLiveHub(),
    settings: { maxBatchDelayMs: 1 },
  });
  await pipeline.start();
  return pipeline;
}

describe('ingest pipeline', () => {
  it('writes a batch again after a deadlock, and acknowledges the report once stored', async () => {
    let attempts = 0;
    const pipeline = await pipelineWith(async () => {
      attempts++;
      if (attempts === 1) throw Object.assign(new Error('Failed query'), { cause: { code: '40P01' } });
      return { statusChanges: [], energyDays: [] };
    });
    await expect(pipeline.submitReport({ id: 0, sn: 'GW0' }, report(0, 1))).resolves.toBeUndefined();
    expect(attempts).toBe(2);
    expect(pipeline.stats.reportsStored).toBe(1);
    pipeline.stop();
  });

  it('does not acknowledge a report whose batch failed for another reason, and tries it once', async () => {
    let attempts = 0;
    const pipeline = await pipelineWith(async () => {
      attempts++;
      throw Object.assign(new Error('disk full'), { code: '53100' });
    });
    await expect(pipeline.submitReport({ id: 0, sn: 'GW0' }, report(0, 1))).rejects.toThrow('disk full');
    expect(attempts).toBe(1);
    expect(pipeline.stats.reportsStored).toBe(0);
    pipeline.stop();
  });

  it('gathers what arrives during a slow write into the next batch instead of many small ones', async () => {
    const batchSizes: number[] = [];
    let release: () => void = () => undefined;
    const firstWriteHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    const pipeline = await pipelineWith(async (batch) => {
      batchSizes.push(batch.readings.length);
      if (batchSizes.length === 1) await firstWriteHeld;
      return { statusChanges: [], energyDays: [] };
    });
    const first = pipeline.submitReport({ id: 0, sn: 'GW0' }, report(0, 1));
    await expect.poll(() => batchSizes.length).toBe(1);
    // The first batch is being written: everything submitted now waits for the next one.
    const rest = Array.from({ length: GATEWAYS - 1 }, (_, i) => pipeline.submitReport({ id: i + 1, sn: `GW${i + 1}` }, report(i + 1, 1)));
    release();
    await Promise.all([first, ...rest]);
    expect(batchSizes).toEqual([1, GATEWAYS - 1]);
    pipeline.stop();
  });

  it('follows events reading by reading through a backlog, and a late batch changes none', async () => {
    const batches: Parameters<WriteBatch>[0][] = [];
    const pipeline = createIngestPipeline({
      repository: fakeRepository(async (batch) => {
        batches.push(batch);
        return { statusChanges: [], energyDays: [] };
      }),
      deviceRegistry: fakeDeviceRegistry(),
      log: pino({ level: 'silent' }),
      live: createLiveHub(),
      settings: { maxBatchDelayMs: 50 },
    });
    await pipeline.start();
    const t0 = Date.now() - 3_600_000;
    const reading = (seq: number, minute: number, evt: number) =>
      Buffer.from(
        JSON.stringify({
          v: 1,
          seq,
          ts: t0 + minute * 60_000,
          devices: [
            {
              sn: 'INV0',
              proto: protocol?.id,
              blocks: encodeValues(protocol as NonNullable<typeof protocol>, { W: 100, WH: 1000 + minute, St: 4, Evt1: evt }).map((b) => ({
                fc: b.functionCode,
                addr: b.address,
                hex: registersToHex(b.registers),
              })),
            },
          ],
        }),
      );
    // A gateway's backlog in one batch: the fault (bit 1) is set at minutes 10 and 11 only.
    await Promise.all(
      [0, 5, 10, 11, 15, 20].map((minute, i) =>
        pipeline.submitReport({ id: 0, sn: 'GW0' }, reading(i + 1, minute, minute === 10 || minute === 11 ? 2 : 0)),
      ),
    );
    expect(batches).toHaveLength(1);
    const [backlog] = batches;
    expect(backlog?.openEvents.map((e) => e.at.getTime())).toEqual([t0 + 10 * 60_000]);
    expect(backlog?.clearEvents.map((e) => e.at.getTime())).toEqual([t0 + 15 * 60_000]);
    // Readings older than the newest already followed (a late store-and-forward batch): stored, no event.
    await pipeline.submitReport({ id: 0, sn: 'GW0' }, reading(7, 12, 2));
    expect(batches[1]?.readings).toHaveLength(1);
    expect(batches[1]?.openEvents).toEqual([]);
    expect(batches[1]?.clearEvents).toEqual([]);
    pipeline.stop();
  });

  it('keeps a gateway’s reports in order under backpressure: no sequence gap for reports that wait (issue 26 part 7)', async () => {
    const gapsWritten: number[] = [];
    let writing: () => void = () => undefined;
    const firstWrite = new Promise<void>((resolve) => {
      writing = resolve;
    });
    const pipeline = createIngestPipeline({
      repository: fakeRepository(async (batch) => {
        writing();
        for (const row of batch.gateways) gapsWritten.push(row.gaps);
        // A database slower than the reports come.
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { statusChanges: [], energyDays: [] };
      }),
      deviceRegistry: fakeDeviceRegistry(),
      log: pino({ level: 'silent' }),
      live: createLiveHub(),
      // Room for three reports: the rest of a connection's backlog waits.
      settings: { maxBatchDelayMs: 1, maxBatchReadings: 2, maxPendingBytes: 3 * report(0, 10).length },
    });
    await pipeline.start();
    const gateway = { id: 0, sn: 'GW0' };
    // One chunk of a connection: 30 reports handed over at once, most of them waiting for room.
    const backlog = Array.from({ length: 30 }, (_, i) => pipeline.submitReport(gateway, report(0, i + 1)));
    await firstWrite;
    // The gateway's next reports, read while the first ones wait: they must not be stored before them.
    const next = Array.from({ length: 10 }, (_, i) => pipeline.submitReport(gateway, report(0, 31 + i)));
    await Promise.all([...backlog, ...next]);
    expect(pipeline.stats.reportsStored).toBe(40);
    // No batch told the database of a gap (gateways.gap_count, the gaps metric), not even one filled later.
    expect(gapsWritten.filter((g) => g !== 0)).toEqual([]);
    expect(pipeline.stats.gaps).toBe(0);
    pipeline.stop();
  });
});
