import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows } from '../../db/rows.js';
import { deviceEnergyDaily, deviceEvents, deviceRealtime, devices, plantEnergyDaily, plantPredictions, plants } from '../../db/schema.js';
import { LATEST_VALUES, LIFETIME_WH } from '../../ingest/telemetry-query.repository.js';

/** One value the overview reads from a device's point arrays, with the sign it enters a sum with. */
export interface SeriesChannel {
  deviceId: number;
  /** 1-based position in the device's stored values (numericPointIds order + 1). */
  index: number;
  /** The name the sums are grouped under ('pv', 'grid', 'battery', 'import', ...). */
  name: string;
  coef: number;
}

export interface PlantRecord {
  id: number;
  name: string;
  plantType: number;
  capacityKwp: number;
  timezone: string;
  status: number;
  latitude: number;
  longitude: number;
  meteringTopology: string;
  tariff: unknown;
  lastUpdateAt: Date | null;
}

export interface DeviceRecord {
  id: number;
  sn: string;
  alias: string | null;
  family: string;
  protocolId: string;
  model: string | null;
  ratedPowerW: number | null;
  status: number;
  parentId: number | null;
  lastReportAt: Date | null;
}

export interface RealtimeRecord {
  deviceId: number;
  ts: Date;
  values: number[];
  powerW: number | null;
  energyTotalWh: number | null;
  /** The counter plus its resets' falls: never lower than before (docs/decisions.md "One energy model"). */
  lifetimeWh: number | null;
  soc: number | null;
}

// Tier tables and columns are constants here, never input.
const TIERS = {
  '5m': { table: sql.raw('readings_5m'), column: sql.raw('bucket') },
  hourly: { table: sql.raw('readings_hourly'), column: sql.raw('hour') },
} as const;

/**
 * Points of the given channels from the averaged tier below its watermark and raw readings after it
 * (the same split as the device curves), so a year reads hourly rows instead of a year of raw reports.
 */
function tierPoints(tier: keyof typeof TIERS, deviceIds: readonly number[], fromIso: string, toIso: string) {
  const { table, column } = TIERS[tier];
  const ids = sql.param([...deviceIds]);
  return sql`mark as (select coalesce((select watermark from job_state where name = ${tier}), ${fromIso}::timestamptz) as w),
    pts as (
      select t.device_id, t.${column} as ts, t.values from ${table} t, mark
       where t.device_id = any(${ids}::int[]) and t.${column} >= ${fromIso}::timestamptz and t.${column} < least(mark.w, ${toIso}::timestamptz)
      union all
      select r.device_id, r.ts, r.values from readings r, mark
       where r.device_id = any(${ids}::int[]) and r.ts >= greatest(mark.w, ${fromIso}::timestamptz) and r.ts < ${toIso}::timestamptz)`;
}

function channelTable(channels: readonly SeriesChannel[]) {
  return sql`m as (select * from unnest(${sql.param(channels.map((c) => c.deviceId))}::int[], ${sql.param(channels.map((c) => c.index))}::int[],
      ${sql.param(channels.map((c) => c.name))}::text[], ${sql.param(channels.map((c) => c.coef))}::float8[]) as m(device_id, idx, name, coef))`;
}

