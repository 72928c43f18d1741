import { DeviceStatus } from '@sunward/contracts/device-status';
import { lttb, type SeriesPoint } from '@sunward/contracts/downsample';
import { BUILT_IN_PROTOCOLS } from '@sunward/protocol/maps/index';
import { pointIndex } from '@sunward/protocol/positions';
import { type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../db/client.js';

/**
 * The point values of a device's latest reading, for a query that names device_realtime `r`. The realtime
 * row keeps the reading's time and headline figures; the values stay in `readings` alone, so ingest
 * writes each array once (empty when the reading expired from raw retention).
 */
export const LATEST_VALUES: SQL = sql`coalesce((select rd.values from readings rd where rd.device_id = r.device_id and rd.ts = r.ts), '{}'::float8[])`;

/** Device families whose energy counter is generation (heat pumps and switches count consumption). */
export const GENERATING_FAMILIES = ['inverter', 'hybrid_inverter', 'micro_inverter'] as const;

/**
 * A hybrid inverter's AC power includes its battery's discharge; PV is that power less the battery's
 * (BatW, positive when discharging). This is the same split the plant overview draws, as SQL over the
 * stored values array: one `when` per protocol that has a battery power point.
 */
const HYBRID_BATTERY_W: SQL = (() => {
  const cases = BUILT_IN_PROTOCOLS.flatMap((protocol) => {
    const index = pointIndex(protocol.id, 'BatW');
    return index === undefined ? [] : [sql`when ${protocol.id} then (${LATEST_VALUES})[${sql.raw(String(index))}]`];
  });
  return cases.length === 0
    ? sql`0`
    : sql`coalesce(case when d.family = 'hybrid_inverter' then case d.protocol_id ${sql.join(cases, sql` `)} end end, 0)`;
})();

const LONG_RANGE_MS = 7 * 86_400_000;
const MEDIUM_RANGE_MS = 86_400_000;

export interface DailyEnergy {
  day: string;
  energyWh: number;
}

/**
 * A device's lifetime energy, for a query that names device_realtime `r`: its newest counter plus every
 * fall of the counter (resets, in device_energy_daily.drop_wh), so a reset never lowers it (= the first
 * counter + Σ of its days' energy).
 */
export const LIFETIME_WH: SQL = sql`(r.energy_total_wh + coalesce((select sum(x.drop_wh) from device_energy_daily x where x.device_id = r.device_id and x.drop_wh > 0), 0))`;

/** Reads for charts and lists: curves (downsampled), energy by day/month/year, realtime snapshots. */
export function createTelemetryQueries(db: Database) {
  /**
   * The live summary lists sort on: generating devices' PV power (hybrids less their battery; devices
   * that are Offline count 0, the rule of the plant overview, plantPowerNow) and
   * lifetime counters summed, today's
   * energy in the plant's own day, the latest report time.
   */
  async function refreshPlantSummaries(plantIds: readonly number[]): Promise<void> {
    if (plantIds.length === 0) return;
    await db.execute(sql`
      update plants p set power_w = s.power_w, energy_total_wh = s.energy_total_wh, last_update_at = s.ts,
        energy_today_wh = (select e.energy_wh from plant_energy_daily e where e.plant_id = p.id and e.day = (now() at time zone p.timezone)::date)
      from (
        select d.plant_id, max(r.ts) as ts,
               -- Power counts only while a device is not Offline: a silent plant shows 0 W, as its overview does.
               coalesce(sum(r.power_w - ${HYBRID_BATTERY_W}) filter (where d.family = any(${sql.param([...GENERATING_FAMILIES])}::text[]) and d.status <> ${DeviceStatus.OFFLINE}),
                        case when bool_or(d.family = any(${sql.param([...GENERATING_FAMILIES])}::text[])) then 0 end) as power_w,
               sum(${LIFETIME_WH}) filter (where d.family = any(${sql.param([...GENERATING_FAMILIES])}::text[])) as energy_total_wh
        from devices d join device_realtime r on r.device_id = d.id
        where d.plant_id = any(${sql.param([...plantIds])}::int[])
        group by d.plant_id
      ) s where p.id = s.plant_id`);
  }

  return {
    /**
     * One point of a device between two instants, downsampled to about `maxPoints` (LTTB). Ranges
     * longer than a day read 5-minute averages, longer than a week hourly averages, up to the tier's
     * watermark and raw readings after it: a year is ~8,800 rows instead of 105,000.
     */
    async deviceCurve(deviceId: number, from: Date, to: Date, pointIndex: number, maxPoints: number): Promise<SeriesPoint[]> {
      const span = to.getTime() - from.getTime();
      const index = pointIndex + 1;
      // Over a week: hourly averages; over a day: 5-minute averages; then raw after the tier's watermark.
      const tier =
        span > LONG_RANGE_MS
          ? { name: 'hourly', table: sql.raw('readings_hourly'), column: sql.raw('hour') }
          : span > MEDIUM_RANGE_MS
            ? { name: '5m', table: sql.raw('readings_5m'), column: sql.raw('bucket') }
            : undefined;
      const rows = await queryRows<{ t: number | string; v: number | null }>(
        db,
        tier
          ? sql`with mark as (select coalesce((select watermark from job_state where name = ${tier.name}), ${from.toISOString()}::timestamptz) as w)
              select (extract(epoch from ${tier.column}) * 1000)::float8 as t, values[${index}]::float8 as v
                from ${tier.table}, mark where device_id = ${deviceId} and ${tier.column} >= ${from.toISOString()}::timestamptz and ${tier.column} < least(mark.w, ${to.toISOString()}::timestamptz)
              union all
              select (extract(epoch from ts) * 1000)::float8, values[${index}]::float8
                from readings, mark where device_id = ${deviceId} and ts >= greatest(mark.w, ${from.toISOString()}::timestamptz) and ts < ${to.toISOString()}::timestamptz
              order by 1`
          : sql`select (extract(epoch from ts) * 1000)::float8 as t, values[${index}]::float8 as v
              from readings where device_id = ${deviceId} and ts >= ${from.toISOString()}::timestamptz and ts < ${to.toISOString()}::timestamptz order by ts`,
      );
      const series: SeriesPoint[] = rows.map((r) => [Number(r.t), r.v === null || Number.isNaN(r.v) ? null : Number(r.v)]);
      return lttb(series, maxPoints);
    },

    /** A device's energy per plant-local day (the rollup of the energy model), days with readings only. */
    async deviceDailyEnergy(deviceId: number, fromDay: string, toDay: string): Promise<DailyEnergy[]> {
      return queryRows<DailyEnergy>(
        db,
        sql`select to_char(day, 'YYYY-MM-DD') as "day", energy_wh::float8 as "energyWh" from device_energy_daily
            where device_id = ${deviceId} and day between ${fromDay}::date and ${toDay}::date and last_wh is not null order by day`,
      );
    },

    async plantDailyEnergy(plantId: number, fromDay: string, toDay: string): Promise<DailyEnergy[]> {
      return queryRows<DailyEnergy>(
        db,
        sql`select to_char(day, 'YYYY-MM-DD') as "day", energy_wh::float8 as "energyWh" from plant_energy_daily
            where plant_id = ${plantId} and day between ${fromDay}::date and ${toDay}::date order by day`,
      );
    },

    async plantMonthlyEnergy(plantId: number, year: number): Promise<{ month: string; energyWh: number }[]> {
      return queryRows(
        db,
        sql`select to_char(date_trunc('month', day), 'YYYY-MM') as "month", sum(energy_wh)::float8 as "energyWh" from plant_energy_daily
            where plant_id = ${plantId} and day >= make_date(${year}, 1, 1) and day < make_date(${year + 1}, 1, 1)
            group by 1 order by 1`,
      );
    },

    /** What lists and maps show per device: time, power, energy counter, SOC (not the point arrays). */
    async realtimeSnapshot(deviceIds: readonly number[]) {
      if (deviceIds.length === 0) return [];
      return queryRows<{ deviceId: number; ts: Date; powerW: number | null; energyTotalWh: number | null; soc: number | null }>(
        db,
        sql`select device_id as "deviceId", ts, power_w as "powerW", energy_total_wh as "energyTotalWh", soc
            from device_realtime where device_id = any(${`{${deviceIds.join(',')}}`}::int[])`,
      );
    },

    /** Every point of one device's latest reading (its detail page), in storage order. */
    async realtimeValues(deviceId: number): Promise<{ ts: Date; values: number[] } | undefined> {
      const [row] = await queryRows<{ ts: Date; values: number[] }>(
        db,
        sql`select r.ts, ${LATEST_VALUES} as values from device_realtime r where r.device_id = ${deviceId}`,
      );
      return row;
    },

    /**
     * Recomputes the plant-days whose device-days changed (called by the pipeline, a few seconds behind):
     * a plant-day is the sum of its generating devices' days, so plant = Σ devices by construction.
     */
    async refreshPlantDays(plantDays: readonly { plantId: number; day: string }[]): Promise<void> {
      if (plantDays.length === 0) return;
      await db.execute(sql`
        insert into plant_energy_daily (plant_id, day, energy_wh)
        select pd.plant_id, pd.day, coalesce(sum(e.energy_wh), 0)
        from unnest(${sql.param(plantDays.map((p) => p.plantId))}::int[], ${sql.param(plantDays.map((p) => p.day))}::date[]) as pd(plant_id, day)
        left join devices d on d.plant_id = pd.plant_id and d.family = any(${sql.param([...GENERATING_FAMILIES])}::text[])
        left join device_energy_daily e on e.device_id = d.id and e.day = pd.day
        group by pd.plant_id, pd.day
        on conflict (plant_id, day) do update set energy_wh = excluded.energy_wh`);
      // Each device's newest day and its energy, on its realtime row, so device lists sort on a column (a
      // catch-up over several days ends on the newest). The rows are locked in device order first, the
      // order ingest batches write them in, so the two never deadlock.
      await db.execute(sql`
        with locked as (
          select l.device_id from device_realtime l join devices d on d.id = l.device_id
          where d.plant_id = any(${sql.param([...new Set(plantDays.map((p) => p.plantId))])}::int[])
          order by l.device_id for update of l
        )
        update device_realtime r set energy_day = e.day, energy_today_wh = e.energy_wh
        from locked cross join lateral (
          select x.day, x.energy_wh from device_energy_daily x
          where x.device_id = locked.device_id and x.last_wh is not null order by x.day desc limit 1
        ) e
        where r.device_id = locked.device_id and (r.energy_day is distinct from e.day or r.energy_today_wh is distinct from e.energy_wh)`);
      await refreshPlantSummaries([...new Set(plantDays.map((p) => p.plantId))]);
    },

    refreshPlantSummaries,
  };
}

export type TelemetryQueries = ReturnType<typeof createTelemetryQueries>;
