import { Code, type ResponseCode } from '@sunward/contracts/codes';
import {
  type DaySeries,
  DEVICE_KIND_INFO,
  DEVICE_LIMITS,
  type DeleteResult,
  type DeviceCounts,
  type DeviceDetail,
  type DeviceKind,
  type DeviceListQuery,
  DeviceListQuerySchema,
  type DevicePage,
  type DeviceRealtime,
  type DeviceRow,
  type EnergyBars,
  type MeterSettings,
  type PvIv,
  type SectionKey,
  type WorkdataPage,
} from '@sunward/contracts/devices';
import type { DownloadRecord } from '@sunward/contracts/files';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { addDays, counterDayEnergy, daysOfMonth, localDayOf, localDayStart } from '@sunward/contracts/plant-energy';
import type { PlantAccessLevel } from '@sunward/contracts/plants';
import { isDeviceAlias } from '@sunward/contracts/validators';
import { roleIndex } from '@sunward/protocol/positions';
import type { Database } from '../../db/client.js';
import type { RegistryEvents } from '../../ingest/registry-events.js';
import { createTelemetryQueries } from '../../ingest/telemetry-query.repository.js';
import { ApiError } from '../../lib/envelope.js';
import { authFromSnapshot, type CallerJob, callerJob, parseCallerJob } from '../../lib/job-params.js';
import { writeTableInBatches } from '../../lib/table-file.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OperationLog } from '../audit/operation-log.js';
import { localised } from '../events/event-text.js';
import type { DownloadCentre, ExportJobWork, StartJob } from '../files/files.service.js';
import { createPlantEnergyRepository } from '../plants/plant-energy.repository.js';
import { createProtocolSwitch } from '../protocols/protocol-switch.js';
import { type AccessTarget, type DeviceAccess, rankOf } from './device-access.js';
import {
  catalogueOf,
  chartablePoints,
  defaultChartPoints,
  energyCounters,
  inverterTypeCode,
  realtimeSections,
  storageIndex,
  stringInputs,
  writableParams,
} from './device-catalogue.js';
import { batteryTable, inverterTable } from './device-export.js';
import type { DeviceFilter, DeviceRecord, DevicesRepository } from './devices.repository.js';

const CURVE_POINTS = 600;
/** Inverter type codes by protocol, for the type filter (spec 01 §3). */
const TYPE_PROTOCOLS: Record<number, string[]> = {
  2: ['sunspec-inverter-1p'],
  3: ['sunspec-micro-inverter'],
  4: ['sunspec-inverter-3p'],
  93: ['sunspec-hybrid-lv'],
  94: ['sunspec-hybrid-hv'],
};

/** Devices an export reads per query. */
const LIST_EXPORT_BATCH = 2000;

export function notFoundCode(kind: DeviceKind): ResponseCode {
  return kind === 'inverter' ? Code.INVERTER_NOT_FOUND : Code.DEVICE_NOT_FOUND;
}

const validation = (field: string, message: string) => new ApiError(Code.VALIDATION, {}, { errors: [{ field, message }] });

