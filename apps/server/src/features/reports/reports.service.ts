import { Code } from '@sunward/contracts/codes';
import { type EnergyBars as DeviceEnergyBarsAnswer, type DeviceKind, kindOfFamily } from '@sunward/contracts/devices';
import type { DownloadRecord } from '@sunward/contracts/files';
import type { Language } from '@sunward/contracts/languages';
import { addDays, localDayOf, localDayStart, selfConsumptionRate } from '@sunward/contracts/plant-energy';
import { performanceRatio, specificYield } from '@sunward/contracts/plants';
import { reportText } from '@sunward/contracts/report-texts';
import {
  type DeviceReport,
  type DeviceReportQuery,
  REPORT_DEFAULT_PARAMETERS,
  REPORT_MAX_EVENTS,
  REPORT_MAX_PARAMETERS,
  REPORT_MAX_UNITS,
  REPORT_STORAGE_PARAMETERS,
  type Report,
  type ReportBar,
  type ReportConfig,
  type ReportConfigInput,
  type ReportDeviceOption,
  type ReportFigures,
  type ReportParameter,
  type ReportPeriod,
  type ReportPlantRow,
  type ReportQuery,
  type ReportSchedule,
  type ReportScheduleInput,
  type ReportScheduleUpdate,
} from '@sunward/contracts/reports';
import { roleIndex } from '@sunward/protocol/positions';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { eventText } from '../events/event-text.js';
import type { PlantAccess } from '../plants/plant-access.js';
import type { PlantEnergyService } from '../plants/plant-energy.service.js';
import type { PlantBounds, ReportsRepository } from './reports.repository.js';

const FIVE_MINUTES_S = 300;
const HOUR_S = 3600;

/** What the report needs of the caller: who, in which tenant (the same fields a schedule's owner has). */
export type ReportCaller = Pick<AuthContext, 'userId' | 'roleKey' | 'companyId'>;

/** The plant ids a report covers and the name it goes by. */
interface Target {
  title: 'title.plant' | 'title.plants' | 'title.customer';
  name: string;
  plantIds: number[];
}

type Figures = Awaited<ReturnType<PlantEnergyService['reportFigures']>>;

/** Plants computed at once: each plant's figures are a handful of rollup reads. */
const PLANT_CONCURRENCY = 8;

async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      for (;;) {
        const i = next++;
        const item = items[i];
        if (i >= items.length || item === undefined) return;
        out[i] = await work(item);
      }
    }),
  );
  return out;
}

const addNullable = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));

/** The current day, month or year in a zone, as a report's date. */
export function currentPeriodDate(period: ReportPeriod, nowMs: number, timezone: string): string {
  const today = localDayOf(nowMs, timezone);
  return period === 'day' ? today : period === 'month' ? today.slice(0, 7) : today.slice(0, 4);
}

/** The first and last day of a day, a month (YYYY-MM) or a year (YYYY). */
export function periodDays(period: ReportPeriod, date: string): { fromDay: string; lastDay: string } {
  if (period === 'day') return { fromDay: date, lastDay: date };
  if (period === 'year') return { fromDay: `${date}-01-01`, lastDay: `${date}-12-31` };
  // The day before the 1st of the next month (31 days after the 1st is always in the next month).
  return { fromDay: `${date}-01`, lastDay: addDays(`${addDays(`${date}-01`, 31).slice(0, 7)}-01`, -1) };
}

/** The previous full week (Monday…Sunday) or month before a day: what a schedule reports on. */
export function previousPeriod(
  frequency: 'weekly' | 'monthly',
  today: string,
): { period: 'day' | 'month'; date: string; from: string; to: string } {
  if (frequency === 'monthly') {
    const firstOfMonth = `${today.slice(0, 7)}-01`;
    const last = addDays(firstOfMonth, -1);
    return { period: 'month', date: last.slice(0, 7), from: `${last.slice(0, 7)}-01`, to: last };
  }
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  const monday = addDays(today, -weekday - 7);
  return { period: 'day', date: monday, from: monday, to: addDays(monday, 6) };
}

/** When a schedule runs next: the 1st of the next month, or next Monday, at 06:00 UTC. */
export function nextRunAfter(frequency: 'weekly' | 'monthly', nowMs: number): Date {
  const now = new Date(nowMs);
  if (frequency === 'monthly') return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 6));
  const weekday = (now.getUTCDay() + 6) % 7;
  const monday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - weekday + 7, 6);
  return new Date(monday);
}

export interface ReportFile {
  bytes: Buffer;
  fileName: string;
  format: 'pdf' | 'xlsx';
}

export interface ReportRenderer {
  pdf(report: Report, language: Language, brand: Brand): Promise<Buffer>;
  xlsx(report: Report, language: Language): Promise<Buffer>;
  devicePdf(report: DeviceReport, language: Language, brand: Brand): Promise<Buffer>;
  deviceXlsx(report: DeviceReport, language: Language): Promise<Buffer>;
}

