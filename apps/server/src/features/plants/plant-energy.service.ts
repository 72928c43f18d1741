import { Code } from '@sunward/contracts/codes';
import { DeviceStatus } from '@sunward/contracts/device-status';
import type { Language } from '@sunward/contracts/languages';
import {
  addDays,
  addSplits,
  type BatteryEnergy,
  type BenefitsAnswer,
  type Compare,
  counterDayEnergy,
  type DeviceCount,
  dayCount,
  daysOfMonth,
  type EnergyBars,
  type EnergyInputs,
  type EnergySplit,
  energyByHour,
  energyFlowOf,
  type Generation,
  type IncomeSummary,
  localDayOf,
  localDayStart,
  monthsOfYear,
  type Performance,
  type PlantEventCount,
  type PlantEventPage,
  type PlantInverter,
  type PlantRealtime,
  type PowerDay,
  type StatusCounts,
  selfConsumptionRate,
  selfSufficiencyRate,
  splitEnergy,
  splitPower,
  type Use,
  zoneOffsetMs,
} from '@sunward/contracts/plant-energy';
import {
  type BenefitFactors,
  type EnergyFlow,
  environmentalBenefits,
  incomeOf,
  performanceRatio,
  returnOnInvestment,
  specificYield,
  type Tariff,
  TariffSchema,
} from '@sunward/contracts/plants';
import { pointIndex, roleIndex } from '@sunward/protocol/positions';
import { GENERATING_FAMILIES } from '../../ingest/telemetry-query.repository.js';
import { ApiError } from '../../lib/envelope.js';
import { eventText } from '../events/event-text.js';
import type { DeviceRecord, PlantEnergyRepository, PlantRecord, RealtimeRecord, SeriesChannel } from './plant-energy.repository.js';

const FIVE_MINUTES_S = 300;
const HOUR_S = 3600;

const isGenerating = (family: string) => (GENERATING_FAMILIES as readonly string[]).includes(family);

/**
 * Which device points make up the plant's PV, grid, battery and irradiance figures.
 * - PV: generating devices' power; a hybrid inverter's AC power includes its battery, which is taken off.
 * - Grid (+ import): the main meter (the first registered; sign as SunSpec meters), else hybrids' grid power.
 * - Battery (+ discharge): battery packs (masters only), else hybrids' battery figures.
 * - Counters for the energy split: the meter's import and export, the battery's charge and discharge.
 */
export interface Topology {
  generating: DeviceRecord[];
  pv: SeriesChannel[];
  grid: SeriesChannel[];
  battery: SeriesChannel[];
  soc: SeriesChannel[];
  irradiance: SeriesChannel[];
  counters: SeriesChannel[];
  hasMeter: boolean;
  hasBattery: boolean;
  /** Import and export are both counted: generation and consumption can be split. */
  metered: boolean;
}

