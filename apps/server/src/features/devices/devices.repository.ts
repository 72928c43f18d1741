import type { DeviceListQuery } from '@sunward/contracts/devices';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows } from '../../db/rows.js';
import { deviceRealtime, devices, gateways, plants, readings } from '../../db/schema.js';
import { LATEST_VALUES, LIFETIME_WH } from '../../ingest/telemetry-query.repository.js';
import type { AuthContext } from '../../plugins/auth.js';
import { deviceVisibleCondition } from './device-access.js';

/** A device as lists and detail pages read it (one row of devices with its plant, gateway and realtime). */
export interface DeviceRecord {
  id: number;
  sn: string;
  alias: string | null;
  family: string;
  protocolId: string;
  brand: string | null;
  model: string | null;
  firmwareVersion: string | null;
  ratedPowerW: number | null;
  plantId: number | null;
  plantName: string | null;
  timezone: string;
  companyId: number | null;
  gatewaySn: string | null;
  status: number;
  powerW: number | null;
  energyTodayWh: number | null;
  energyTotalWh: number | null;
  soc: number | null;
  lastReportAt: Date | null;
  parentId: number | null;
  slaveCount: number;
  mainMeter: boolean;
  settings: Record<string, unknown> | null;
  values: number[] | null;
}

/** The columns of a device record as `records` selects them, typed from the schema. */
const RECORD = {
  id: devices.id,
  sn: devices.sn,
  alias: devices.alias,
  family: devices.family,
  protocol_id: devices.protocolId,
  brand: devices.brand,
  model: devices.model,
  firmware_version: devices.firmwareVersion,
  rated_power_w: devices.ratedPowerW,
  plant_id: devices.plantId,
  plant_name: nullable(plants.name),
  timezone: computed.text,
  /** The plant's company, else the gateway's. */
  company_id: nullable(computed.number),
  gateway_sn: nullable(gateways.sn),
  status: devices.status,
  power_w: nullable(deviceRealtime.powerW),
  energy_total_wh: nullable(computed.number),
  soc: nullable(deviceRealtime.soc),
  last_report_at: nullable(deviceRealtime.ts),
  parent_id: devices.parentId,
  main_meter: devices.mainMeter,
  settings: nullable(computed.json<Record<string, unknown>>()),
  energy_today_wh: nullable(computed.number),
  slave_count: computed.number,
  values: nullable(computed.numbers),
};

// Today's energy of a device in its plant's day, as the plant-day refresh keeps it on the realtime row
// (a few seconds behind the reports); none until the device reports on its new day.
const ENERGY_TODAY = sql`(case when r.energy_day = (now() at time zone coalesce(p.timezone, 'UTC'))::date then r.energy_today_wh end)`;

const SORTS: Record<DeviceListQuery['sort'], SQL> = {
  sn: sql`d.sn`,
  alias: sql`d.alias`,
  status: sql`d.status`,
  powerW: sql`r.power_w`,
  energyTodayWh: ENERGY_TODAY,
  energyTotalWh: LIFETIME_WH,
  lastReportAt: sql`r.ts`,
  plantName: sql`p.name`,
};

export interface DeviceFilter {
  families: readonly string[];
  query: Omit<DeviceListQuery, 'page' | 'size' | 'sort' | 'order'>;
  /** Spec 01 §3 type codes per protocol: the type filter becomes a protocol filter. */
  protocolsOfType?: readonly string[];
}

