import { type DeviceStatusValue, worstStatus } from '@sunward/contracts/device-status';
import { protocolById } from '@sunward/protocol/maps/index';
import type { FastifyBaseLogger } from 'fastify';
import { isTransientConflict } from '../db/errors.js';
import { statusFromReading } from './device-state.js';
import type { LiveHub } from './live-hub.js';
import { type DecodedReading, decodeReport, parseReport, type RejectReason } from './report-decoder.js';
import { createSequenceGaps } from './sequence-gaps.js';
import type { DeviceRecord, TelemetryRepository } from './telemetry.repository.js';

export interface IngestSettings {
  /** Flush a batch when it holds this many readings… */
  maxBatchReadings: number;
  /** …or when its oldest report has waited this long. */
  maxBatchDelayMs: number;
  /** Readings accepted but not yet committed; beyond it, submitters wait (backpressure). */
  maxPendingReadings: number;
  /** Flush at once when this many reports wait (the number of consumers that each hold one). */
  flushAtReports: number;
  maxAgeMs: number;
  maxFutureMs: number;
  /** Auto-discovery stops here, so a misbehaving gateway cannot flood the registry with serial numbers. */
  maxDevicesPerGateway: number;
}

const PLANT_DAY_REFRESH_MS = 5000;
/** A batch that lost a deadlock or serialization conflict (another server process) is tried again. */
const BATCH_ATTEMPTS = 3;

/** Rows in device order, so concurrent writers lock them in the same order and cannot deadlock. */
function byDevice<T extends { deviceId: number }>(rows: Iterable<T>): T[] {
  return [...rows].sort((a, b) => a.deviceId - b.deviceId);
}

export const DEFAULT_INGEST_SETTINGS: IngestSettings = {
  maxBatchReadings: 2000,
  maxBatchDelayMs: 20,
  maxPendingReadings: 50_000,
  flushAtReports: Number.POSITIVE_INFINITY,
  maxAgeMs: 31 * 24 * 3600 * 1000,
  maxFutureMs: 5 * 60 * 1000,
  maxDevicesPerGateway: 64,
};

interface Pending {
  gatewayId: number;
  seq: number;
  readings: DecodedReading[];
  done: () => void;
  fail: (error: unknown) => void;
}

export interface IngestStats {
  reportsStored: number;
  readingsStored: number;
  batches: number;
  rejected: Partial<Record<RejectReason, number>>;
  gaps: number;
}

/**
 * MQTT → decode → batch → store → rollups → status/events. `submitReport` resolves once the report is
 * committed, so the broker acknowledges (PUBACK) only what is stored.
 */