export function plantTopology(devices: readonly DeviceRecord[]): Topology {
  const channel = (d: DeviceRecord, index: number | undefined, name: string, coef = 1): SeriesChannel[] =>
    index === undefined ? [] : [{ deviceId: d.id, index, name, coef }];
  const generating = devices.filter((d) => isGenerating(d.family));
  const hybrids = devices.filter((d) => d.family === 'hybrid_inverter');
  const meter = devices.find((d) => d.family === 'meter');
  const packs = devices.filter((d) => d.family === 'battery' && d.parentId === null);

  const pv = generating.flatMap((d) => [
    ...channel(d, roleIndex(d.protocolId, 'power'), 'pv'),
    ...(d.family === 'hybrid_inverter' ? channel(d, pointIndex(d.protocolId, 'BatW'), 'pv', -1) : []),
  ]);
  const grid = meter
    ? channel(meter, roleIndex(meter.protocolId, 'power'), 'grid')
    : hybrids.flatMap((d) => channel(d, pointIndex(d.protocolId, 'GridW'), 'grid'));
  const gridCounters = meter
    ? [
        ...channel(meter, roleIndex(meter.protocolId, 'energy_total'), 'import'),
        ...channel(meter, roleIndex(meter.protocolId, 'energy_export_total'), 'export'),
      ]
    : hybrids.flatMap((d) => [
        ...channel(d, pointIndex(d.protocolId, 'GridImpWH'), 'import'),
        ...channel(d, pointIndex(d.protocolId, 'GridExpWH'), 'export'),
      ]);
  const batteryDevices = packs.length > 0 ? packs : hybrids.filter((d) => pointIndex(d.protocolId, 'BatW') !== undefined);
  const battery = batteryDevices.flatMap((d) =>
    channel(d, d.family === 'battery' ? roleIndex(d.protocolId, 'power') : pointIndex(d.protocolId, 'BatW'), 'battery'),
  );
  const soc = batteryDevices.flatMap((d) => channel(d, roleIndex(d.protocolId, 'soc'), 'soc'));
  const batteryCounters = batteryDevices.flatMap((d) => [
    ...channel(d, roleIndex(d.protocolId, 'energy_charge_total'), 'charge'),
    ...channel(d, roleIndex(d.protocolId, 'energy_discharge_total'), 'discharge'),
  ]);
  const station = devices.find((d) => d.family === 'weather_station');
  const irradiance = station
    ? channel(station, pointIndex(station.protocolId, 'POAI') ?? pointIndex(station.protocolId, 'GHI'), 'irradiance')
    : [];
  const counters = [...gridCounters, ...batteryCounters];
  return {
    generating,
    pv,
    grid,
    battery,
    soc,
    irradiance,
    counters,
    hasMeter: grid.length > 0,
    hasBattery: battery.length > 0,
    metered: counters.some((c) => c.name === 'import') && counters.some((c) => c.name === 'export'),
  };
}

/** Sum of channels over the devices' latest readings; offline devices' last values do not count. */
function sumNow(channels: readonly SeriesChannel[], realtime: ReadonlyMap<number, RealtimeRecord>, live: ReadonlySet<number>) {
  let sum = 0;
  let seen = 0;
  for (const c of channels) {
    const row = realtime.get(c.deviceId);
    const value = row?.values[c.index - 1];
    if (!row || !live.has(c.deviceId) || value === undefined || !Number.isFinite(value)) continue;
    sum += value * c.coef;
    seen++;
  }
  return { value: seen > 0 ? sum : null, seen };
}

function statusCounts(statuses: readonly number[]): StatusCounts {
  const counts: StatusCounts = { normal: 0, offline: 0, warning: 0, fault: 0, upgrading: 0, protect: 0 };
  for (const s of statuses) {
    if (s === DeviceStatus.NORMAL) counts.normal++;
    else if (s === DeviceStatus.WARNING) counts.warning++;
    else if (s === DeviceStatus.FAULT) counts.fault++;
    else if (s === DeviceStatus.UPGRADING) counts.upgrading++;
    else if (s === DeviceStatus.PROTECT) counts.protect++;
    else counts.offline++;
  }
  return counts;
}

const round = (value: number, decimals = 1) => Math.round(value * 10 ** decimals) / 10 ** decimals;
const sumOf = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

type SplitPeriod = 'day' | 'month' | 'year' | 'total';

// ---------------------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------------------

export interface PlantEnergyDeps {
  repository: PlantEnergyRepository;
  benefitFactors: BenefitFactors;
  now?: () => number;
}