/** The device detail page's energy bars (devices service `energy`), so a device report shows its figures. */
export type DeviceEnergyBars = (
  caller: AuthContext,
  kind: DeviceKind,
  sn: string,
  language: Language,
  period: 'month' | 'year',
  date: string,
) => Promise<DeviceEnergyBarsAnswer>;

/** Mean power of one device point per bucket, from the 5-minute or hourly rollup (the overview's series). */
export type DevicePowerSeries = (
  deviceId: number,
  index: number,
  fromMs: number,
  toMs: number,
  bucketSeconds: number,
) => Promise<{ t: number; v: number }[]>;

export interface Brand {
  name: string | null;
  color: string;
  logo: { bytes: Buffer; mime: string } | undefined;
}

export interface ReportsDeps {
  repository: ReportsRepository;
  plantAccess: PlantAccess;
  energy: Pick<PlantEnergyService, 'reportFigures'>;
  renderer: ReportRenderer;
  /** The company logo's bytes from its URL (the company feature's store). */
  readLogo: (url: string) => Promise<{ bytes: Buffer; mime: string } | undefined>;
  /** The mailer's outbox: recorded, sent, retried with backoff (notifications). */
  mail: {
    sendNow(delivery: {
      userId: number | null;
      to: string;
      kind: 'report';
      subject: string;
      text: string;
      attachmentPath: string;
      attachmentName: string;
    }): Promise<number | undefined>;
  };
  downloads: {
    runExportJob(
      owner: { userId: number; companyId: number | null; language: Language },
      meta: { kind: string; fileName: string; format: 'pdf' | 'xlsx' },
      work: (ctx: { file: string; progress(done: number, total: number): void }) => Promise<{ rows: number | null }>,
    ): Promise<DownloadRecord>;
  };
  /** The device report's energy (the device page's bars) and power (rollups). */
  deviceEnergy?: DeviceEnergyBars;
  devicePower?: DevicePowerSeries;
  /** Where scheduled reports' files wait for their e-mail (DATA_DIR/reports). */
  saveAttachment: (name: string, bytes: Buffer) => Promise<string>;
  /** That folder, swept by `sweepAttachments`; and how long a file may wait at most (DOWNLOAD_RETENTION_DAYS). */
  attachmentDir?: string;
  retentionDays?: number;
  now?: () => number;
}

