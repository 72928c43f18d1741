import { type DeviceStatusValue, worstStatus } from '@sunward/contracts/device-status';
import { protocolById } from '@sunward/protocol/maps/index';
import { isProtocolEnabled } from '@sunward/protocol/registry';
import type { FastifyBaseLogger } from 'fastify';
import { isTransientConflict } from '../db/errors.js';
import type { JobRegistry } from '../jobs/registry.js';
import { every } from '../jobs/timers.js';
import { createLogThrottle } from '../lib/log-throttle.js';
import { ingestMetrics } from '../lib/metrics.js';
import { storeSplitting } from './batch-split.js';
import { createByteBudget } from './byte-budget.js';
import type { ConnectionLog } from './connection-log.js';
import { createDeviceDiscovery } from './device-discovery.js';
import type { DeviceRegistryRepository } from './device-registry.repository.js';
import { statusFromReading } from './device-state.js';
import type { GatewayFeedback } from './gateway-feedback.js';
import type { LiveHub } from './live-hub.js';
import { createReadGate } from './read-gate.js';
import { type DecodeContext, type DecodedReading, decodeReport, parseReport, type RejectReason } from './report-decoder.js';
import { createSequenceGaps } from './sequence-gaps.js';
import type { DeviceRecord, TelemetryRepository } from './telemetry.repository.js';

export interface IngestSettings {
  /** Flush a batch when it holds this many readings… */
  maxBatchReadings: number;
  /** …or when its oldest report has waited this long. */
  maxBatchDelayMs: number;
  /**
   * Payload bytes of reports accepted but not yet committed (byte-budget.ts); a report that does not fit waits,
   * unparsed, and its connection is not read meanwhile (backpressure). Bounds memory however much is offered.
   */
  maxPendingBytes: number;
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
  // 16 MB: about 12,000 hybrid-inverter readings, half a second at one process's capacity (docs/decisions.md).
  maxPendingBytes: 16 * 1024 * 1024,
  flushAtReports: Number.POSITIVE_INFINITY,
  maxAgeMs: 31 * 24 * 3600 * 1000,
  maxFutureMs: 5 * 60 * 1000,
  maxDevicesPerGateway: 64,
};

interface Pending {
  gatewayId: number;
  gatewaySn: string;
  seq: number;
  readings: DecodedReading[];
  /** Its payload's size: what it holds of the byte budget. */
  bytes: number;
  /** When the report reached the pipeline (performance.now()), for the lag metric. */
  receivedAt: number;
  done: () => void;
  fail: (error: unknown) => void;
}