/** The plant overview's figures; plant access is checked by the routes before any of these. */
export function createPlantEnergyService({ repository, benefitFactors, now = Date.now }: PlantEnergyDeps) {
  async function load(plantId: number) {
    const plant = await repository.plant(plantId);
    if (!plant) throw new ApiError(Code.PLANT_NOT_FOUND);
    const devices = await repository.devices(plantId);
    const today = localDayOf(now(), plant.timezone);
    return { plant, devices, topology: plantTopology(devices), today };
  }

  const dayStart = (plant: PlantRecord, day: string) => localDayStart(day, plant.timezone);

  async function live(devices: readonly DeviceRecord[]) {
    const rows = await repository.realtime(devices.map((d) => d.id));
    const realtime = new Map(rows.map((r) => [r.deviceId, r]));
    const liveIds = new Set(devices.filter((d) => d.status !== DeviceStatus.OFFLINE).map((d) => d.id));
    return { realtime, liveIds, rows };
  }

  /**
   * Energies per plant-local day between two days (both included): generation from the daily rollup,
   * import, export, charge and discharge from the meters' and batteries' counters.
   */
  async function dailyInputs(plant: PlantRecord, topology: Topology, fromDay: string, toDay: string): Promise<Map<string, EnergyInputs>> {
    const [generation, counters] = await Promise.all([
      repository.energyDays([plant.id], fromDay, toDay),
      repository.counterDays(topology.counters, dayStart(plant, fromDay), dayStart(plant, addDays(toDay, 1)), plant.timezone),
    ]);
    const perName = new Map<string, Map<string, number>>();
    const groups = new Map<string, { name: string; days: { day: string; minWh: number | null; maxWh: number | null }[] }>();
    for (const d of counters.days) {
      const key = `${d.name}:${d.deviceId}`;
      const group = groups.get(key) ?? { name: d.name, days: [] };
      group.days.push({ day: d.day, minWh: d.min, maxWh: d.max });
      groups.set(key, group);
    }
    for (const [key, group] of groups) {
      const previous = counters.previous.find((p) => `${p.name}:${p.deviceId}` === key)?.prev ?? null;
      const byDay = perName.get(group.name) ?? new Map<string, number>();
      for (const e of counterDayEnergy(group.days, previous)) byDay.set(e.day, (byDay.get(e.day) ?? 0) + e.energyWh);
      perName.set(group.name, byDay);
    }
    const has = (name: string) => topology.counters.some((c) => c.name === name);
    const days = new Set([...generation.map((g) => g.day), ...[...perName.values()].flatMap((m) => [...m.keys()])]);
    const out = new Map<string, EnergyInputs>();
    const pvByDay = new Map(generation.map((g) => [g.day, g.energyWh]));
    for (const day of [...days].sort()) {
      const of = (name: string) => (has(name) ? (perName.get(name)?.get(day) ?? 0) : null);
      out.set(day, {
        pvWh: pvByDay.get(day) ?? 0,
        importWh: topology.metered ? of('import') : null,
        exportWh: topology.metered ? of('export') : null,
        chargeWh: of('charge'),
        dischargeWh: of('discharge'),
      });
    }
    return out;
  }

  function addInputs(a: EnergyInputs, b: EnergyInputs): EnergyInputs {
    const add = (x: number | null, y: number | null) => (x === null && y === null ? null : (x ?? 0) + (y ?? 0));
    return {
      pvWh: a.pvWh + b.pvWh,
      importWh: add(a.importWh, b.importWh),
      exportWh: add(a.exportWh, b.exportWh),
      chargeWh: add(a.chargeWh, b.chargeWh),
      dischargeWh: add(a.dischargeWh, b.dischargeWh),
    };
  }

  function emptyInputs(topology: Topology): EnergyInputs {
    const has = (name: string) => topology.counters.some((c) => c.name === name);
    return {
      pvWh: 0,
      importWh: topology.metered ? 0 : null,
      exportWh: topology.metered ? 0 : null,
      chargeWh: has('charge') ? 0 : null,
      dischargeWh: has('discharge') ? 0 : null,
    };
  }

  /** The days and bar keys of a period: a day, the days of a month, the months of a year, or every year. */
  async function periodRange(plant: PlantRecord, today: string, period: SplitPeriod, param: string | undefined) {
    if (period === 'day') {
      const day = param ?? today;
      return { fromDay: day, toDay: day, keys: [day], keyOf: (d: string) => d };
    }
    if (period === 'month') {
      const month = param ?? today.slice(0, 7);
      const days = daysOfMonth(month);
      return { fromDay: days[0] ?? `${month}-01`, toDay: days.at(-1) ?? `${month}-28`, keys: days, keyOf: (d: string) => d };
    }
    if (period === 'year') {
      const year = param ?? today.slice(0, 4);
      return { fromDay: `${year}-01-01`, toDay: `${year}-12-31`, keys: monthsOfYear(Number(year)), keyOf: (d: string) => d.slice(0, 7) };
    }
    const sums = await repository.energySums(plant.id, today, today, today);
    const firstPrediction = await repository.firstPredictionDay(plant.id);
    const firstYear = Math.min(Number((sums.firstDay ?? today).slice(0, 4)), Number((firstPrediction ?? today).slice(0, 4)));
    const lastYear = Number(today.slice(0, 4));
    const keys = Array.from({ length: lastYear - firstYear + 1 }, (_, i) => String(firstYear + i));
    return { fromDay: sums.firstDay ?? today, toDay: today, keys, keyOf: (d: string) => d.slice(0, 4) };
  }

  async function energyBars(plantId: number, period: 'month' | 'year' | 'total', param: string | undefined): Promise<EnergyBars> {
    const { plant, today } = await load(plantId);
    const range = await periodRange(plant, today, period, param);
    const predictionFrom = period === 'total' ? `${range.keys[0] ?? today.slice(0, 4)}-01-01` : range.fromDay;
    const [days, predictions] = await Promise.all([
      repository.energyDays([plant.id], range.fromDay, range.toDay),
      repository.predictions(plant.id, predictionFrom, period === 'total' ? `${today.slice(0, 4)}-12-31` : range.toDay),
    ]);
    const energy = new Map<string, number>();
    for (const d of days) energy.set(range.keyOf(d.day), (energy.get(range.keyOf(d.day)) ?? 0) + d.energyWh);
    const predicted = new Map<string, number>();
    for (const p of predictions) predicted.set(range.keyOf(p.day), (predicted.get(range.keyOf(p.day)) ?? 0) + p.energyWh);
    const bars = range.keys.map((key) => ({ key, energyWh: energy.get(key) ?? null, predictedWh: predicted.get(key) ?? null }));
    return {
      period,
      timezone: plant.timezone,
      bars,
      totalWh: sumOf([...energy.values()]),
      predictedTotalWh: predictions.length > 0 ? sumOf([...predicted.values()]) : null,
    };
  }

  async function split(plantId: number, period: SplitPeriod, param: string | undefined) {
    const { plant, topology, today } = await load(plantId);
    const range = await periodRange(plant, today, period, param);
    const toDay = range.toDay > today ? today : range.toDay;
    const daily = range.fromDay > toDay ? new Map<string, EnergyInputs>() : await dailyInputs(plant, topology, range.fromDay, toDay);
    // Each day split on its own, then added up (addSplits: month = Σ days even where a day's split clamps).
    const empty = splitEnergy(emptyInputs(topology));
    const byKey = new Map<string, { split: EnergySplit; inputs: EnergyInputs }>();
    let total = emptyInputs(topology);
    let totalSplit = empty;
    for (const [day, inputs] of daily) {
      const key = range.keyOf(day);
      const daySplit = splitEnergy(inputs);
      const before = byKey.get(key) ?? { split: empty, inputs: emptyInputs(topology) };
      byKey.set(key, { split: addSplits(before.split, daySplit), inputs: addInputs(before.inputs, inputs) });
      total = addInputs(total, inputs);
      totalSplit = addSplits(totalSplit, daySplit);
    }
    const bars = range.keys.map((key) => {
      const found = byKey.get(key);
      return { key, split: found?.split ?? empty, battery: batteryOf(found?.inputs ?? emptyInputs(topology)) };
    });
    let points: { t: number; pv: number; grid: number; battery: number }[] = [];
    if (period === 'day' && topology.metered) {
      const from = dayStart(plant, range.fromDay);
      const series = await repository.bucketSeries(
        [...topology.pv, ...topology.grid, ...topology.battery],
        from,
        dayStart(plant, addDays(range.fromDay, 1)),
        FIVE_MINUTES_S,
      );
      const byT = new Map<number, { t: number; pv: number; grid: number; battery: number }>();
      for (const row of series) {
        const p = byT.get(row.t) ?? { t: row.t, pv: 0, grid: 0, battery: 0 };
        if (row.name === 'pv' || row.name === 'grid' || row.name === 'battery') p[row.name] += row.v;
        byT.set(row.t, p);
      }
      points = [...byT.values()].sort((a, b) => a.t - b.t);
    }
    return { plant, topology, bars, total: totalSplit, battery: batteryOf(total), points };
  }

  /** The batteries' charge and discharge counters of a period (null without storage), as measured. */
  function batteryOf(inputs: EnergyInputs): BatteryEnergy | null {
    return inputs.chargeWh === null && inputs.dischargeWh === null
      ? null
      : { chargeWh: Math.max(0, inputs.chargeWh ?? 0), dischargeWh: Math.max(0, inputs.dischargeWh ?? 0) };
  }

  /** Income of every month since the first measured day and of today, under the plant's tariff. */
  async function incomes(plant: PlantRecord, topology: Topology, tariff: Tariff, today: string, firstDay: string) {
    const needsExport = tariff.pricingMethod === 'generation';
    const needsProfile = tariff.pricingMethod === 'tou';
    const [daily, hourly] = await Promise.all([
      needsExport
        ? dailyInputs(plant, topology, firstDay, today)
        : repository
            .energyDays([plant.id], firstDay, today)
            .then((rows) => new Map(rows.map((r) => [r.day, { ...emptyInputs(topology), pvWh: r.energyWh }]))),
      needsProfile
        ? repository.bucketSeries(topology.pv, dayStart(plant, firstDay), dayStart(plant, addDays(today, 1)), HOUR_S)
        : Promise.resolve([]),
    ]);
    // Power profile by local hour, per month and for today.
    const profiles = new Map<string, number[]>();
    for (const row of hourly) {
      // The middle of the hour names it, also in zones half an hour off UTC.
      const mid = row.t + 1_800_000;
      const local = localDayOf(mid, plant.timezone);
      const hour = new Date(mid + zoneOffsetMs(mid, plant.timezone)).getUTCHours();
      for (const key of local === today ? [local.slice(0, 7), today] : [local.slice(0, 7)]) {
        const profile = profiles.get(key) ?? new Array<number>(24).fill(0);
        profile[hour] = (profile[hour] ?? 0) + Math.max(0, row.v);
        profiles.set(key, profile);
      }
    }
    const periodEnergy = new Map<string, { generationWh: number; exportWh: number | null }>();
    for (const [day, inputs] of daily) {
      for (const key of day === today ? [day.slice(0, 7), today] : [day.slice(0, 7)]) {
        const e = periodEnergy.get(key) ?? { generationWh: 0, exportWh: null };
        e.generationWh += inputs.pvWh;
        if (inputs.exportWh !== null) e.exportWh = (e.exportWh ?? 0) + inputs.exportWh;
        periodEnergy.set(key, e);
      }
    }
    const income = new Map<string, number>();
    for (const [key, e] of periodEnergy) {
      const generationKwh = e.generationWh / 1000;
      income.set(
        key,
        incomeOf(tariff, {
          generationKwh,
          exportKwh: e.exportWh === null ? null : e.exportWh / 1000,
          byHourKwh: energyByHour(generationKwh, profiles.get(key) ?? []),
        }),
      );
    }
    return income;
  }

  async function plantRealtime(plantId: number): Promise<PlantRealtime> {
    const { plant, devices, topology, today } = await load(plantId);
    const [{ realtime, liveIds, rows }, sums] = await Promise.all([
      live(devices),
      repository.energySums(plant.id, today, `${today.slice(0, 7)}-01`, `${today.slice(0, 4)}-01-01`),
    ]);
    const pv = sumNow(topology.pv, realtime, liveIds);
    const generatingIds = new Set(topology.generating.map((d) => d.id));
    // Lifetime never falls: each device's counter plus its resets' falls.
    const lifetime = sumOf(rows.filter((r) => generatingIds.has(r.deviceId) && r.lifetimeWh !== null).map((r) => r.lifetimeWh ?? 0));
    const latest = rows.reduce<number | null>((max, r) => (max === null || r.ts.getTime() > max ? r.ts.getTime() : max), null);
    return {
      ts: latest === null ? (plant.lastUpdateAt?.toISOString() ?? null) : new Date(latest).toISOString(),
      status: plant.status,
      // Offline devices count 0; "--" only for a plant whose generating devices never reported (as the list).
      powerW: pv.value === null ? (rows.some((r) => generatingIds.has(r.deviceId)) ? 0 : null) : round(Math.max(0, pv.value)),
      capacityKwp: plant.capacityKwp,
      energyTodayWh: sums.today,
      energyMonthWh: sums.month,
      energyYearWh: sums.year,
      energyTotalWh: Math.max(lifetime, sums.total),
      specificYieldToday: specificYield(sums.today / 1000, plant.capacityKwp),
    };
  }

  return {
    topologyOf: plantTopology,

    /**
     * A report's figures of one plant for a day, month or year (issue 21), through the same split, income and
     * irradiation as the overview's cards, so a report agrees with the overview to the watt-hour.
     */
    async reportFigures(plantId: number, period: 'day' | 'month' | 'year', param: string) {
      const { plant, topology, bars, total, battery } = await split(plantId, period, param);
      const range = await periodRange(plant, localDayOf(now(), plant.timezone), period, param);
      const today = localDayOf(now(), plant.timezone);
      const toDay = range.toDay > today ? today : range.toDay;
      const parsed = TariffSchema.safeParse(plant.tariff);
      const past = range.fromDay > toDay;
      const [income, irradiance] = await Promise.all([
        parsed.success && !past ? incomes(plant, topology, parsed.data, toDay, range.fromDay) : Promise.resolve(null),
        topology.irradiance.length > 0 && !past
          ? repository.bucketSeries(topology.irradiance, dayStart(plant, range.fromDay), dayStart(plant, addDays(toDay, 1)), HOUR_S)
          : Promise.resolve(null),
      ]);
      const periodIncome =
        income === null
          ? null
          : period === 'day'
            ? (income.get(range.fromDay) ?? 0)
            : sumOf([...income.entries()].filter(([key]) => key.length === 7).map(([, v]) => v));
      return {
        plant,
        topology,
        fromDay: range.fromDay,
        toDay: range.toDay,
        bars,
        total,
        battery,
        currency: parsed.success ? parsed.data.currency : null,
        income: periodIncome,
        irradiationKwhPerM2: irradiance === null ? null : sumOf(irradiance.map((r) => Math.max(0, r.v))) / 1000,
      };
    },

    realtime: plantRealtime,

    async powerDay(plantId: number, date: string | undefined): Promise<PowerDay> {
      const { plant, topology, today } = await load(plantId);
      const day = date ?? today;
      const from = dayStart(plant, day);
      const [series, days, predictions] = await Promise.all([
        repository.bucketSeries(topology.pv, from, dayStart(plant, addDays(day, 1)), FIVE_MINUTES_S),
        repository.energyDays([plant.id], day, day),
        repository.predictions(plant.id, day, day),
      ]);
      return {
        date: day,
        timezone: plant.timezone,
        points: series.filter((r) => r.name === 'pv').map((r) => [r.t, round(Math.max(0, r.v))] as [number, number]),
        energyWh: days[0]?.energyWh ?? null,
        predictedWh: predictions[0]?.energyWh ?? null,
      };
    },

    powerMonth: (plantId: number, month: string | undefined) => energyBars(plantId, 'month', month),
    powerYear: (plantId: number, year: number | undefined) => energyBars(plantId, 'year', year === undefined ? undefined : String(year)),
    powerTotal: (plantId: number) => energyBars(plantId, 'total', undefined),

    async flow(plantId: number): Promise<EnergyFlow> {
      const { devices, topology } = await load(plantId);
      const { realtime, liveIds, rows } = await live(devices);
      const pv = sumNow(topology.pv, realtime, liveIds);
      const grid = sumNow(topology.grid, realtime, liveIds);
      const battery = sumNow(topology.battery, realtime, liveIds);
      const soc = sumNow(topology.soc, realtime, liveIds);
      const latest = rows.filter((r) => liveIds.has(r.deviceId)).reduce<number | null>((m, r) => Math.max(m ?? 0, r.ts.getTime()), null);
      return energyFlowOf({
        ts: latest === null ? null : new Date(latest).toISOString(),
        pvW: pv.value === null ? (topology.generating.length > 0 ? 0 : null) : round(pv.value),
        gridW: grid.value === null ? null : round(grid.value),
        batteryW: battery.value === null ? null : round(battery.value),
        soc: soc.value === null ? null : round(soc.value / soc.seen),
        hasBattery: topology.hasBattery,
        hasMeter: topology.hasMeter,
      });
    },

    async generation(plantId: number, period: SplitPeriod, param: string | undefined): Promise<Generation> {
      const { plant, topology, bars, total, points } = await split(plantId, period, param);
      return {
        period,
        timezone: plant.timezone,
        metered: topology.metered,
        points: points.map((p) => {
          const s = splitPower(p.pv, p.grid, p.battery);
          return [p.t, round(s.selfUseW), round(s.exportW)] as [number, number, number];
        }),
        bars: bars.map(({ key, split: s }) => ({ key, generationWh: s.generationWh, selfUseWh: s.selfUseWh, exportWh: s.exportWh })),
        totals: { generationWh: total.generationWh, selfUseWh: total.selfUseWh, exportWh: total.exportWh },
      };
    },

    async use(plantId: number, period: SplitPeriod, param: string | undefined): Promise<Use> {
      const { plant, topology, bars, total, battery, points } = await split(plantId, period, param);
      return {
        period,
        timezone: plant.timezone,
        metered: topology.metered,
        battery,
        points: points.map((p) => {
          const s = splitPower(p.pv, p.grid, p.battery);
          return [p.t, round(s.fromPvW), round(s.fromBatteryW), round(s.fromGridW)] as [number, number, number, number];
        }),
        bars: bars.map(({ key, split: s }) => ({
          key,
          loadWh: s.loadWh,
          fromPvWh: s.fromPvWh,
          fromBatteryWh: s.fromBatteryWh,
          fromGridWh: s.fromGridWh,
        })),
        totals: { loadWh: total.loadWh, fromPvWh: total.fromPvWh, fromBatteryWh: total.fromBatteryWh, fromGridWh: total.fromGridWh },
      };
    },

    async income(plantId: number): Promise<IncomeSummary> {
      const { plant, topology, today } = await load(plantId);
      const parsed = TariffSchema.safeParse(plant.tariff);
      if (!parsed.success)
        return {
          currency: null,
          pricingMethod: null,
          today: null,
          month: null,
          year: null,
          total: null,
          totalInvestment: null,
          measuredDays: 0,
          roiPercent: null,
          paybackYears: null,
          remainingYears: null,
        };
      const tariff = parsed.data;
      const sums = await repository.energySums(plant.id, today, today, today);
      const firstDay = sums.firstDay ?? today;
      const income = await incomes(plant, topology, tariff, today, firstDay);
      const month = today.slice(0, 7);
      const year = today.slice(0, 4);
      const monthly = [...income.entries()].filter(([key]) => key.length === 7);
      const total = sumOf(monthly.map(([, v]) => v));
      const measuredDays = sums.firstDay ? dayCount(sums.firstDay, today) : 0;
      return {
        currency: tariff.currency,
        pricingMethod: tariff.pricingMethod,
        today: income.get(today) ?? 0,
        month: income.get(month) ?? 0,
        year: sumOf(monthly.filter(([key]) => key.startsWith(year)).map(([, v]) => v)),
        total,
        totalInvestment: tariff.totalInvestment ?? null,
        measuredDays,
        ...returnOnInvestment(total, tariff.totalInvestment, measuredDays),
      };
    },

    async benefits(plantId: number): Promise<BenefitsAnswer> {
      const { energyTotalWh } = await plantRealtime(plantId);
      const energyKwh = energyTotalWh / 1000;
      return { energyKwh, ...environmentalBenefits(energyKwh, benefitFactors), factors: { ...benefitFactors } };
    },

    async performance(plantId: number, from: string | undefined, to: string | undefined): Promise<Performance> {
      const { plant, topology, today } = await load(plantId);
      const toDay = to ?? today;
      const fromDay = from ?? (to ? to : today);
      const [daily, irradiance] = await Promise.all([
        dailyInputs(plant, topology, fromDay, toDay),
        topology.irradiance.length > 0
          ? repository.bucketSeries(topology.irradiance, dayStart(plant, fromDay), dayStart(plant, addDays(toDay, 1)), HOUR_S)
          : Promise.resolve(null),
      ]);
      let s = splitEnergy(emptyInputs(topology));
      for (const inputs of daily.values()) s = addSplits(s, splitEnergy(inputs));
      const energyKwh = s.generationWh / 1000;
      // Hourly mean irradiance (W/m²) over an hour is Wh/m²; a station is silent at night, which adds nothing.
      const irradiationKwhPerM2 = irradiance === null ? null : sumOf(irradiance.map((r) => Math.max(0, r.v))) / 1000;
      return {
        from: fromDay,
        to: toDay,
        specificYield: { value: specificYield(energyKwh, plant.capacityKwp), energyKwh, capacityKwp: plant.capacityKwp },
        performanceRatio: {
          value: irradiationKwhPerM2 === null ? null : performanceRatio(energyKwh, plant.capacityKwp, irradiationKwhPerM2),
          energyKwh,
          capacityKwp: plant.capacityKwp,
          irradiationKwhPerM2,
        },
        selfConsumption: {
          value: selfConsumptionRate(s.generationWh, s.exportWh),
          generationKwh: energyKwh,
          exportKwh: s.exportWh === null ? null : s.exportWh / 1000,
        },
        selfSufficiency: {
          value: selfSufficiencyRate(s.loadWh, s.fromGridWh),
          loadKwh: s.loadWh === null ? null : s.loadWh / 1000,
          importKwh: s.fromGridWh === null ? null : s.fromGridWh / 1000,
        },
      };
    },

    async events(plantId: number, page: number, size: number, language: Language): Promise<PlantEventPage> {
      await load(plantId);
      const result = await repository.events(plantId, page, size);
      const records = result.records.map(({ protocolId, ...e }) => ({
        ...e,
        description: eventText(protocolId, e.code, language).description,
      }));
      return { total: result.total, records, page, size };
    },

    async eventCount(plantId: number): Promise<PlantEventCount> {
      await load(plantId);
      const rows = await repository.eventCount(plantId);
      const openOf = (level: string) => rows.find((r) => r.level === level)?.open ?? 0;
      return {
        total: sumOf(rows.map((r) => r.total)),
        open: sumOf(rows.map((r) => r.open)),
        byLevel: { fault: openOf('fault'), warning: openOf('warning'), protect: openOf('protect') },
      };
    },

    async inverters(plantId: number): Promise<PlantInverter[]> {
      const { topology, today } = await load(plantId);
      const ids = topology.generating.map((d) => d.id);
      const [realtime, days] = await Promise.all([repository.realtime(ids), repository.deviceEnergyOfDay(ids, today)]);
      return topology.generating.map((d) => {
        const row = realtime.find((r) => r.deviceId === d.id);
        const energy = days.find((x) => x.deviceId === d.id)?.energyWh;
        return {
          id: d.id,
          sn: d.sn,
          alias: d.alias,
          family: d.family,
          model: d.model,
          ratedPowerW: d.ratedPowerW,
          status: d.status,
          powerW: d.status === DeviceStatus.OFFLINE ? null : (row?.powerW ?? null),
          energyTodayWh: energy ?? (row ? 0 : null),
          lastReportAt: d.lastReportAt?.toISOString() ?? null,
        };
      });
    },

    async inverterCount(plantId: number) {
      const { topology } = await load(plantId);
      return { total: topology.generating.length, byStatus: statusCounts(topology.generating.map((d) => d.status)) };
    },

    async deviceCount(plantId: number): Promise<DeviceCount> {
      const { devices } = await load(plantId);
      const byFamily: Record<string, number> = {};
      for (const d of devices) byFamily[d.family] = (byFamily[d.family] ?? 0) + 1;
      return { total: devices.length, byFamily, byStatus: statusCounts(devices.map((d) => d.status)) };
    },

    /** Daily energy and specific yield of several plants over the same local days. */
    async compare(ids: readonly number[], from: string | undefined, to: string | undefined): Promise<Compare> {
      const plants = await repository.plantNames(ids);
      const first = plants.find((p) => p.id === ids[0]) ?? plants[0];
      const today = localDayOf(now(), first?.timezone ?? 'UTC');
      const toDay = to ?? today;
      const fromDay = from ?? addDays(toDay, -6);
      const rows = await repository.energyDays(ids, fromDay, toDay);
      const days = Array.from({ length: dayCount(fromDay, toDay) }, (_, i) => addDays(fromDay, i));
      return {
        from: fromDay,
        to: toDay,
        plants: ids.flatMap((id) => {
          const plant = plants.find((p) => p.id === id);
          if (!plant) return [];
          const energy = new Map(rows.filter((r) => r.plantId === id).map((r) => [r.day, r.energyWh]));
          return [
            {
              id,
              name: plant.name,
              capacityKwp: plant.capacityKwp,
              days: days.map((day) => {
                const wh = energy.get(day);
                return { day, energyWh: wh ?? null, specificYield: wh === undefined ? null : specificYield(wh / 1000, plant.capacityKwp) };
              }),
            },
          ];
        }),
      };
    },
  };
}

export type PlantEnergyService = ReturnType<typeof createPlantEnergyService>;