export function createIngestPipeline(deps: {
  repository: TelemetryRepository;
  log: FastifyBaseLogger;
  live: LiveHub;
  /** Recomputes plant-level daily energy for plant-days that received readings. */
  refreshPlantDays?: (plantDays: { plantId: number; day: string }[]) => Promise<void>;
  /** Recomputes plants' live summary columns (power, totals) after their devices' statuses changed. */
  refreshPlantSummaries?: (plantIds: readonly number[]) => Promise<void>;
  settings?: Partial<IngestSettings>;
}) {
  const settings = { ...DEFAULT_INGEST_SETTINGS, ...deps.settings };
  const { repository, log, live } = deps;
  const devicesBySn = new Map<string, DeviceRecord>();
  const devicesById = new Map<number, DeviceRecord>();
  const openEvents = new Map<number, Set<number>>();
  // Per device, the time of the newest reading whose events were followed.
  const eventCursor = new Map<number, number>();
  const sequenceGaps = createSequenceGaps();
  const stats: IngestStats = { reportsStored: 0, readingsStored: 0, batches: 0, rejected: {}, gaps: 0 };
  let queue: Pending[] = [];
  // Plant-days with new readings; their plant totals are refreshed together every few seconds.
  const dirtyPlantDays = new Map<string, { plantId: number; day: string }>();
  // The refresh runs beside the batches, on another connection. It rewrites the same realtime rows, so
  // both lock them in device order (see refreshPlantDays), else they deadlock under load.
  let refreshing = false;
  const plantDayTimer = setInterval(() => {
    if (refreshing) return;
    refreshing = true;
    void refreshDirtyPlantDays('retry').finally(() => {
      refreshing = false;
    });
  }, PLANT_DAY_REFRESH_MS);
  plantDayTimer.unref();
  let queuedReadings = 0;
  let timer: NodeJS.Timeout | null = null;
  let flushRequested = false;
  let flushing: Promise<void> = Promise.resolve();
  const waiters: (() => void)[] = [];

  /** Refreshes the plant-days with new readings. A failure puts them back for the next turn, or reaches the caller. */
  async function refreshDirtyPlantDays(onFailure: 'retry' | 'throw'): Promise<void> {
    if (dirtyPlantDays.size === 0 || !deps.refreshPlantDays) return;
    const days = [...dirtyPlantDays.values()];
    dirtyPlantDays.clear();
    try {
      await deps.refreshPlantDays(days);
    } catch (error) {
      if (onFailure === 'throw') throw error;
      for (const d of days) dirtyPlantDays.set(`${d.plantId}|${d.day}`, d);
      log.error({ err: error }, 'plant energy refresh failed; retrying');
    }
  }

  /** Writes a batch, again when it lost a conflict with another writer, up to BATCH_ATTEMPTS times. */
  async function writeWithRetry(batch: Parameters<TelemetryRepository['writeBatch']>[0]) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await repository.writeBatch(batch);
      } catch (error) {
        if (attempt >= BATCH_ATTEMPTS || !isTransientConflict(error)) throw error;
        log.warn({ err: error, attempt }, 'ingest batch lost a conflict; trying again');
      }
    }
  }

  function remember(device: DeviceRecord) {
    devicesBySn.set(device.sn, device);
    devicesById.set(device.id, device);
  }

  function reject(reason: RejectReason, gatewaySn: string, detail?: string, sn?: string) {
    stats.rejected[reason] = (stats.rejected[reason] ?? 0) + 1;
    log.warn({ event: 'report_rejected', reason, gateway: gatewaySn, device: sn, detail }, 'report rejected');
  }

  // Brand, model and firmware come from the device itself (SunSpec Mn/Md/Vr); written only when they change.
  const nameplates = new Map<number, string>();
  async function recordNameplates(readings: Iterable<DecodedReading>): Promise<void> {
    const changed: { deviceId: number; brand: string | null; model: string | null; firmware: string | null }[] = [];
    for (const r of readings) {
      const { brand, model, firmware } = r.nameplate;
      if (brand === null && model === null && firmware === null) continue;
      const key = `${brand}|${model}|${firmware}`;
      if (nameplates.get(r.deviceId) === key) continue;
      nameplates.set(r.deviceId, key);
      changed.push({ deviceId: r.deviceId, brand, model, firmware });
    }
    if (changed.length > 0) await repository.updateNameplates(changed);
  }

  async function flush(): Promise<void> {
    timer = null;
    const batch = queue;
    queue = [];
    queuedReadings = 0;
    if (batch.length === 0) return;
    const readings = batch.flatMap((p) => p.readings);
    // The newest reading per device drives realtime, status and events.
    const latest = new Map<number, DecodedReading>();
    for (const r of readings) {
      const seen = latest.get(r.deviceId);
      if (!seen || seen.ts < r.ts) latest.set(r.deviceId, r);
    }
    // What each stored reading brings to the energy rollup (the repository works out the device-days).
    const energy = readings.map((r) => {
      const device = devicesById.get(r.deviceId);
      return {
        deviceId: r.deviceId,
        ts: r.ts,
        counterWh: r.energyTotalWh,
        powerW: r.powerW,
        timezone: device?.timezone ?? 'UTC',
        protocolId: device?.protocolId ?? '',
      };
    });
    const newest = byDevice(latest.values());
    const statuses: { deviceId: number; status: DeviceStatusValue; ts: Date }[] = [];
    const toOpen: { deviceId: number; plantId: number | null; code: number; level: string; at: Date }[] = [];
    const toClear: { deviceId: number; code: number; at: Date }[] = [];
    for (const r of newest) statuses.push({ deviceId: r.deviceId, status: statusFromReading(r.operatingState, r.activeEvents), ts: r.ts });
    // Events follow every reading in time order, not only the newest: a fault that opened and cleared
    // inside one batch (a store-and-forward backlog) is recorded with its own times. Readings older than
    // the last one that moved a device's events (a late batch) are stored but change no event.
    const eventState = new Map<number, Set<number>>();
    const clearedHere = new Set<string>();
    const ordered = [...readings].sort((a, b) => a.deviceId - b.deviceId || a.ts.getTime() - b.ts.getTime());
    for (const r of ordered) {
      if (r.ts.getTime() <= (eventCursor.get(r.deviceId) ?? Number.NEGATIVE_INFINITY)) continue;
      let open = eventState.get(r.deviceId);
      if (!open) {
        open = new Set(openEvents.get(r.deviceId));
        eventState.set(r.deviceId, open);
      }
      const active = new Set(r.activeEvents.map((e) => e.code));
      for (const e of r.activeEvents) {
        // Reopened after clearing in this same batch: left to the next reading (one row per open event).
        if (open.has(e.code) || clearedHere.has(`${r.deviceId}|${e.code}`)) continue;
        open.add(e.code);
        toOpen.push({
          deviceId: r.deviceId,
          plantId: devicesById.get(r.deviceId)?.plantId ?? null,
          code: e.code,
          level: e.level,
          at: r.ts,
        });
      }
      for (const code of open)
        if (!active.has(code)) {
          open.delete(code);
          clearedHere.add(`${r.deviceId}|${code}`);
          toClear.push({ deviceId: r.deviceId, code, at: r.ts });
        }
    }
    const gatewayRows = new Map<number, { gatewayId: number; lastSeq: number; gaps: number; at: Date }>();
    for (const p of batch) {
      // Redeliveries, resends and out-of-order arrivals are no gaps; a late one fills the gap it opened.
      const gaps = sequenceGaps.observe(p.gatewayId, p.seq);
      const row = gatewayRows.get(p.gatewayId) ?? { gatewayId: p.gatewayId, lastSeq: p.seq, gaps: 0, at: new Date() };
      row.lastSeq = Math.max(row.lastSeq, p.seq);
      row.gaps += gaps;
      gatewayRows.set(p.gatewayId, row);
      stats.gaps += gaps;
      if (gaps > 0) {
        log.warn({ event: 'report_gap', gatewayId: p.gatewayId, missing: gaps, before: p.seq }, 'gap in report sequence');
      }
    }
    try {
      const { statusChanges, energyDays } = await writeWithRetry({
        readings: readings.map((r) => ({ deviceId: r.deviceId, ts: r.ts, values: r.values })),
        realtime: newest.map((r) => ({
          deviceId: r.deviceId,
          ts: r.ts,
          powerW: r.powerW,
          energyTotalWh: r.energyTotalWh,
          soc: r.soc,
        })),
        energy,
        statuses,
        openEvents: toOpen,
        clearEvents: toClear,
        gateways: [...gatewayRows.values()].sort((a, b) => a.gatewayId - b.gatewayId),
      });
      await recordNameplates(latest.values());
      for (const [deviceId, open] of eventState) openEvents.set(deviceId, open);
      for (const r of newest) if (r.ts.getTime() > (eventCursor.get(r.deviceId) ?? 0)) eventCursor.set(r.deviceId, r.ts.getTime());
      // Every plant-day whose device-days changed (late readings also change the day after theirs).
      for (const row of energyDays) {
        const plantId = devicesById.get(row.deviceId)?.plantId;
        if (plantId != null) dirtyPlantDays.set(`${plantId}|${row.day}`, { plantId, day: row.day });
      }
      // Plant statuses are recomputed only when a device's status changed; the database says which did,
      // so several server processes sharing the ingest agree.
      const changedPlants = new Set<number>();
      for (const change of statusChanges) if (change.plantId !== null) changedPlants.add(change.plantId);
      await refreshPlantStatuses([...changedPlants]);
      stats.batches++;
      stats.reportsStored += batch.length;
      stats.readingsStored += readings.length;
      for (const p of batch) p.done();
      // Stored event changes, for the alarm notifier (it fans them out to people off this path).
      for (const e of toOpen)
        live.publish({
          type: 'event',
          change: 'opened',
          deviceId: e.deviceId,
          plantId: e.plantId,
          code: e.code,
          level: e.level,
          ts: e.at.toISOString(),
        });
      for (const e of toClear)
        live.publish({
          type: 'event',
          change: 'cleared',
          deviceId: e.deviceId,
          plantId: devicesById.get(e.deviceId)?.plantId ?? null,
          code: e.code,
          level: null,
          ts: e.at.toISOString(),
        });
      for (const s of statuses) {
        const r = latest.get(s.deviceId);
        live.publish({
          type: 'device',
          deviceId: s.deviceId,
          plantId: devicesById.get(s.deviceId)?.plantId ?? null,
          status: s.status,
          powerW: r?.powerW ?? null,
          soc: r?.soc ?? null,
          ts: s.ts.toISOString(),
        });
      }
    } catch (error) {
      log.error({ err: error, reports: batch.length }, 'ingest batch failed: reports not acknowledged');
      for (const p of batch) p.fail(error);
    } finally {
      while (waiters.length > 0 && queuedReadings < settings.maxPendingReadings) waiters.shift()?.();
    }
  }

  async function refreshPlantStatuses(plantIds: readonly number[]) {
    for (const { plantId, statuses } of await repository.plantDeviceStatuses(plantIds)) {
      const status = worstStatus(statuses as DeviceStatusValue[]);
      await repository.setPlantStatus(plantId, status);
      live.publish({ type: 'plant', plantId, status });
    }
  }

  // One flush waits behind the running one at most, and takes everything queued when its turn comes, so
  // batches grow with the database's latency. Before, every report over the threshold chained a flush of
  // its own: under a backlog thousands of them waited, most finding nothing to write.
  function requestFlush() {
    if (flushRequested) return;
    flushRequested = true;
    if (timer) clearTimeout(timer);
    timer = null;
    flushing = flushing.then(() => {
      flushRequested = false;
      return flush();
    });
  }

  function schedule() {
    if (queuedReadings >= settings.maxBatchReadings || queue.length >= settings.flushAtReports) requestFlush();
    else if (!timer && !flushRequested) timer = setTimeout(requestFlush, settings.maxBatchDelayMs);
  }

  return {
    stats,

    async start(): Promise<void> {
      for (const device of await repository.loadDevices()) remember(device);
      for (const e of await repository.openEvents()) openEvents.set(e.deviceId, (openEvents.get(e.deviceId) ?? new Set()).add(e.code));
    },

    /** Reloads every cached device after the registry changed (plants created or deleted, gateways bound). */
    async reloadDevices(): Promise<void> {
      const fresh = await repository.loadDevices();
      devicesBySn.clear();
      devicesById.clear();
      for (const device of fresh) remember(device);
    },

    /** Forget cached devices after the registry changed (a plant was created, a device moved). */
    async refreshDevice(sn: string): Promise<void> {
      const device = await repository.findDevice(sn);
      if (device) remember(device);
    },

    /** Resolves when the report is committed; rejects if storing it failed (the broker then does not ack). */
    async submitReport(gateway: { id: number; sn: string }, payload: Buffer): Promise<void> {
      const parsed = parseReport(payload);
      if (!parsed.ok) {
        reject(parsed.reason, gateway.sn, parsed.detail);
        return;
      }
      // Devices added since start are looked up once, then cached.
      for (const d of parsed.report.devices) {
        if (devicesBySn.has(d.sn)) continue;
        await this.refreshDevice(d.sn);
        // Auto-discovery: a device the gateway reports for the first time, with a register map we
        // know, joins the registry under that gateway (and its plant), as data loggers' devices do.
        const protocol = devicesBySn.has(d.sn) ? undefined : protocolById(d.proto);
        if (
          protocol &&
          (await repository.discoverDevice(d.sn, gateway.id, protocol.id, protocol.family, settings.maxDevicesPerGateway, d.parent))
        )
          await this.refreshDevice(d.sn);
      }
      const decoded = decodeReport(parsed.report, {
        gatewayId: gateway.id,
        now: new Date(),
        maxAgeMs: settings.maxAgeMs,
        maxFutureMs: settings.maxFutureMs,
        findDevice: (sn) => devicesBySn.get(sn),
        findProtocol: protocolById,
      });
      for (const r of decoded.rejected) reject(r.reason, gateway.sn, r.detail, r.sn);
      if (decoded.readings.length === 0) return;
      while (queuedReadings >= settings.maxPendingReadings) await new Promise<void>((resolve) => waiters.push(resolve));
      await new Promise<void>((done, fail) => {
        queue.push({ gatewayId: gateway.id, seq: decoded.seq, readings: decoded.readings, done, fail });
        queuedReadings += decoded.readings.length;
        schedule();
      });
    },

    async sweepOffline(multiple: number, offlineStatus: number): Promise<void> {
      const changed = await repository.markSilentDevicesOffline(multiple, new Date(), offlineStatus);
      await refreshPlantStatuses(changed.plantIds);
      // An Offline device's power no longer counts: the plant list shows what the overview shows.
      await deps.refreshPlantSummaries?.(changed.plantIds);
    },

    /** Commits whatever is queued and brings plant totals up to date (used at shutdown and by tests). */
    async drain(): Promise<void> {
      if (timer) clearTimeout(timer);
      flushing = flushing.then(flush);
      await flushing;
      // Here a failure is the caller's to see (shutdown, tests), not retried in the background.
      await refreshDirtyPlantDays('throw');
    },

    stop(): void {
      clearInterval(plantDayTimer);
    },
  };
}

export type IngestPipeline = ReturnType<typeof createIngestPipeline>;