/** Devices of every family: lists, counts, detail, realtime, curves, energy bars, alias, delete. */
export function createDevicesService(deps: {
  db: Database;
  repository: DevicesRepository;
  access: DeviceAccess;
  log: OperationLog;
  /** Deleting a device stops its ingest before the API answers (the pipeline reloads its device cache). */
  registry: RegistryEvents;
  /** The download centre, for list exports larger than a page (issue 21); made after this service. */
  downloads?: () => DownloadCentre;
  /** The password again under the shared secret throttle (the commands service's check). */
  confirmPassword: (auth: AuthContext, password: string | undefined) => Promise<void>;
  now?: () => number;
}) {
  const { repository, access, log } = deps;
  const now = deps.now ?? Date.now;
  const telemetry = createTelemetryQueries(deps.db);
  const energyRepository = createPlantEnergyRepository(deps.db);

  const target = (d: DeviceRecord): AccessTarget => ({ id: d.id, plantId: d.plantId, companyId: d.companyId });

  function filterOf(kind: DeviceKind, query: Omit<DeviceListQuery, 'page' | 'size' | 'sort' | 'order'>): DeviceFilter {
    return {
      families: DEVICE_KIND_INFO[kind].families,
      query,
      protocolsOfType: query.type === undefined ? undefined : (TYPE_PROTOCOLS[query.type] ?? ['-']),
    };
  }

  function toRow(d: DeviceRecord, level: PlantAccessLevel): DeviceRow {
    return {
      id: d.id,
      sn: d.sn,
      alias: d.alias,
      family: d.family,
      protocolId: d.protocolId,
      brand: d.brand,
      model: d.model,
      type: DEVICE_KIND_INFO.inverter.families.includes(d.family) ? inverterTypeCode(d.protocolId, d.values ?? undefined) : null,
      ratedPowerW: d.ratedPowerW,
      plantId: d.plantId,
      plantName: d.plantName,
      timezone: d.timezone,
      gatewaySn: d.gatewaySn,
      status: d.status,
      powerW: d.powerW,
      energyTodayWh: d.energyTodayWh,
      energyTotalWh: d.energyTotalWh,
      soc: d.soc,
      lastReportAt: d.lastReportAt?.toISOString() ?? null,
      parentId: d.parentId,
      slaveCount: d.slaveCount,
      mainMeter: d.mainMeter,
      firmwareVersion: d.firmwareVersion,
      access: level,
    };
  }

  /** The device by SN (or id) with the caller's level; 600/602 when it is not theirs, 2 when the level is short. */
  async function load(auth: AuthContext, kind: DeviceKind, by: { sn: string } | { id: number }, needed: PlantAccessLevel = 'view') {
    const device = await repository.find(by, DEVICE_KIND_INFO[kind].families);
    const level = await access.require(auth, device ? target(device) : undefined, needed, notFoundCode(kind));
    return { device: device as DeviceRecord, level };
  }

  function dayBounds(device: DeviceRecord, date: string | undefined, days: number) {
    const day = date ?? localDayOf(now(), device.timezone);
    return { day, from: localDayStart(addDays(day, 1 - days), device.timezone), to: localDayStart(addDays(day, 1), device.timezone) };
  }

  function pickPoints(device: DeviceRecord, language: Language, asked: string | undefined, section?: SectionKey) {
    const available = chartablePoints(device.protocolId, language, section);
    const ids = asked
      ? [
          ...new Set(
            asked
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          ),
        ]
      : defaultChartPoints(device.protocolId, section).filter((id) => available.some((p) => p.id === id));
    if (ids.length > DEVICE_LIMITS.chartPointsMax)
      throw validation('points', translate(language, 'devices.tooManyPoints', { max: DEVICE_LIMITS.chartPointsMax }));
    const chosen = ids.map((id) => {
      const point = available.find((p) => p.id === id);
      if (!point) throw validation('points', translate(language, 'devices.unknownPoint', { point: id }));
      return point;
    });
    if (new Set(chosen.map((p) => p.unit ?? '')).size > DEVICE_LIMITS.chartUnitsMax)
      throw validation('points', translate(language, 'devices.tooManyUnits', { max: DEVICE_LIMITS.chartUnitsMax }));
    return chosen;
  }

  /**
   * Device list exports as job kinds (issue 21): read in keyset batches by SN and streamed into the workbook,
   * so memory stays flat however large the fleet; one under way when the server stops runs again after.
   */
  let listJobs: ((kind: DeviceKind) => StartJob<CallerJob>) | undefined;
  function listExports(downloads: DownloadCentre): (kind: DeviceKind) => StartJob<CallerJob> {
    if (listJobs) return listJobs;
    const work = (kind: DeviceKind, { auth: snapshot, query }: CallerJob, language: Language): ExportJobWork => {
      const filter = filterOf(kind, DeviceListQuerySchema.parse(query));
      const auth = authFromSnapshot(snapshot, `${kind}-list`);
      const table = kind === 'battery' ? batteryTable(language) : inverterTable(language);
      return async (job) =>
        writeTableInBatches({
          file: job.file,
          format: 'xlsx',
          columns: table.columns,
          sheetName: table.sheetName,
          total: await repository.count(auth, filter),
          batchSize: LIST_EXPORT_BATCH,
          next: async (afterSn: string | null) => {
            const found = await repository.batch(auth, filter, afterSn, LIST_EXPORT_BATCH);
            const inBatch = new Map(found.map((d) => [d.id, d.sn]));
            const masters = await repository.snsOf([
              ...new Set(found.flatMap((d) => (d.parentId !== null && !inBatch.has(d.parentId) ? [d.parentId] : []))),
            ]);
            return {
              records: found.map((d) => ({
                row: toRow(d, 'view'),
                master: d.parentId === null ? null : (inBatch.get(d.parentId) ?? masters.get(d.parentId) ?? d.parentId),
              })),
              cursor: found.at(-1)?.sn ?? null,
            };
          },
          cells: ({ row, master }) => table.cells(row, () => master),
          progress: job.progress,
        });
    };
    const byKind = new Map<DeviceKind, StartJob<CallerJob>>();
    listJobs = (kind) => {
      let start = byKind.get(kind);
      if (!start) {
        start = downloads.registerJob(`${kind}-list`, parseCallerJob, (params, owner) => work(kind, params, owner.language));
        byKind.set(kind, start);
      }
      return start;
    };
    for (const kind of ['inverter', 'battery'] as const) listJobs(kind);
    return listJobs;
  }
  return {
    load,
    /** A device's protocol switch with its preview (issue 19; features/protocols/protocol-switch.ts). */
    protocolSwitch: createProtocolSwitch({ db: deps.db, registry: deps.registry, log, confirmPassword: deps.confirmPassword }),

    async list(auth: AuthContext, kind: DeviceKind, query: DeviceListQuery): Promise<DevicePage> {
      const { rows, total } = await repository.page(auth, filterOf(kind, query), query.sort, query.order, query.page, query.size);
      const levels = await access.levelsFor(auth, rows.map(target));
      return { infos: rows.map((d) => toRow(d, levels.get(d.id) ?? 'view')), total };
    },

    async counts(
      auth: AuthContext,
      kind: DeviceKind,
      query: Omit<DeviceListQuery, 'page' | 'size' | 'sort' | 'order'>,
    ): Promise<DeviceCounts> {
      const byStatus = await repository.counts(auth, filterOf(kind, query));
      const of = (s: number) => byStatus.get(s) ?? 0;
      return {
        total: [...byStatus.values()].reduce((a, b) => a + b, 0),
        normal: of(1),
        offline: of(2),
        warning: of(3),
        fault: of(4),
        upgrading: of(5),
        protect: of(6),
      };
    },

    async exportRows(auth: AuthContext, kind: DeviceKind, query: DeviceListQuery): Promise<DeviceRow[]> {
      const rows = await repository.all(auth, filterOf(kind, query), DEVICE_LIMITS.exportRowsMax);
      if (rows === 'tooMany') throw new ApiError(Code.TOO_MANY_RECORDS, { max: DEVICE_LIMITS.exportRowsMax });
      return rows.map((d) => toRow(d, 'view'));
    },

    /**
     * Registers the list exports as download-centre job kinds (once the centre exists: devices.routes.ts calls
     * it when the server is ready, before unfinished jobs are resumed).
     */
    prepareExports(): void {
      const downloads = deps.downloads?.();
      if (downloads) listExports(downloads);
    },

    /** The list export as a background job in the caller's download centre (issue 21): no 20,000-row cap. */
    async exportInBackground(auth: AuthContext, kind: DeviceKind, query: DeviceListQuery, language: Language): Promise<DownloadRecord> {
      const downloads = deps.downloads?.();
      if (!downloads) throw new Error('the download centre is not configured');
      const stamp = new Date().toISOString().slice(0, 10);
      const name = kind === 'battery' ? 'batteries' : `${kind}s`;
      // Stored as the route received it (the status list joined again), so the schema reads it back the same way.
      const stored = { ...query, status: query.status?.join(',') };
      return listExports(downloads)(kind)(
        { userId: auth.userId, companyId: auth.companyId, language },
        { fileName: `${name}-${stamp}.xlsx`, format: 'xlsx' },
        callerJob(auth, stored),
      );
    },

    async detail(auth: AuthContext, kind: DeviceKind, sn: string, language: Language): Promise<DeviceDetail> {
      const { device, level } = await load(auth, kind, { sn });
      const catalogue = catalogueOf(device.protocolId);
      return {
        device: toRow(device, level),
        firmware: device.firmwareVersion,
        sections: catalogue?.sections ?? [],
        points: chartablePoints(device.protocolId, language),
        defaultPoints: defaultChartPoints(device.protocolId),
        slaves: device.slaveCount > 0 ? await repository.slaves(device.id) : [],
        settings: device.settings,
      };
    },

    async realtime(auth: AuthContext, kind: DeviceKind, sn: string, language: Language, section?: SectionKey): Promise<DeviceRealtime> {
      const { device } = await load(auth, kind, { sn });
      return {
        ts: device.lastReportAt?.toISOString() ?? null,
        sections: device.values ? realtimeSections(device.protocolId, device.values, language, section) : [],
      };
    },

    async pvIv(auth: AuthContext, sn: string): Promise<PvIv> {
      const { device } = await load(auth, 'inverter', { sn });
      return {
        ts: device.lastReportAt?.toISOString() ?? null,
        strings: device.values ? stringInputs(device.protocolId, device.values) : [],
      };
    },

    /** The day's curves of up to 6 points (the model's main ones by default), in the device's day. */
    async day(
      auth: AuthContext,
      kind: DeviceKind,
      sn: string,
      language: Language,
      range: { date?: string; points?: string; days?: number },
      section?: SectionKey,
    ): Promise<DaySeries> {
      const { date, points } = range;
      const days = range.days ?? 1;
      const { device } = await load(auth, kind, { sn });
      const chosen = pickPoints(device, language, points, section);
      const { day, from, to } = dayBounds(device, date, days);
      const series = await Promise.all(
        chosen.map(async (p) => ({
          ...p,
          points: (
            await telemetry.deviceCurve(
              device.id,
              new Date(from),
              new Date(to),
              (storageIndex(device.protocolId, p.id) ?? 1) - 1,
              CURVE_POINTS,
            )
          ).map(([t, v]): [number, number | null] => [t, v]),
        })),
      );
      return { date: day, days, timezone: device.timezone, series };
    },

    /** Energy bars from the device's counters: days of a month, months of a year, or years. */
    async energy(
      auth: AuthContext,
      kind: DeviceKind,
      sn: string,
      language: Language,
      period: 'month' | 'year' | 'total',
      date?: string,
      section?: SectionKey,
    ): Promise<EnergyBars> {
      const { device } = await load(auth, kind, { sn });
      const counters = energyCounters(device.protocolId, language, section);
      const today = localDayOf(now(), device.timezone);
      let labels: string[];
      let fromDay: string;
      let toDay: string;
      if (period === 'month') {
        const month = date && /^\d{4}-\d{2}$/.test(date) ? date : today.slice(0, 7);
        labels = daysOfMonth(month);
        fromDay = labels[0] ?? `${month}-01`;
        toDay = labels.at(-1) ?? fromDay;
      } else if (period === 'year') {
        const year = date && /^\d{4}$/.test(date.slice(0, 4)) ? date.slice(0, 4) : today.slice(0, 4);
        labels = Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`);
        fromDay = `${year}-01-01`;
        toDay = `${year}-12-31`;
      } else {
        const first = device.lastReportAt ? Number(today.slice(0, 4)) - 4 : Number(today.slice(0, 4));
        labels = Array.from({ length: Number(today.slice(0, 4)) - first + 1 }, (_, i) => String(first + i));
        fromDay = `${first}-01-01`;
        toDay = today;
      }
      const channels = counters.map((c) => ({ deviceId: device.id, index: c.index, name: c.id, coef: 1 }));
      const { days, previous } = await energyRepository.counterDays(
        channels,
        localDayStart(fromDay, device.timezone),
        localDayStart(addDays(toDay > today ? today : toDay, 1), device.timezone),
        device.timezone,
      );
      const bucketOf = (day: string) => (period === 'month' ? day : period === 'year' ? day.slice(0, 7) : day.slice(0, 4));
      // The generation counter's days are the energy rollup (the figures the plant adds up); other counters
      // are read from their averaged and raw values.
      const rollupIndex = roleIndex(device.protocolId, 'energy_total');
      const rollup = counters.some((c) => c.index === rollupIndex)
        ? await telemetry.deviceDailyEnergy(device.id, fromDay, toDay > today ? today : toDay)
        : [];
      const series = counters.map((c) => {
        const perDay =
          c.index === rollupIndex
            ? rollup
            : counterDayEnergy(
                days.filter((d) => d.name === c.id).map((d) => ({ day: d.day, minWh: d.min, maxWh: d.max })),
                previous.find((p) => p.name === c.id)?.prev ?? null,
              );
        const sums = new Map<string, number>();
        for (const e of perDay) sums.set(bucketOf(e.day), (sums.get(bucketOf(e.day)) ?? 0) + e.energyWh);
        return { key: c.id, label: c.label, values: labels.map((l) => (sums.has(l) ? Math.round(sums.get(l) ?? 0) : null)) };
      });
      // Total: leave out the leading years with no data at all.
      if (period === 'total') {
        const firstWithData = labels.findIndex((_, i) => series.some((s) => s.values[i] !== null));
        const start = firstWithData < 0 ? labels.length - 1 : firstWithData;
        return { period, date: null, labels: labels.slice(start), series: series.map((s) => ({ ...s, values: s.values.slice(start) })) };
      }
      return { period, date: period === 'month' ? fromDay.slice(0, 7) : fromDay.slice(0, 4), labels, series };
    },

    /** Parameters of an inverter: nameplate, rating, protocol and its writable points' current values. */
    async params(auth: AuthContext, sn: string, language: Language) {
      const { device } = await load(auth, 'inverter', { sn });
      return {
        sn: device.sn,
        brand: device.brand,
        model: device.model,
        protocolId: device.protocolId,
        ratedPowerW: device.ratedPowerW,
        type: inverterTypeCode(device.protocolId, device.values ?? undefined),
        gatewaySn: device.gatewaySn,
        values: writableParams(device.protocolId, device.values, language),
      };
    },

    async setAlias(auth: AuthContext, kind: DeviceKind, id: number, alias: string, language: Language): Promise<void> {
      const trimmed = alias.trim();
      if (trimmed !== '' && !isDeviceAlias(trimmed)) throw validation('alias', translate(language, 'devices.aliasInvalid'));
      const { device } = await load(auth, kind, { id }, 'operate');
      await repository.setAlias(id, trimmed === '' ? null : trimmed);
      await log.record(auth, {
        action: `${kind}.alias`,
        targetType: 'device',
        target: device.sn,
        plantId: device.plantId,
        request: { alias: trimmed },
        result: 'ok',
      });
    },

    /**
     * Deletes what the caller manages and lists the rest (spec 02 §6); a battery master takes its slave
     * packs with it (the console lists them in the confirmation first).
     */
    async remove(auth: AuthContext, kind: DeviceKind, ids: readonly number[]): Promise<DeleteResult> {
      const devices = await repository.findMany(ids, DEVICE_KIND_INFO[kind].families);
      const levels = await access.levelsFor(auth, devices.map(target));
      const refused: DeleteResult['refused'] = [];
      const allowed: DeviceRecord[] = [];
      for (const id of ids) {
        const device = devices.find((d) => d.id === id);
        const level = device ? levels.get(device.id) : undefined;
        // Another tenant's device is named by the id asked, never by its SN.
        if (!device || !level) refused.push({ sn: String(id), reason: 'notFound' });
        else if (rankOf(level) < rankOf('manage')) refused.push({ sn: device.sn, reason: 'noPermission' });
        else allowed.push(device);
      }
      const slaves = (await Promise.all(allowed.filter((d) => d.slaveCount > 0).map((d) => repository.slaves(d.id))))
        .flat()
        .map((s) => s.sn);
      const gone = await repository.remove(allowed.map((d) => d.id));
      if (gone.length > 0) await deps.registry.changed();
      await log.record(auth, [
        ...allowed.map((d) => ({
          action: `${kind}.delete`,
          targetType: 'device' as const,
          target: d.sn,
          plantId: d.plantId,
          result: 'ok' as const,
        })),
        ...refused.map((r) => ({
          action: `${kind}.delete`,
          targetType: 'device' as const,
          target: r.sn,
          result: 'refused' as const,
          detail: r.reason,
        })),
      ]);
      return { deleted: gone.filter((sn) => !slaves.includes(sn)), refused, slavesDeleted: slaves };
    },

    async setMainMeter(auth: AuthContext, id: number, main: boolean, language: Language): Promise<void> {
      const { device } = await load(auth, 'meter', { id }, 'manage');
      if (device.plantId === null) throw validation('id', translate(language, 'devices.meterWithoutPlant'));
      await repository.setMainMeter(id, device.plantId, main);
      await log.record(auth, {
        action: main ? 'meter.setMain' : 'meter.unsetMain',
        targetType: 'device',
        target: device.sn,
        plantId: device.plantId,
        result: 'ok',
      });
    },

    async meterSettings(auth: AuthContext, sn: string): Promise<MeterSettings> {
      const { device } = await load(auth, 'meter', { sn });
      return meterSettingsOf(device.settings);
    },

    async saveMeterSettings(auth: AuthContext, id: number, settings: MeterSettings): Promise<void> {
      const { device } = await load(auth, 'meter', { id }, 'manage');
      await repository.saveSettings(id, { ...device.settings, meter: settings });
      await log.record(auth, {
        action: 'meter.settings',
        targetType: 'device',
        target: device.sn,
        plantId: device.plantId,
        request: settings,
        result: 'ok',
      });
    },

    /** Operation data records: a device's stored readings in a time range, one column per point. */
    async workdata(
      auth: AuthContext,
      sn: string,
      language: Language,
      range: { from?: string; to?: string; page: number; size: number },
    ): Promise<WorkdataPage> {
      const families = Object.values(DEVICE_KIND_INFO).flatMap((k) => k.families);
      const device = await repository.find({ sn }, families);
      await access.require(auth, device ? target(device) : undefined, 'view', Code.DEVICE_NOT_FOUND);
      const d = device as DeviceRecord;
      const to = range.to ? new Date(range.to) : new Date(now());
      const from = range.from ? new Date(range.from) : new Date(to.getTime() - 86_400_000);
      if (from >= to) throw validation('from', translate(language, 'devices.rangeInvalid'));
      const catalogue = catalogueOf(d.protocolId);
      const columns = (catalogue?.visible ?? []).filter((v) => v.point.type !== 'string');
      const { rows, total } = await repository.readings(d.id, from, to, range.page, range.size);
      return {
        columns: columns.map((v) => ({
          id: v.point.id,
          label: localised(v.point.label, language),
          unit: v.point.unit ?? null,
        })),
        infos: rows.map((r) => ({
          ts: r.ts.toISOString(),
          values: columns.map((c) => {
            const v = r.values[c.index];
            return v === undefined || !Number.isFinite(v) ? null : v;
          }),
        })),
        total,
      };
    },
  };
}

export function meterSettingsOf(settings: Record<string, unknown> | null): MeterSettings {
  const stored = (settings?.meter ?? null) as Partial<MeterSettings> | null;
  return {
    ctRatio: stored?.ctRatio ?? null,
    ptRatio: stored?.ptRatio ?? null,
    buyOffsetKwh: stored?.buyOffsetKwh ?? null,
    sellOffsetKwh: stored?.sellOffsetKwh ?? null,
    prices: {
      tip: stored?.prices?.tip ?? null,
      peak: stored?.prices?.peak ?? null,
      flat: stored?.prices?.flat ?? null,
      valley: stored?.prices?.valley ?? null,
    },
    discount: stored?.discount ?? null,
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