/** Some or all readings of one report: a batch that the database refuses on its data is split into parts. */
interface Part {
  report: Pending;
  gatewayId: number;
  seq: number;
  readings: DecodedReading[];
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
  /** Discovery, deleted devices, and which devices still exist. */
  deviceRegistry: DeviceRegistryRepository;
  log: FastifyBaseLogger;
  live: LiveHub;
  /** Recomputes plant-level daily energy for plant-days that received readings. */
  refreshPlantDays?: (plantDays: { plantId: number; day: string }[]) => Promise<void>;
  /** Recomputes plants' live summary columns (power, totals) after their devices' statuses changed. */
  refreshPlantSummaries?: (plantIds: readonly number[]) => Promise<void>;
  settings?: Partial<IngestSettings>;
  /** Gateway communication history: refused reports with their reason (batched, never awaited here). */
  connectionLog?: ConnectionLog;
  /** Answers refused reports on the gateway's own `…/report/refused` topic. */
  feedback?: Pick<GatewayFeedback, 'reportRefused'>;
  /** The server's job registry, which then runs the plant-day refresh (tests leave it out: a plain timer). */
  jobs?: Pick<JobRegistry, 'register'>;
}) {
  const settings = { ...DEFAULT_INGEST_SETTINGS, ...deps.settings };
  const { repository, log, live } = deps;
  const devicesBySn = new Map<string, DeviceRecord>();
  const devicesById = new Map<number, DeviceRecord>();
  // `${gatewayId}|${sn}` of devices users deleted: refused, never discovered again.
  let deletedDevices = new Set<string>();
  const discovery = createDeviceDiscovery({
    cached: (sn) => devicesBySn.get(sn),
    load: async (sn) => {
      const device = await repository.findDevice(sn);
      if (device) remember(device);
      return device;
    },
    isDeleted: (gatewayId, sn) => deletedDevices.has(`${gatewayId}|${sn}`),
    register: async (device) => {
      const protocol = protocolById(device.protocolId);
      if (!protocol) return false;
      return deps.deviceRegistry.registerDiscoveredDevice({
        ...device,
        family: protocol.family,
        maxPerGateway: settings.maxDevicesPerGateway,
      });
    },
  });
  const openEvents = new Map<number, Set<number>>();
  // Per device, the time of the newest reading whose events were followed.
  const eventCursor = new Map<number, number>();
  const sequenceGaps = createSequenceGaps();
  const stats: IngestStats = { reportsStored: 0, readingsStored: 0, batches: 0, rejected: {}, gaps: 0 };
  // One WARN line per refusal reason a minute, with a count, rather than one per report (issue 17).
  const warnings = createLogThrottle(log);
  let queue: Pending[] = [];
  // Plant-days with new readings; their plant totals are refreshed together every few seconds.
  const dirtyPlantDays = new Map<string, { plantId: number; day: string }>();
  // The refresh runs beside the batches, on another connection. It rewrites the same realtime rows, so
  // both lock them in device order (see refreshPlantDays), else they deadlock under load.
  let refreshing = false;
  /** One plant-day refresh pass; none while the previous one runs. */
  function plantDayPass(): Promise<void> {
    if (refreshing) return Promise.resolve();
    refreshing = true;
    return refreshDirtyPlantDays('retry').finally(() => {
      refreshing = false;
    });
  }
  // A process job (the dirty plant-days are this process's): the server's registry, or a plain timer without one.
  const removePlantDayJob = deps.jobs?.register({
    name: 'plant_day_refresh',
    everyMs: PLANT_DAY_REFRESH_MS,
    scope: 'process',
    run: plantDayPass,
  });
  const stopPlantDayTimer = deps.jobs ? undefined : every(PLANT_DAY_REFRESH_MS, () => void plantDayPass());
  let queuedReadings = 0;
  let timer: NodeJS.Timeout | null = null;
  let flushRequested = false;
  let flushing: Promise<void> = Promise.resolve();
  // Reports beyond the budget wait unparsed; once a quarter of the budget waits (or sits read and unparsed in
  // the sockets' streams), the broker stops reading its sockets (read-gate.ts) until room comes back (docs/decisions.md, "Backpressure on bytes").
  const budget = createByteBudget(settings.maxPendingBytes, () => readGate.changed());
  const readGate = createReadGate({
    waitingBytes: () => budget.state().waitingBytes,
    readAheadBytes: settings.maxPendingBytes / 4,
    resumePerTurn: 16,
  });

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

  async function loadDeletedDevices(): Promise<Set<string>> {
    return new Set((await deps.deviceRegistry.deletedDevices()).map((d) => `${d.gatewayId}|${d.sn}`));
  }

  /** Counts, logs and answers a refused report or reading (the gateway hears it on `…/report/refused`). */
  function reject(
    gatewaySn: string,
    refusal: {
      reason: RejectReason;
      seq: number | null;
      ts: number | null;
      device?: string | undefined;
      field?: string | undefined;
      detail?: string | undefined;
    },
  ) {
    const { reason, detail, device } = refusal;
    stats.rejected[reason] = (stats.rejected[reason] ?? 0) + 1;
    ingestMetrics.refused.inc({ reason });
    deps.connectionLog?.record({ at: new Date(), gatewaySn, kind: 'refused', reason: detail ? `${reason}: ${detail}` : reason });
    warnings.warn(reason, { event: 'report_rejected', reason, gateway: gatewaySn, device, seq: refusal.seq, detail }, 'report rejected');
    deps.feedback?.reportRefused(gatewaySn, refusal);
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

  // A batch takes at most half the byte budget: while it is written the other half is let in and decoded, so
  // decoding and the database work side by side. A batch of the whole budget left the process idle while it
  // committed (one 16 MB batch a second under overload, issue 26 part 7).
  const maxBatchBytes = settings.maxPendingBytes / 2;

  async function flush(): Promise<void> {
    timer = null;
    if (queue.length === 0) return;
    let take = 0;
    let bytes = 0;
    for (const p of queue) {
      if (take > 0 && bytes + p.bytes > maxBatchBytes) break;
      bytes += p.bytes;
      take++;
    }
    const batch = take === queue.length ? queue : queue.slice(0, take);
    queue = take === queue.length ? [] : queue.slice(take);
    for (const p of batch) queuedReadings -= p.readings.length;
    try {
      await storeReports(batch);
    } catch (error) {
      // storeReports settles every report itself; this is the last guard: no error escapes the pipeline.
      log.error({ err: error, reports: batch.length }, 'ingest batch failed: reports not acknowledged');
      for (const p of batch) p.fail(error);
    }
    // What did not fit goes in the next batch, at once.
    if (queue.length > 0) requestFlush();
  }

  /**
   * Stores a batch of reports and settles each: acknowledged when stored (or refused), failed when the
   * database could not take it (the gateway resends). A batch refused on one report's data is split
   * (batch-split.ts) so that the others are stored and only the refusing reading is refused.
   */
  async function storeReports(batch: readonly Pending[]): Promise<void> {
    const failures = new Map<Pending, unknown>();
    const refused: { part: Part; error: unknown }[] = [];
    let storedAny = false;
    await storeSplitting<Part>(
      batch.map((report) => ({ report, gatewayId: report.gatewayId, seq: report.seq, readings: report.readings })),
      {
        write: async (parts) => {
          // Nothing left to write (every reading was of a device deleted meanwhile).
          if (parts.every((p) => p.readings.length === 0)) return;
          const failed = await writeParts(parts);
          if (failed) throw failed.error;
        },
        split: (part) => (part.readings.length > 1 ? part.readings.map((r) => ({ ...part, readings: [r] })) : [part]),
        dropDeleted: dropDeletedDevices,
        stored: () => {
          storedAny = true;
        },
        refused: (part, error) => refused.push({ part, error }),
        failed: (parts, error) => {
          for (const part of parts) failures.set(part.report, error);
        },
      },
    );
    // Every reading of several gateways refused one by one is not one report's data but the database or
    // this code: nothing is acknowledged (gateways resend) rather than the whole fleet's readings dropped.
    if (!storedAny && new Set(refused.map((r) => r.part.gatewayId)).size >= 2) {
      for (const { part, error } of refused) failures.set(part.report, error);
      refused.length = 0;
    }
    for (const { part, error } of refused) {
      log.error({ err: error, gateway: part.report.gatewaySn, seq: part.seq }, 'reading refused by the database: acknowledged, not stored');
      for (const r of part.readings)
        reject(part.report.gatewaySn, {
          reason: 'unstorable',
          seq: part.seq,
          ts: r.ts.getTime(),
          device: devicesById.get(r.deviceId)?.sn,
          detail: String(error),
        });
    }
    if (failures.size > 0)
      log.error({ err: failures.values().next().value, reports: failures.size }, 'ingest batch failed: reports not acknowledged');
    for (const p of batch) {
      if (failures.has(p)) p.fail(failures.get(p));
      else {
        stats.reportsStored++;
        ingestMetrics.reports.inc();
        ingestMetrics.lag.observe((performance.now() - p.receivedAt) / 1000);
        p.done();
      }
    }
  }

  /** After a foreign-key refusal: drops (refuses) the readings of devices deleted since they were decoded. */
  async function dropDeletedDevices(parts: Part[]): Promise<Part[] | null> {
    const ids = [...new Set(parts.flatMap((p) => p.readings.map((r) => r.deviceId)))];
    const existing = await deps.deviceRegistry.existingDeviceIds(ids);
    const gone = new Set(ids.filter((id) => !existing.has(id)));
    if (gone.size === 0) return null;
    const sns = new Map<number, string | undefined>();
    for (const id of gone) {
      const device = devicesById.get(id);
      sns.set(id, device?.sn);
      if (!device) continue;
      devicesById.delete(id);
      if (devicesBySn.get(device.sn)?.id === id) devicesBySn.delete(device.sn);
      if (device.gatewayId !== null) deletedDevices.add(`${device.gatewayId}|${device.sn}`);
    }
    return parts.map((part) => {
      for (const r of part.readings)
        if (gone.has(r.deviceId))
          reject(part.report.gatewaySn, { reason: 'deleted_device', seq: part.seq, ts: r.ts.getTime(), device: sns.get(r.deviceId) });
      return { ...part, readings: part.readings.filter((r) => !gone.has(r.deviceId)) };
    });
  }

  /**
   * Writes one batch of report parts in one transaction, then publishes what changed. Returns the error
   * when it was not stored: storeReports then splits the batch or fails its reports.
   */
  async function writeParts(batch: readonly Part[]): Promise<{ error: unknown } | null> {
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
        ingestMetrics.gaps.inc(gaps);
        warnings.warn(
          'report_gap',
          { event: 'report_gap', gatewayId: p.gatewayId, missing: gaps, before: p.seq },
          'gap in report sequence',
        );
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
      // The batch is committed: what follows must not make it look unstored.
      await recordNameplates(latest.values()).catch((error: unknown) => log.error({ err: error }, 'device nameplates not recorded'));
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
      await refreshPlantStatuses([...changedPlants]).catch((error: unknown) => log.error({ err: error }, 'plant statuses not refreshed'));
      stats.batches++;
      stats.readingsStored += readings.length;
      ingestMetrics.readings.inc(readings.length);
      ingestMetrics.batchSize.observe(readings.length);
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
      return { error };
    }
    return null;
  }

  async function refreshPlantStatuses(plantIds: readonly number[]) {
    for (const { plantId, statuses } of await repository.plantDeviceStatuses(plantIds)) {
      const status = worstStatus(statuses as DeviceStatusValue[]);
      await repository.setPlantStatus(plantId, status);
      live.publish({ type: 'plant', plantId, status });
    }
  }

  // One flush waits behind the running one at most, and takes what is queued when its turn comes (up to half
  // the byte budget), so batches grow with the database's latency. Before, every report over the threshold chained a flush of
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

  /** Parses, decodes (discovering new devices) and queues one admitted report; resolves once it is committed. */
  async function acceptReport(gateway: { id: number; sn: string }, payload: Buffer, receivedAt: number): Promise<void> {
    const parsed = parseReport(payload);
    if (!parsed.ok) {
      reject(gateway.sn, parsed);
      return;
    }
    const report = parsed.report;
    // Devices added since start are looked up once, then cached; a registration under way is waited for.
    await discovery.lookUp(report.devices.map((d) => d.sn));
    const context: DecodeContext = {
      gatewayId: gateway.id,
      now: new Date(),
      maxAgeMs: settings.maxAgeMs,
      maxFutureMs: settings.maxFutureMs,
      findDevice: (sn) => devicesBySn.get(sn),
      findProtocol: protocolById,
    };
    // Auto-discovery: a device the gateway reports for the first time, with a register map we know, is
    // decoded as if registered (under a stand-in id); only a reading that decodes registers it.
    const candidates = new Map<string, { id: number; protocolId: string }>();
    // A disabled protocol (issue 19) still decodes its devices; no new device is discovered on it.
    for (const d of report.devices)
      if (!candidates.has(d.sn) && protocolById(d.proto) && isProtocolEnabled(d.proto) && discovery.mayDiscover(gateway.id, d.sn))
        candidates.set(d.sn, { id: -1 - candidates.size, protocolId: d.proto });
    let decoded = decodeReport(report, {
      ...context,
      findDevice: (sn) => {
        const candidate = candidates.get(sn);
        return devicesBySn.get(sn) ?? (candidate && { id: candidate.id, gatewayId: gateway.id, protocolId: candidate.protocolId });
      },
    });
    const decodedNew = new Set(decoded.readings.filter((r) => r.deviceId < 0).map((r) => r.deviceId));
    if (decodedNew.size > 0) {
      await Promise.all(
        report.devices
          .filter((d) => decodedNew.has(candidates.get(d.sn)?.id ?? 0) && candidates.get(d.sn)?.protocolId === d.proto)
          .map((d) => discovery.register({ sn: d.sn, gatewayId: gateway.id, protocolId: d.proto, parentSn: d.parent })),
      );
      // Decoded again against the registry as it now is: a device that could not be added is refused.
      decoded = decodeReport(report, context);
    }
    for (const r of decoded.rejected)
      reject(gateway.sn, {
        reason: r.reason === 'unknown_device' && r.sn && deletedDevices.has(`${gateway.id}|${r.sn}`) ? 'deleted_device' : r.reason,
        seq: report.seq,
        ts: report.ts,
        device: r.sn,
        detail: r.detail,
      });
    if (decoded.readings.length === 0) return;
    await new Promise<void>((done, fail) => {
      queue.push({
        gatewayId: gateway.id,
        gatewaySn: gateway.sn,
        seq: decoded.seq,
        readings: decoded.readings,
        bytes: payload.length,
        receivedAt,
        done,
        fail,
      });
      queuedReadings += decoded.readings.length;
      schedule();
    });
  }

  return {
    stats,

    /** The embedded broker puts each gateway connection behind it: no socket is read while the budget is full. */
    readGate,

    /**
     * Reports and readings queued for the next batch, payload bytes accepted and not yet committed (the byte
     * budget), reports waiting to be let in, and broker sockets not read meanwhile (/metrics, bench).
     */
    pending(): {
      reports: number;
      readings: number;
      bytes: number;
      waiting: number;
      waitingBytes: number;
      parkedSockets: number;
      socketBytes: number;
      peakBytes: number;
      limitBytes: number;
    } {
      const b = budget.state();
      return {
        reports: queue.length,
        readings: queuedReadings,
        bytes: b.bytes,
        waiting: b.waiting,
        waitingBytes: b.waitingBytes,
        parkedSockets: readGate.parked(),
        socketBytes: readGate.buffered(),
        peakBytes: b.peakBytes,
        limitBytes: b.limit,
      };
    },

    async start(): Promise<void> {
      for (const device of await repository.loadDevices()) remember(device);
      deletedDevices = await loadDeletedDevices();
      for (const e of await repository.openEvents()) openEvents.set(e.deviceId, (openEvents.get(e.deviceId) ?? new Set()).add(e.code));
    },

    /** Reloads every cached device after the registry changed (plants created or deleted, gateways bound). */
    async reloadDevices(): Promise<void> {
      const [fresh, deleted] = await Promise.all([repository.loadDevices(), loadDeletedDevices()]);
      devicesBySn.clear();
      devicesById.clear();
      for (const device of fresh) remember(device);
      deletedDevices = deleted;
    },

    /**
     * Resolves when the report is committed (or refused); rejects if storing it failed (the broker then does not
     * ack). Waits first, unparsed, while the byte budget is full: the caller (the broker) reads nothing more from
     * this connection meanwhile.
     */
    async submitReport(gateway: { id: number; sn: string }, payload: Buffer): Promise<void> {
      const receivedAt = performance.now();
      const bytes = payload.length;
      const admitted = budget.acquire(bytes);
      if (admitted) await admitted;
      try {
        await acceptReport(gateway, payload, receivedAt);
      } finally {
        budget.release(bytes);
      }
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
      do {
        flushing = flushing.then(flush);
        await flushing;
      } while (queue.length > 0);
      // Here a failure is the caller's to see (shutdown, tests), not retried in the background.
      await refreshDirtyPlantDays('throw');
    },

    stop(): void {
      stopPlantDayTimer?.();
      removePlantDayJob?.then((remove) => remove()).catch((error: unknown) => log.warn({ err: error }, 'plant-day job not removed'));
      warnings.flush();
    },
  };
}

export type IngestPipeline = ReturnType<typeof createIngestPipeline>;