/** SQL for the plant overview: the plant, its devices, energy rollups, bucketed series, counters, events. */
export function createPlantEnergyRepository(db: Database) {
  return {
    async plant(id: number): Promise<PlantRecord | undefined> {
      const [row] = await sqlRows(
        db,
        {
          id: plants.id,
          name: plants.name,
          plant_type: plants.plantType,
          capacity_kwp: plants.capacityKwp,
          timezone: plants.timezone,
          status: plants.status,
          latitude: plants.latitude,
          longitude: plants.longitude,
          metering_topology: plants.meteringTopology,
          tariff: plants.tariff,
          last_update_at: plants.lastUpdateAt,
        },
        sql`select id, name, plant_type, capacity_kwp, timezone, status, latitude, longitude, metering_topology, tariff, last_update_at
            from plants where id = ${id}`,
      );
      if (!row) return undefined;
      return {
        id: row.id,
        name: row.name,
        plantType: row.plant_type,
        capacityKwp: row.capacity_kwp,
        timezone: row.timezone,
        status: row.status,
        latitude: row.latitude,
        longitude: row.longitude,
        meteringTopology: row.metering_topology,
        tariff: row.tariff,
        lastUpdateAt: row.last_update_at,
      };
    },

    async plantNames(ids: readonly number[]): Promise<{ id: number; name: string; capacityKwp: number; timezone: string }[]> {
      const rows = await sqlRows(
        db,
        { id: plants.id, name: plants.name, capacity_kwp: plants.capacityKwp, timezone: plants.timezone },
        sql`select id, name, capacity_kwp, timezone from plants where id = any(${sql.param([...ids])}::int[])`,
      );
      return rows.map((r) => ({ id: r.id, name: r.name, capacityKwp: r.capacity_kwp, timezone: r.timezone }));
    },

    async devices(plantId: number): Promise<DeviceRecord[]> {
      const rows = await sqlRows(
        db,
        {
          id: devices.id,
          sn: devices.sn,
          alias: devices.alias,
          family: devices.family,
          protocol_id: devices.protocolId,
          model: devices.model,
          rated_power_w: devices.ratedPowerW,
          status: devices.status,
          parent_id: devices.parentId,
          last_report_at: nullable(deviceRealtime.ts),
        },
        sql`select d.id, d.sn, d.alias, d.family, d.protocol_id, d.model, d.rated_power_w, d.status, d.parent_id, r.ts as last_report_at
            from devices d left join device_realtime r on r.device_id = d.id where d.plant_id = ${plantId} order by d.id`,
      );
      return rows.map((r) => ({
        id: r.id,
        sn: r.sn,
        alias: r.alias === null ? null : r.alias,
        family: r.family,
        protocolId: r.protocol_id,
        model: r.model === null ? null : r.model,
        ratedPowerW: r.rated_power_w,
        status: r.status,
        parentId: r.parent_id,
        lastReportAt: r.last_report_at,
      }));
    },

    async realtime(deviceIds: readonly number[]): Promise<RealtimeRecord[]> {
      if (deviceIds.length === 0) return [];
      const rows = await sqlRows(
        db,
        {
          device_id: deviceRealtime.deviceId,
          ts: deviceRealtime.ts,
          values: computed.numbers,
          power_w: deviceRealtime.powerW,
          energy_total_wh: deviceRealtime.energyTotalWh,
          lifetime_wh: nullable(computed.number),
          soc: deviceRealtime.soc,
        },
        sql`select r.device_id, r.ts, ${LATEST_VALUES} as values, r.power_w, r.energy_total_wh, ${LIFETIME_WH}::float8 as lifetime_wh, r.soc
            from device_realtime r where r.device_id = any(${sql.param([...deviceIds])}::int[])`,
      );
      return rows.map((r) => ({
        deviceId: r.device_id,
        ts: r.ts,
        values: r.values,
        powerW: r.power_w,
        energyTotalWh: r.energy_total_wh,
        lifetimeWh: r.lifetime_wh,
        soc: r.soc,
      }));
    },

    /** Measured generation per plant-local day (the pipeline's rollup). */
    async energyDays(
      plantIds: readonly number[],
      fromDay: string,
      toDay: string,
    ): Promise<{ plantId: number; day: string; energyWh: number }[]> {
      if (plantIds.length === 0) return [];
      const rows = await sqlRows(
        db,
        { plant_id: plantEnergyDaily.plantId, day: plantEnergyDaily.day, energy_wh: plantEnergyDaily.energyWh },
        sql`select plant_id, to_char(day, 'YYYY-MM-DD') as day, energy_wh::float8 as energy_wh from plant_energy_daily
            where plant_id = any(${sql.param([...plantIds])}::int[]) and day between ${fromDay}::date and ${toDay}::date order by day`,
      );
      return rows.map((r) => ({ plantId: r.plant_id, day: r.day, energyWh: r.energy_wh }));
    },

    /** Today, this month, this year and all measured generation in one read. */
    async energySums(plantId: number, today: string, monthStart: string, yearStart: string) {
      const [row] = await sqlRows(
        db,
        {
          today: computed.number,
          month: computed.number,
          year: computed.number,
          total: computed.number,
          first_day: nullable(computed.text),
        },
        sql`select coalesce(sum(energy_wh) filter (where day = ${today}::date), 0)::float8 as today,
                   coalesce(sum(energy_wh) filter (where day >= ${monthStart}::date and day <= ${today}::date), 0)::float8 as month,
                   coalesce(sum(energy_wh) filter (where day >= ${yearStart}::date and day <= ${today}::date), 0)::float8 as year,
                   coalesce(sum(energy_wh), 0)::float8 as total,
                   to_char(min(day) filter (where energy_wh > 0), 'YYYY-MM-DD') as first_day
            from plant_energy_daily where plant_id = ${plantId}`,
      );
      return {
        today: row?.today ?? 0,
        month: row?.month ?? 0,
        year: row?.year ?? 0,
        total: row?.total ?? 0,
        firstDay: row?.first_day ? row.first_day : null,
      };
    },

    async predictions(plantId: number, fromDay: string, toDay: string): Promise<{ day: string; energyWh: number }[]> {
      const rows = await sqlRows(
        db,
        { day: plantPredictions.day, energy_wh: plantPredictions.energyWh },
        sql`select to_char(day, 'YYYY-MM-DD') as day, energy_wh::float8 as energy_wh from plant_predictions
            where plant_id = ${plantId} and day between ${fromDay}::date and ${toDay}::date order by day`,
      );
      return rows.map((r) => ({ day: r.day, energyWh: r.energy_wh }));
    },

    async firstPredictionDay(plantId: number): Promise<string | null> {
      const [row] = await sqlRows(
        db,
        { day: nullable(computed.text) },
        sql`select to_char(min(day), 'YYYY-MM-DD') as day from plant_predictions where plant_id = ${plantId}`,
      );
      return row?.day ?? null;
    },

    /**
     * Sums of channels per time bucket: each device's values averaged within the bucket, times the
     * channel's sign, added per channel name. Buckets of an hour or more read the hourly tier.
     */
    async bucketSeries(
      channels: readonly SeriesChannel[],
      fromMs: number,
      toMs: number,
      bucketSeconds: number,
    ): Promise<{ t: number; name: string; v: number }[]> {
      if (channels.length === 0 || toMs <= fromMs) return [];
      const fromIso = new Date(fromMs).toISOString();
      const toIso = new Date(toMs).toISOString();
      const ids = [...new Set(channels.map((c) => c.deviceId))];
      const step = Math.max(1, Math.round(bucketSeconds));
      const rows = await sqlRows(
        db,
        { t: computed.number, name: computed.text, v: computed.number },
        sql`with ${channelTable(channels)}, ${tierPoints(step >= 3600 ? 'hourly' : '5m', ids, fromIso, toIso)},
            per_device as (
              select (floor(extract(epoch from p.ts) / ${step}) * ${step} * 1000)::float8 as t, m.name, m.device_id, m.idx, m.coef,
                     avg(p.values[m.idx]::float8) as v
              from pts p join m on m.device_id = p.device_id
              where p.values[m.idx] is not null and p.values[m.idx] <> 'NaN'::float8
              group by 1, 2, 3, 4, 5)
            select t, name, sum(v * coef)::float8 as v from per_device group by t, name order by t`,
      );
      return rows.map((r) => ({ t: r.t, name: r.name, v: r.v }));
    },

    /**
     * The lowest and highest reading of cumulative counters per device and plant-local day, and the
     * last reading before the range (for the first day's energy). Hourly averages below the tier's
     * watermark, raw readings after it.
     */
    async counterDays(channels: readonly SeriesChannel[], fromMs: number, toMs: number, timezone: string) {
      if (channels.length === 0 || toMs <= fromMs) return { days: [], previous: [] };
      const fromIso = new Date(fromMs).toISOString();
      const toIso = new Date(toMs).toISOString();
      const ids = [...new Set(channels.map((c) => c.deviceId))];
      const days = await sqlRows(
        db,
        {
          name: computed.text,
          device_id: computed.number,
          day: computed.text,
          min: nullable(computed.number),
          max: nullable(computed.number),
        },
        sql`with ${channelTable(channels)}, ${tierPoints('hourly', ids, fromIso, toIso)}
            select m.name, m.device_id, to_char((p.ts at time zone ${timezone})::date, 'YYYY-MM-DD') as day,
                   min(p.values[m.idx]::float8) as min, max(p.values[m.idx]::float8) as max
            from pts p join m on m.device_id = p.device_id
            where p.values[m.idx] is not null and p.values[m.idx] <> 'NaN'::float8
            group by 1, 2, 3 order by 1, 2, 3`,
      );
      const previous = await sqlRows(
        db,
        { name: computed.text, device_id: computed.number, prev: nullable(computed.number) },
        sql`with ${channelTable(channels)}
            select m.name, m.device_id, greatest(
              (select max(x.v) from (select h.values[m.idx]::float8 as v from readings_hourly h
                 where h.device_id = m.device_id and h.hour < ${fromIso}::timestamptz order by h.hour desc limit 3) x where x.v <> 'NaN'),
              (select max(x.v) from (select r.values[m.idx]::float8 as v from readings r
                 where r.device_id = m.device_id and r.ts < ${fromIso}::timestamptz order by r.ts desc limit 3) x where x.v <> 'NaN')
            ) as prev from m`,
      );
      return {
        days: days.map((r) => ({ name: r.name, deviceId: r.device_id, day: r.day, min: r.min, max: r.max })),
        previous: previous.map((r) => ({ name: r.name, deviceId: r.device_id, prev: r.prev })),
      };
    },

    /** Each device's energy of one plant-local day (the rollup of the energy model); absent without readings. */
    async deviceEnergyOfDay(deviceIds: readonly number[], day: string): Promise<{ deviceId: number; energyWh: number }[]> {
      if (deviceIds.length === 0) return [];
      const rows = await sqlRows(
        db,
        { device_id: deviceEnergyDaily.deviceId, energy_wh: deviceEnergyDaily.energyWh },
        sql`select device_id, energy_wh::float8 as energy_wh from device_energy_daily
            where device_id = any(${sql.param([...deviceIds])}::int[]) and day = ${day}::date and last_wh is not null`,
      );
      return rows.map((r) => ({ deviceId: r.device_id, energyWh: r.energy_wh }));
    },

    async events(plantId: number, page: number, size: number) {
      const [count] = await sqlRows(
        db,
        { n: computed.number },
        sql`select count(*)::int as n from device_events where plant_id = ${plantId}`,
      );
      const rows = await sqlRows(
        db,
        {
          id: deviceEvents.id,
          device_id: deviceEvents.deviceId,
          sn: devices.sn,
          family: devices.family,
          protocol_id: devices.protocolId,
          code: deviceEvents.code,
          level: deviceEvents.level,
          opened_at: deviceEvents.openedAt,
          cleared_at: deviceEvents.clearedAt,
        },
        sql`select e.id, e.device_id, d.sn, d.family, d.protocol_id, e.code, e.level, e.opened_at, e.cleared_at
            from device_events e join devices d on d.id = e.device_id
            where e.plant_id = ${plantId} order by e.opened_at desc, e.id desc limit ${size} offset ${(page - 1) * size}`,
      );
      return {
        total: count?.n ?? 0,
        records: rows.map((r) => ({
          id: r.id,
          deviceId: r.device_id,
          sn: r.sn,
          family: r.family,
          protocolId: r.protocol_id,
          code: r.code,
          level: r.level,
          openedAt: r.opened_at.toISOString(),
          clearedAt: r.cleared_at?.toISOString() ?? null,
        })),
      };
    },

    async eventCount(plantId: number) {
      const rows = await sqlRows(
        db,
        { level: deviceEvents.level, total: computed.number, open: computed.number },
        sql`select level, count(*)::int as total, (count(*) filter (where cleared_at is null))::int as open
            from device_events where plant_id = ${plantId} group by level`,
      );
      return rows.map((r) => ({ level: r.level, total: r.total, open: r.open }));
    },
  };
}

export type PlantEnergyRepository = ReturnType<typeof createPlantEnergyRepository>;