/** An ilike pattern for a substring, with the pattern characters of the text taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function whereOf(auth: AuthContext, filter: DeviceFilter, withStatus: boolean): SQL {
  const q = filter.query;
  const parts: SQL[] = [sql`d.family = any(${sql.param([...filter.families])}::text[])`, deviceVisibleCondition(auth)];
  if (q.keyword) parts.push(sql`(d.sn ilike ${contains(q.keyword)} or d.alias ilike ${contains(q.keyword)})`);
  if (withStatus && q.status && q.status.length > 0) parts.push(sql`d.status = any(${sql.param(q.status)}::int[])`);
  if (q.plantId) parts.push(sql`d.plant_id = ${q.plantId}`);
  if (q.plantName) parts.push(sql`p.name ilike ${contains(q.plantName)}`);
  if (q.brand) parts.push(sql`d.brand ilike ${contains(q.brand)}`);
  if (q.model) parts.push(sql`d.model ilike ${contains(q.model)}`);
  if (filter.protocolsOfType) parts.push(sql`d.protocol_id = any(${sql.param([...filter.protocolsOfType])}::text[])`);
  return sql.join(parts, sql` and `);
}

const FROM = sql`devices d left join plants p on p.id = d.plant_id left join device_realtime r on r.device_id = d.id`;

/** SQL for device lists and detail pages, every read filtered by the caller's visibility. */
export function createDevicesRepository(db: Database) {
  async function records(where: SQL, withValues: boolean): Promise<DeviceRecord[]> {
    const rows = await sqlRows(
      db,
      RECORD,
      sql`select d.id, d.sn, d.alias, d.family, d.protocol_id, d.brand, d.model, d.firmware_version, d.rated_power_w, d.plant_id, p.name as plant_name,
                 coalesce(p.timezone, 'UTC') as timezone, coalesce(p.company_id, g.company_id) as company_id, g.sn as gateway_sn, d.status,
                 r.power_w, ${LIFETIME_WH}::float8 as energy_total_wh, r.soc, r.ts as last_report_at, d.parent_id, d.main_meter, d.settings,
                 ${ENERGY_TODAY} as energy_today_wh,
                 (select count(*) from devices s where s.parent_id = d.id)::int as slave_count
                 ${withValues ? sql`, ${LATEST_VALUES} as values` : sql`, null as values`}
          from ${FROM} left join gateways g on g.id = d.gateway_id
          where ${where}`,
    );
    return rows.map((r) => ({
      id: r.id,
      sn: r.sn,
      alias: r.alias,
      family: r.family,
      protocolId: r.protocol_id,
      brand: r.brand,
      model: r.model,
      firmwareVersion: r.firmware_version,
      ratedPowerW: r.rated_power_w,
      plantId: r.plant_id,
      plantName: r.plant_name,
      timezone: r.timezone,
      companyId: r.company_id,
      gatewaySn: r.gateway_sn,
      status: r.status,
      powerW: r.power_w,
      energyTodayWh: r.energy_today_wh,
      energyTotalWh: r.energy_total_wh,
      soc: r.soc,
      lastReportAt: r.last_report_at,
      parentId: r.parent_id,
      slaveCount: r.slave_count,
      mainMeter: r.main_meter,
      settings: r.settings,
      values: withValues ? r.values : null,
    }));
  }

  return {
    /** One page: ids in the asked order first (so today's energy is computed for the page only, unless sorted by it). */
    async page(auth: AuthContext, filter: DeviceFilter, sort: DeviceListQuery['sort'], order: 'asc' | 'desc', page: number, size: number) {
      const where = whereOf(auth, filter, true);
      const direction = order === 'desc' ? sql`desc nulls last` : sql`asc nulls first`;
      const [ids, total] = await Promise.all([
        sqlRows(
          db,
          { id: devices.id },
          sql`select d.id from ${FROM} where ${where} order by ${SORTS[sort]} ${direction}, d.id limit ${size} offset ${(page - 1) * size}`,
        ),
        sqlRows(db, { n: computed.number }, sql`select count(*)::int as n from ${FROM} where ${where}`),
      ]);
      const list = ids.map((r) => r.id);
      const byId = new Map(
        (list.length === 0 ? [] : await records(sql`d.id = any(${sql.param(list)}::int[])`, true)).map((r) => [r.id, r]),
      );
      return { rows: list.flatMap((id) => byId.get(id) ?? []), total: total[0]?.n ?? 0 };
    },

    /** Every matching device for an export, or 'tooMany' above `limit`. */
    async all(auth: AuthContext, filter: DeviceFilter, limit: number): Promise<DeviceRecord[] | 'tooMany'> {
      const ids = await sqlRows(
        db,
        { id: devices.id },
        sql`select d.id from ${FROM} where ${whereOf(auth, filter, true)} order by d.sn limit ${limit + 1}`,
      );
      if (ids.length > limit) return 'tooMany';
      if (ids.length === 0) return [];
      return (await records(sql`d.id = any(${sql.param(ids.map((r) => r.id))}::int[])`, false)).sort((a, b) => a.sn.localeCompare(b.sn));
    },

    /** How many devices match, for an export's progress. */
    async count(auth: AuthContext, filter: DeviceFilter): Promise<number> {
      const [row] = await sqlRows(
        db,
        { n: computed.number },
        sql`select count(*)::int as n from ${FROM} where ${whereOf(auth, filter, true)}`,
      );
      return row?.n ?? 0;
    },

    /** The next `limit` matching devices by SN after `afterSn` (keyset: each batch costs the same however deep). */
    async batch(auth: AuthContext, filter: DeviceFilter, afterSn: string | null, limit: number): Promise<DeviceRecord[]> {
      const after = afterSn === null ? sql`true` : sql`d.sn > ${afterSn}`;
      const ids = await sqlRows(
        db,
        { id: devices.id },
        sql`select d.id from ${FROM} where ${whereOf(auth, filter, true)} and ${after} order by d.sn limit ${limit}`,
      );
      if (ids.length === 0) return [];
      return (await records(sql`d.id = any(${sql.param(ids.map((r) => r.id))}::int[])`, false)).sort((a, b) =>
        a.sn < b.sn ? -1 : a.sn > b.sn ? 1 : 0,
      );
    },

    /** SNs of devices by id (a battery export's masters outside the batch). */
    async snsOf(ids: readonly number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await sqlRows(
        db,
        { id: devices.id, sn: devices.sn },
        sql`select d.id, d.sn from devices d where d.id = any(${sql.param([...ids])}::int[])`,
      );
      return new Map(rows.map((r) => [r.id, r.sn]));
    },

    /** Counts by status under the same filters (the status filter itself left out, so every count shows). */
    async counts(auth: AuthContext, filter: DeviceFilter): Promise<Map<number, number>> {
      const rows = await sqlRows(
        db,
        { status: devices.status, n: computed.number },
        sql`select d.status, count(*)::int as n from ${FROM} where ${whereOf(auth, filter, false)} group by d.status`,
      );
      return new Map(rows.map((r) => [r.status, r.n]));
    },

    /** A device by SN or id among the given families, regardless of the caller (access is checked after). */
    async find(by: { sn: string } | { id: number }, families: readonly string[]): Promise<DeviceRecord | undefined> {
      // SNs are unique regardless of case (gateways too): what a person types finds the device.
      const key = 'sn' in by ? sql`lower(d.sn) = lower(${by.sn})` : sql`d.id = ${by.id}`;
      const [row] = await records(sql`${key} and d.family = any(${sql.param([...families])}::text[])`, true);
      return row;
    },

    async findMany(ids: readonly number[], families: readonly string[]): Promise<DeviceRecord[]> {
      if (ids.length === 0) return [];
      return records(sql`d.id = any(${sql.param([...ids])}::int[]) and d.family = any(${sql.param([...families])}::text[])`, false);
    },

    async slaves(masterId: number): Promise<{ id: number; sn: string; status: number; soc: number | null }[]> {
      const rows = await sqlRows(
        db,
        { id: devices.id, sn: devices.sn, status: devices.status, soc: nullable(deviceRealtime.soc) },
        sql`select d.id, d.sn, d.status, r.soc from devices d left join device_realtime r on r.device_id = d.id where d.parent_id = ${masterId} order by d.sn`,
      );
      return rows.map((r) => ({ id: r.id, sn: r.sn, status: r.status, soc: r.soc }));
    },

    async setAlias(id: number, alias: string | null): Promise<void> {
      await db.execute(sql`update devices set alias = ${alias} where id = ${id}`);
    },

    /**
     * Deletes devices (and their slave packs); readings go with them (retention drops old partitions).
     * Each is recorded as deleted from its gateway, so ingest refuses it instead of discovering it again.
     */
    async remove(ids: readonly number[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await sqlRows(
        db,
        { sn: devices.sn },
        sql`with gone as (
              delete from devices where id = any(${sql.param([...ids])}::int[]) or parent_id = any(${sql.param([...ids])}::int[])
              returning sn, gateway_id),
            marked as (
              insert into deleted_devices (gateway_id, sn) select gateway_id, sn from gone where gateway_id is not null
              on conflict do nothing)
            select sn from gone`,
      );
      await db.execute(sql`delete from readings where device_id = any(${sql.param([...ids])}::int[])`);
      return rows.map((r) => r.sn);
    },

    /** Makes a meter the plant's main meter (the others of the plant lose the flag), or unsets it. */
    async setMainMeter(id: number, plantId: number, main: boolean): Promise<void> {
      await db.transaction(async (tx) => {
        if (main) await tx.execute(sql`update devices set main_meter = false where plant_id = ${plantId} and main_meter and id <> ${id}`);
        await tx.execute(sql`update devices set main_meter = ${main} where id = ${id}`);
      });
    },

    async saveSettings(id: number, settings: Record<string, unknown>): Promise<void> {
      await db.execute(sql`update devices set settings = ${JSON.stringify(settings)}::jsonb where id = ${id}`);
    },

    /** Stored readings of a device between two instants, newest first (operation data records). */
    async readings(deviceId: number, from: Date, to: Date, page: number, size: number) {
      const [rows, total] = await Promise.all([
        sqlRows(
          db,
          { ts: readings.ts, values: computed.numbers },
          sql`select ts, values from readings where device_id = ${deviceId} and ts >= ${from.toISOString()}::timestamptz and ts < ${to.toISOString()}::timestamptz
              order by ts desc limit ${size} offset ${(page - 1) * size}`,
        ),
        sqlRows(
          db,
          { n: computed.number },
          sql`select count(*)::int as n from readings where device_id = ${deviceId} and ts >= ${from.toISOString()}::timestamptz and ts < ${to.toISOString()}::timestamptz`,
        ),
      ]);
      return {
        rows: rows.map((r) => ({ ts: r.ts, values: r.values })),
        total: total[0]?.n ?? 0,
      };
    },
  };
}

export type DevicesRepository = ReturnType<typeof createDevicesRepository>;