export function createReportsService(deps: ReportsDeps) {
  const { repository, plantAccess, energy, renderer } = deps;
  const now = deps.now ?? Date.now;

  async function target(caller: ReportCaller, query: ReportQuery): Promise<Target> {
    const auth = caller as AuthContext;
    if (query.scope === 'plant') {
      const id = query.plantId ?? 0;
      await plantAccess.require(auth, id, 'view');
      return { title: 'title.plant', name: '', plantIds: [id] };
    }
    if (query.scope === 'plants') {
      const ids = [...new Set(query.plantIds ?? [])];
      const levels = await plantAccess.levels(auth, ids);
      // One plant of another tenant refuses the whole set, as if it did not exist.
      if (ids.some((id) => !levels.has(id))) throw new ApiError(Code.PLANT_NOT_FOUND);
      return { title: 'title.plants', name: '', plantIds: ids };
    }
    const customer = await repository.customerPlants(query.customerId ?? 0, caller.roleKey === 'platform_admin' ? null : caller.companyId);
    if (!customer || (caller.companyId === null && caller.roleKey !== 'platform_admin')) throw new ApiError(Code.REPORT_CUSTOMER_NOT_FOUND);
    const levels = await plantAccess.levels(auth, customer.plantIds);
    return { title: 'title.customer', name: customer.name, plantIds: customer.plantIds.filter((id) => levels.has(id)) };
  }

  async function configFor(
    caller: ReportCaller,
    configId: number | undefined,
    plantIds: readonly number[],
  ): Promise<ReportConfig | undefined> {
    if (configId === undefined) return undefined;
    const config = await repository.config(configId);
    if (!config || !plantIds.includes(config.plantId)) throw new ApiError(Code.REPORT_CONFIG_NOT_FOUND);
    await plantAccess.require(caller as AuthContext, config.plantId, 'view');
    return config;
  }

  function figuresOf(
    f: Figures,
    availability: number | null,
  ): { row: ReportFigures; meteredGenerationWh: number; prDenominator: number | null } {
    const t = f.total;
    const gen = t.generationWh;
    const cap = f.plant.capacityKwp;
    return {
      row: {
        generationWh: gen,
        consumptionWh: t.loadWh,
        feedInWh: t.exportWh,
        purchaseWh: t.fromGridWh,
        selfConsumptionWh: t.selfUseWh,
        selfConsumptionRate: selfConsumptionRate(gen, t.exportWh),
        specificYield: specificYield(gen / 1000, cap),
        performanceRatio: f.irradiationKwhPerM2 === null ? null : performanceRatio(gen / 1000, cap, f.irradiationKwhPerM2),
        income: f.income,
        availability,
        capacityKwp: cap,
        chargeWh: f.battery?.chargeWh ?? null,
        dischargeWh: f.battery?.dischargeWh ?? null,
      },
      meteredGenerationWh: t.exportWh === null ? 0 : gen,
      prDenominator: f.irradiationKwhPerM2 === null || f.irradiationKwhPerM2 <= 0 ? null : cap * f.irradiationKwhPerM2,
    };
  }

  /**
   * A week's figures of one plant: the seven days' figures added up column by column (energy, income and
   * irradiation), one bar per day. PR and availability are then computed from these sums like a month's.
   */
  async function weekFigures(plantId: number, monday: string): Promise<Figures> {
    const days = await Promise.all(Array.from({ length: 7 }, (_, i) => energy.reportFigures(plantId, 'day', addDays(monday, i))));
    const [head] = days;
    if (!head) throw new Error('no days');
    const sum = (pick: (f: Figures) => number | null) => days.reduce<number | null>((s, f) => addNullable(s, pick(f)), null);
    const total = {
      generationWh: sum((f) => f.total.generationWh) ?? 0,
      selfUseWh: sum((f) => f.total.selfUseWh),
      exportWh: sum((f) => f.total.exportWh),
      loadWh: sum((f) => f.total.loadWh),
      fromPvWh: sum((f) => f.total.fromPvWh),
      fromBatteryWh: sum((f) => f.total.fromBatteryWh),
      fromGridWh: sum((f) => f.total.fromGridWh),
    };
    const battery =
      head.battery === null
        ? null
        : { chargeWh: sum((f) => f.battery?.chargeWh ?? null) ?? 0, dischargeWh: sum((f) => f.battery?.dischargeWh ?? null) ?? 0 };
    return {
      ...head,
      fromDay: monday,
      toDay: addDays(monday, 6),
      bars: days.map((f) => ({ key: f.fromDay, split: f.total, battery: f.battery })),
      total,
      battery,
      income: sum((f) => f.income),
      irradiationKwhPerM2: sum((f) => f.irradiationKwhPerM2),
    };
  }

  async function build(caller: ReportCaller, query: ReportQuery, language: Language, week?: string): Promise<Report> {
    const t = await target(caller, query);
    const config = await configFor(caller, query.configId, t.plantIds);
    const nowMs = now();
    const firstZone = t.plantIds[0] === undefined ? undefined : (await repository.plantInfo(t.plantIds[0]))?.timezone;
    const date = week ?? query.date ?? currentPeriodDate(query.period, nowMs, firstZone ?? 'UTC');
    const figures = await mapLimit(t.plantIds, PLANT_CONCURRENCY, (id) =>
      week === undefined ? energy.reportFigures(id, query.period, date) : weekFigures(id, week),
    );
    const bounds: PlantBounds[] = figures.map((f) => ({
      plantId: f.plant.id,
      fromDay: f.fromDay,
      toDay: f.toDay,
      fromMs: localDayStart(f.fromDay, f.plant.timezone),
      toMs: localDayStart(addDays(f.toDay, 1), f.plant.timezone),
    }));
    const [devices, deviceEnergy, eventTimes, events] = await Promise.all([
      repository.devices(t.plantIds),
      repository.deviceEnergy(bounds),
      repository.deviceEventTimes(bounds, nowMs),
      repository.events(bounds, nowMs, REPORT_MAX_EVENTS),
    ]);
    const timesOf = new Map(eventTimes.map((e) => [e.deviceId, e]));
    const names = new Map(figures.map((f) => [f.plant.id, f.plant.name]));

    // Availability: the generating devices' time without a fault event, over the period's elapsed part.
    const availabilityOf = (plantId: number, b: PlantBounds | undefined) => {
      const generating = devices.filter((d) => d.plantId === plantId && deviceEnergy.has(d.id));
      const elapsed = b ? Math.max(0, Math.min(b.toMs, nowMs) - b.fromMs) / 1000 : 0;
      if (generating.length === 0 || elapsed <= 0) return { value: null, fault: 0, total: 0 };
      const fault = generating.reduce((s, d) => s + Math.min(elapsed, timesOf.get(d.id)?.faultSeconds ?? 0), 0);
      const total = generating.length * elapsed;
      return { value: 1 - fault / total, fault, total };
    };

    const plants: ReportPlantRow[] = [];
    const barMap = new Map<string, ReportBar>();
    let totals: ReportFigures = {
      generationWh: 0,
      consumptionWh: null,
      feedInWh: null,
      purchaseWh: null,
      selfConsumptionWh: null,
      selfConsumptionRate: null,
      specificYield: null,
      performanceRatio: null,
      income: null,
      availability: null,
      capacityKwp: 0,
      chargeWh: null,
      dischargeWh: null,
    };
    let metered = 0;
    let prEnergy = 0;
    let prDenominator = 0;
    let faultSeconds = 0;
    let deviceSeconds = 0;
    const currencies = new Set<string>();
    figures.forEach((f, i) => {
      const a = availabilityOf(f.plant.id, bounds[i]);
      faultSeconds += a.fault;
      deviceSeconds += a.total;
      const { row, meteredGenerationWh, prDenominator: pr } = figuresOf(f, a.value);
      plants.push({ id: f.plant.id, name: f.plant.name, timezone: f.plant.timezone, currency: f.currency, figures: row });
      if (f.currency && f.income !== null) currencies.add(f.currency);
      metered += meteredGenerationWh;
      if (pr !== null) {
        prEnergy += row.generationWh / 1000;
        prDenominator += pr;
      }
      totals = {
        ...totals,
        generationWh: totals.generationWh + row.generationWh,
        consumptionWh: addNullable(totals.consumptionWh, row.consumptionWh),
        feedInWh: addNullable(totals.feedInWh, row.feedInWh),
        purchaseWh: addNullable(totals.purchaseWh, row.purchaseWh),
        selfConsumptionWh: addNullable(totals.selfConsumptionWh, row.selfConsumptionWh),
        income: addNullable(totals.income, row.income),
        capacityKwp: totals.capacityKwp + row.capacityKwp,
        chargeWh: addNullable(totals.chargeWh, row.chargeWh),
        dischargeWh: addNullable(totals.dischargeWh, row.dischargeWh),
      };
      for (const { key, split, battery } of f.bars) {
        const bar = barMap.get(key) ?? {
          key,
          generationWh: null,
          consumptionWh: null,
          feedInWh: null,
          purchaseWh: null,
          chargeWh: null,
          dischargeWh: null,
        };
        bar.generationWh = addNullable(bar.generationWh, split.generationWh);
        bar.consumptionWh = addNullable(bar.consumptionWh, split.loadWh);
        bar.feedInWh = addNullable(bar.feedInWh, split.exportWh);
        bar.purchaseWh = addNullable(bar.purchaseWh, split.fromGridWh);
        bar.chargeWh = addNullable(bar.chargeWh, battery?.chargeWh ?? null);
        bar.dischargeWh = addNullable(bar.dischargeWh, battery?.dischargeWh ?? null);
        barMap.set(key, bar);
      }
    });
    const currency = currencies.size === 1 ? ([...currencies][0] ?? null) : null;
    // The default figures, plus the batteries' charge and discharge where a plant has storage.
    const parameters: ReportParameter[] = config
      ? config.parameters
      : [...REPORT_DEFAULT_PARAMETERS, ...(totals.chargeWh === null ? [] : REPORT_STORAGE_PARAMETERS)];
    totals = {
      ...totals,
      selfConsumptionRate: totals.feedInWh === null ? null : selfConsumptionRate(metered, totals.feedInWh),
      specificYield: specificYield(totals.generationWh / 1000, totals.capacityKwp),
      performanceRatio: prDenominator > 0 ? prEnergy / prDenominator : null,
      // Income of plants in different currencies does not add up.
      income: currencies.size > 1 ? null : totals.income,
      availability: deviceSeconds > 0 ? 1 - faultSeconds / deviceSeconds : null,
    };

    const units = config && config.units.length > 0 ? new Set(config.units) : undefined;
    const deviceRows = devices
      .filter((d) => !units || units.has(d.id))
      .map((d) => {
        const energyWh = deviceEnergy.get(d.id) ?? null;
        const times = timesOf.get(d.id);
        return {
          plantId: d.plantId,
          plantName: names.get(d.plantId) ?? '',
          id: d.id,
          sn: d.sn,
          alias: d.alias,
          family: d.family,
          model: d.model,
          ratedPowerW: d.ratedPowerW,
          energyWh,
          specificYield: energyWh === null || !d.ratedPowerW ? null : specificYield(energyWh / 1000, d.ratedPowerW / 1000),
          events: times?.events ?? 0,
          faultSeconds: times?.faultSeconds ?? 0,
        };
      });
    const first = figures[0];
    const name = t.name || (figures.length === 1 && first ? first.plant.name : `${figures.length}`);
    const empty =
      totals.generationWh === 0 &&
      (totals.consumptionWh ?? 0) === 0 &&
      (totals.feedInWh ?? 0) === 0 &&
      (totals.purchaseWh ?? 0) === 0 &&
      events.total === 0 &&
      deviceEnergy.size === 0;
    return {
      scope: query.scope,
      period: query.period,
      date,
      from: first?.fromDay ?? date,
      to: first?.toDay ?? date,
      title: `${reportText(language, t.title)}: ${name}`,
      generatedAt: new Date(nowMs).toISOString(),
      empty,
      parameters,
      currency,
      totals,
      bars: [...barMap.values()].sort((a, b) => a.key.localeCompare(b.key)),
      plants,
      devices: deviceRows,
      events: events.rows.map((e) => ({
        plantName: names.get(e.plantId) ?? '',
        sn: e.sn,
        code: e.code,
        level: e.level,
        description: eventText(e.protocolId, e.code, language).description ?? '',
        openedAt: e.openedAt,
        clearedAt: e.clearedAt,
        durationSeconds: e.durationSeconds,
      })),
      eventsTotal: events.total,
    };
  }

  function fileNameOf(report: Pick<Report, 'title' | 'date'>, format: 'pdf' | 'xlsx'): string {
    const base = report.title
      .replace(/[\\/:*?"<>|]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 80);
    return `${base} ${report.date}.${format}`;
  }

  async function brandOf(companyId: number | null): Promise<Brand> {
    const company = await repository.brand(companyId);
    const logo = company?.logoUrl ? await deps.readLogo(company.logoUrl) : undefined;
    return { name: company?.name ?? null, color: company?.themeColor ?? '#E6002D', logo };
  }

  async function render(report: Report, format: 'pdf' | 'xlsx', language: Language, companyId: number | null): Promise<ReportFile> {
    const bytes = format === 'pdf' ? await renderer.pdf(report, language, await brandOf(companyId)) : await renderer.xlsx(report, language);
    return { bytes, fileName: fileNameOf(report, format), format };
  }

  function checkSelection(parameters: readonly string[], units: readonly number[]) {
    if (parameters.length > REPORT_MAX_PARAMETERS) throw new ApiError(Code.REPORT_TOO_MANY_PARAMETERS, { max: REPORT_MAX_PARAMETERS });
    if (units.length > REPORT_MAX_UNITS) throw new ApiError(Code.REPORT_TOO_MANY_UNITS, { max: REPORT_MAX_UNITS });
  }

  /** Builds and mails one schedule's report to each recipient in their language; false when it was disabled instead. */
  async function runSchedule(schedule: ReportSchedule & { ownerId: number }): Promise<{ sends: number; disabled: boolean }> {
    const owner = await repository.owner(schedule.ownerId);
    const disable = async (reason: string) => {
      await repository.setSchedule(schedule.id, { enabled: false, disabledReason: reason });
      return { sends: 0, disabled: true };
    };
    if (schedule.scope === 'plant' && schedule.plantId === null) return disable('plant_deleted');
    if (schedule.scope === 'customer' && schedule.customerId === null) return disable('customer_deleted');
    if (!owner) return disable('no_access');
    const caller: ReportCaller = { userId: owner.userId, roleKey: owner.roleKey, companyId: owner.companyId };
    const query: ReportQuery =
      schedule.scope === 'plant'
        ? { scope: 'plant', plantId: schedule.plantId ?? 0, period: 'month' }
        : { scope: 'customer', customerId: schedule.customerId ?? 0, period: 'month' };
    // The period before today in the target's first plant's zone.
    let zone = 'UTC';
    try {
      const t = await target(caller, query);
      const first = t.plantIds[0];
      if (first !== undefined) zone = (await repository.plantInfo(first))?.timezone ?? zone;
    } catch (error) {
      if (error instanceof ApiError) return disable('no_access');
      throw error;
    }
    const previous = previousPeriod(schedule.frequency, localDayOf(now(), zone));
    let sends = 0;
    for (const recipient of schedule.recipients) {
      const language = recipient.language;
      try {
        const report =
          schedule.frequency === 'monthly'
            ? await build(caller, { ...query, period: 'month', date: previous.date, configId: schedule.configId ?? undefined }, language)
            : await weekReport(caller, query, previous.from, language, schedule.configId ?? undefined);
        const file = await render(report, schedule.format, language, owner.companyId);
        const path = await deps.saveAttachment(`${schedule.id}-${Date.now()}-${sends}.${schedule.format}`, file.bytes);
        const periodLabel = schedule.frequency === 'monthly' ? previous.date : `${previous.from} – ${previous.to}`;
        const name = report.title.split(': ').slice(1).join(': ') || report.title;
        const deliveryId = await deps.mail.sendNow({
          userId: null,
          to: recipient.email,
          kind: 'report',
          subject: reportText(language, 'mail.subject', {
            title: reportText(language, schedule.scope === 'plant' ? 'title.plant' : 'title.customer'),
            name,
            period: periodLabel,
          }),
          text: `${reportText(language, 'mail.body', {
            frequency: reportText(language, schedule.frequency === 'weekly' ? 'mail.weekly' : 'mail.monthly'),
            name,
            period: periodLabel,
          })}\n\n${report.empty ? `${reportText(language, 'empty')}\n\n` : ''}-- \n${reportText(language, 'mail.footer')}\n`,
          attachmentPath: path,
          attachmentName: file.fileName,
        });
        await repository.addSend({
          scheduleId: schedule.id,
          period: periodLabel,
          recipient: recipient.email,
          language,
          deliveryId: deliveryId ?? null,
        });
      } catch (error) {
        await repository.addSend({
          scheduleId: schedule.id,
          period: schedule.frequency === 'monthly' ? previous.date : previous.from,
          recipient: recipient.email,
          language,
          error: error instanceof Error ? error.message.slice(0, 300) : String(error),
        });
      }
      sends++;
    }
    await repository.setSchedule(schedule.id, { lastRunAt: new Date(now()) });
    return { sends, disabled: false };
  }

  /**
   * A week (Monday…Sunday): every plant's columns are the seven days' sums, PR is energy-weighted
   * (Σ generation / Σ capacity × irradiation) and availability is device time over the week, as for a month.
   */
  function weekReport(caller: ReportCaller, query: ReportQuery, monday: string, language: Language, configId: number | undefined) {
    return build(caller, { ...query, period: 'day', date: monday, configId }, language, monday);
  }

  /**
   * A device's day, month or year: its energy counters are the device detail page's bars for the same period
   * (summed; a day is its entry in the month's bars), peak power and running hours come from the power
   * rollups (5-minute means for a day or a month, hourly for a year), availability from its fault events.
   */
  async function buildDevice(caller: ReportCaller, query: DeviceReportQuery, language: Language): Promise<DeviceReport> {
    const device = await repository.device(query.deviceId);
    const kind = device ? kindOfFamily(device.family) : undefined;
    if (!device || !kind) throw new ApiError(Code.DEVICE_NOT_FOUND);
    await plantAccess.require(caller as AuthContext, device.plantId, 'view').catch(() => {
      throw new ApiError(Code.DEVICE_NOT_FOUND);
    });
    const nowMs = now();
    const date = query.date ?? currentPeriodDate(query.period, nowMs, device.timezone);
    const { fromDay, lastDay } = periodDays(query.period, date);
    const bounds: PlantBounds = {
      plantId: device.plantId,
      fromDay,
      toDay: lastDay,
      fromMs: localDayStart(fromDay, device.timezone),
      toMs: localDayStart(addDays(lastDay, 1), device.timezone),
    };
    const barsPeriod = query.period === 'year' ? 'year' : 'month';
    const powerIndex = roleIndex(device.protocolId, 'power');
    const untilMs = Math.min(bounds.toMs, nowMs);
    const power = (bucket: number) =>
      powerIndex === undefined || !deps.devicePower || untilMs <= bounds.fromMs
        ? Promise.resolve(null)
        : deps.devicePower(device.id, powerIndex, bounds.fromMs, untilMs, bucket);
    const [bars, peakSeries, hourly, times, events] = await Promise.all([
      deps.deviceEnergy
        ? deps.deviceEnergy(
            caller as AuthContext,
            kind,
            device.sn,
            language,
            barsPeriod,
            barsPeriod === 'year' ? date.slice(0, 4) : date.slice(0, 7),
          )
        : Promise.resolve(undefined),
      power(query.period === 'year' ? HOUR_S : FIVE_MINUTES_S),
      power(HOUR_S),
      repository.deviceEventTimes([bounds], nowMs, device.id),
      repository.events([bounds], nowMs, REPORT_MAX_EVENTS, device.id),
    ]);
    // A day is its own entry of the month's bars; a month or a year all of them.
    const pick = (labels: readonly string[]) =>
      query.period === 'day' ? labels.flatMap((l, i) => (l === date ? [i] : [])) : labels.map((_, i) => i);
    const indexes = bars ? pick(bars.labels) : [];
    const counters = (bars?.series ?? []).map((s) => {
      const values = indexes.map((i) => s.values[i] ?? null);
      return {
        key: s.key,
        label: s.label,
        energyWh: values.every((v) => v === null) ? null : values.reduce<number>((a, v) => a + (v ?? 0), 0),
      };
    });
    const peak = (peakSeries ?? []).reduce<{ t: number; v: number } | null>(
      (best, p) => (best === null || Math.abs(p.v) > Math.abs(best.v) ? { t: p.t, v: p.v } : best),
      null,
    );
    const elapsed = Math.max(0, untilMs - bounds.fromMs) / 1000;
    const faultSeconds = Math.min(elapsed, times[0]?.faultSeconds ?? 0);
    const name = device.alias ?? device.sn;
    return {
      period: query.period,
      date,
      from: fromDay,
      to: lastDay,
      title: `${reportText(language, 'title.device')}: ${name}${device.alias ? ` (${device.sn})` : ''}`,
      generatedAt: new Date(nowMs).toISOString(),
      empty: counters.every((c) => c.energyWh === null) && (peakSeries ?? []).length === 0,
      device: {
        id: device.id,
        sn: device.sn,
        alias: device.alias,
        family: device.family,
        model: device.model,
        ratedPowerW: device.ratedPowerW,
        plantId: device.plantId,
        plantName: device.plantName,
        timezone: device.timezone,
      },
      counters,
      bars: {
        labels: query.period === 'day' ? [date] : (bars?.labels ?? []),
        series: (bars?.series ?? []).map((s) => ({ key: s.key, values: indexes.map((i) => s.values[i] ?? null) })),
      },
      peakPowerW: peak === null ? null : Math.round(Math.abs(peak.v)),
      peakAt: peak === null ? null : new Date(peak.t).toISOString(),
      runningHours: hourly === null ? null : hourly.filter((p) => Math.abs(p.v) > 0).length,
      availability: elapsed > 0 ? 1 - faultSeconds / elapsed : null,
      faultSeconds,
      events: events.rows.map((e) => ({
        plantName: device.plantName,
        sn: e.sn,
        code: e.code,
        level: e.level,
        description: eventText(e.protocolId, e.code, language).description ?? '',
        openedAt: e.openedAt,
        clearedAt: e.clearedAt,
        durationSeconds: e.durationSeconds,
      })),
      eventsTotal: events.total,
    };
  }

  return {
    build,
    weekReport,
    render,
    buildDevice,

    /** The devices of a plant the caller sees, for the device report's picker. */
    async deviceOptions(caller: ReportCaller, plantId: number): Promise<ReportDeviceOption[]> {
      await plantAccess.require(caller as AuthContext, plantId, 'view');
      return (await repository.devices([plantId])).map(({ id, sn, alias, family, model }) => ({ id, sn, alias, family, model }));
    },

    /** A device report as PDF or .xlsx, in the caller's language and company look. */
    async deviceFile(caller: ReportCaller, query: DeviceReportQuery, language: Language, format: 'pdf' | 'xlsx'): Promise<ReportFile> {
      const report = await buildDevice(caller, query, language);
      const bytes =
        format === 'pdf'
          ? await renderer.devicePdf(report, language, await brandOf(caller.companyId))
          : await renderer.deviceXlsx(report, language);
      return { bytes, fileName: fileNameOf(report, format), format };
    },

    async file(caller: ReportCaller, query: ReportQuery, language: Language, format: 'pdf' | 'xlsx'): Promise<ReportFile> {
      return render(await build(caller, query, language), format, language, caller.companyId);
    },

    /** The same file made in the background and kept in the caller's download centre (large sets of plants). */
    async exportInBackground(
      caller: ReportCaller,
      query: ReportQuery,
      language: Language,
      format: 'pdf' | 'xlsx',
    ): Promise<DownloadRecord> {
      const t = await target(caller, query);
      const name = `${reportText(language, t.title)}${t.name ? ` ${t.name}` : ''} ${query.date ?? ''}`
        .trim()
        .replace(/[\\/:*?"<>|]+/g, ' ');
      return deps.downloads.runExportJob(
        { userId: caller.userId, companyId: caller.companyId, language },
        { kind: 'report', fileName: `${name}.${format}`, format },
        async (ctx) => {
          ctx.progress(0, 2);
          const report = await build(caller, query, language);
          ctx.progress(1, 2);
          const file = await render(report, format, language, caller.companyId);
          const { writeFile } = await import('node:fs/promises');
          await writeFile(ctx.file, file.bytes);
          return { rows: null };
        },
      );
    },

    // ---- configurations ----

    async configs(caller: ReportCaller, plantId: number): Promise<ReportConfig[]> {
      await plantAccess.require(caller as AuthContext, plantId, 'view');
      return repository.configs(plantId);
    },

    async saveConfig(caller: ReportCaller, id: number | null, input: ReportConfigInput): Promise<ReportConfig> {
      checkSelection(input.parameters, input.units);
      if (id !== null) {
        const existing = await repository.config(id);
        if (!existing) throw new ApiError(Code.REPORT_CONFIG_NOT_FOUND);
        await plantAccess.require(caller as AuthContext, existing.plantId, 'view').catch(() => {
          throw new ApiError(Code.REPORT_CONFIG_NOT_FOUND);
        });
        if (existing.plantId !== input.plantId) throw new ApiError(Code.REPORT_CONFIG_NOT_FOUND);
      }
      await plantAccess.require(caller as AuthContext, input.plantId, 'manage');
      const owned = await repository.deviceIdsOfPlant(input.plantId);
      if (input.units.some((u) => !owned.has(u))) throw new ApiError(Code.REPORT_UNIT_NOT_IN_PLANT);
      if (await repository.configNameTaken(input.plantId, input.name, id)) throw new ApiError(Code.REPORT_CONFIG_NAME_EXISTS);
      return repository.saveConfig(id, { ...input, units: [...new Set(input.units)], createdBy: caller.userId });
    },

    async deleteConfig(caller: ReportCaller, id: number): Promise<void> {
      const existing = await repository.config(id);
      if (!existing) throw new ApiError(Code.REPORT_CONFIG_NOT_FOUND);
      const level = (await plantAccess.levels(caller as AuthContext, [existing.plantId])).get(existing.plantId);
      if (!level) throw new ApiError(Code.REPORT_CONFIG_NOT_FOUND);
      if (level !== 'manage') throw new ApiError(Code.NO_PERMISSION);
      await repository.deleteConfig(id);
    },

    // ---- schedules ----

    schedules: (caller: ReportCaller) => repository.schedules(caller.userId),

    async addSchedule(caller: ReportCaller, input: ReportScheduleInput): Promise<ReportSchedule> {
      const query: ReportQuery =
        input.scope === 'plant'
          ? { scope: 'plant', plantId: input.plantId ?? 0, period: 'month' }
          : { scope: 'customer', customerId: input.customerId ?? 0, period: 'month' };
      // A deleted plant answers 700 here, like any plant the caller cannot see: nothing is saved.
      const t = await target(caller, query);
      if (input.configId !== null) await configFor(caller, input.configId, t.plantIds);
      let name = t.name;
      if (input.scope === 'plant') name = (await repository.plantInfo(input.plantId ?? 0))?.name ?? '';
      return repository.addSchedule({
        ownerId: caller.userId,
        companyId: caller.companyId,
        scope: input.scope,
        plantId: input.scope === 'plant' ? (input.plantId ?? null) : null,
        customerId: input.scope === 'customer' ? (input.customerId ?? null) : null,
        targetName: name,
        configId: input.configId,
        frequency: input.frequency,
        format: input.format,
        recipients: input.recipients,
        nextRunAt: nextRunAfter(input.frequency, now()),
      });
    },

    /**
     * Pauses or resumes a schedule, or changes its recipients, format or frequency. A schedule resumed (or given
     * another frequency) runs next at its next regular time (no catch-up for the paused periods); one whose plant or customer was deleted stays off (1007).
     */
    async updateSchedule(caller: ReportCaller, id: number, input: ReportScheduleUpdate): Promise<ReportSchedule> {
      const schedule = await repository.schedule(id, caller.userId);
      if (!schedule) throw new ApiError(Code.REPORT_SCHEDULE_NOT_FOUND);
      const resuming = input.enabled === true && !schedule.enabled;
      if (resuming && (schedule.disabledReason === 'plant_deleted' || schedule.disabledReason === 'customer_deleted'))
        throw new ApiError(Code.REPORT_SCHEDULE_TARGET_DELETED);
      await repository.setSchedule(id, {
        ...(input.enabled === undefined ? {} : { enabled: input.enabled, disabledReason: input.enabled ? null : 'paused' }),
        ...(resuming || (input.frequency !== undefined && input.frequency !== schedule.frequency)
          ? { nextRunAt: nextRunAfter(input.frequency ?? schedule.frequency, now()) }
          : {}),
        ...(input.recipients === undefined ? {} : { recipients: input.recipients }),
        ...(input.format === undefined ? {} : { format: input.format }),
        ...(input.frequency === undefined ? {} : { frequency: input.frequency }),
      });
      const { ownerId: _owner, ...updated } = (await repository.schedule(id, caller.userId)) ?? { ...schedule };
      return updated;
    },

    async deleteSchedule(caller: ReportCaller, id: number): Promise<void> {
      if (!(await repository.schedule(id, caller.userId))) throw new ApiError(Code.REPORT_SCHEDULE_NOT_FOUND);
      await repository.deleteSchedule(id);
    },

    /** "Send now": runs the schedule for its last period at once (the console's test of a new schedule). */
    async runNow(caller: ReportCaller, id: number) {
      const schedule = await repository.schedule(id, caller.userId);
      if (!schedule) throw new ApiError(Code.REPORT_SCHEDULE_NOT_FOUND);
      if (!schedule.enabled && (schedule.disabledReason === 'plant_deleted' || schedule.disabledReason === 'customer_deleted'))
        throw new ApiError(Code.REPORT_SCHEDULE_TARGET_DELETED);
      const result = await runSchedule(schedule);
      if (result.disabled) throw new ApiError(Code.REPORT_SCHEDULE_TARGET_DELETED);
      return result;
    },

    sends: (caller: ReportCaller, scheduleId: number | undefined, page: number, size: number) =>
      repository.sends(caller.userId, scheduleId, page, size),

    /**
     * The hourly sweep: a scheduled report's file is deleted once its e-mail is sent (or given up), or after
     * the download centre's retention; files no e-mail waits for (a send that failed before its e-mail was
     * written) go after the retention too. Returns how many files were deleted.
     */
    async sweepAttachments(): Promise<number> {
      const cutoff = new Date(now() - (deps.retentionDays ?? 7) * 86_400_000);
      const { done, waiting } = await repository.attachments(cutoff);
      const { readdir, rm, stat } = await import('node:fs/promises');
      const { join } = await import('node:path');
      let deleted = 0;
      for (const d of done) {
        if (!waiting.has(d.path)) {
          await rm(d.path, { force: true });
          deleted++;
        }
      }
      await repository.clearAttachments(done.map((d) => d.id));
      const dir = deps.attachmentDir;
      if (dir) {
        const names = await readdir(dir).catch(() => [] as string[]);
        for (const name of names) {
          const path = join(dir, name);
          if (waiting.has(path)) continue;
          const info = await stat(path).catch(() => undefined);
          if (info?.isFile() && info.mtimeMs < cutoff.getTime()) {
            await rm(path, { force: true });
            deleted++;
          }
        }
      }
      return deleted;
    },

    /** The scheduler's pass: every due schedule runs once and moves to its next time. */
    async tick(): Promise<number> {
      const due = await repository.claimDue(new Date(now()), 30 * 60_000, 20);
      for (const schedule of due) {
        await runSchedule(schedule);
        await repository.setSchedule(schedule.id, { nextRunAt: nextRunAfter(schedule.frequency, Math.max(now(), schedule.due.getTime())) });
      }
      return due.length;
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
