import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../db/client.js';
import { deviceEnergyDaily, deviceEvents, deviceRealtime, devices, gateways, plants, readings } from '../db/schema.js';
import { readingPartitionName } from './reading-partitions.js';

export interface DeviceRecord {
  id: number;
  sn: string;
  gatewayId: number | null;
  plantId: number | null;
  protocolId: string;
  timezone: string;
}

export interface ReadingRow {
  deviceId: number;
  ts: Date;
  values: number[];
}

export interface RealtimeRow {
  deviceId: number;
  ts: Date;
  powerW: number | null;
  energyTotalWh: number | null;
  soc: number | null;
}

export interface DailyRow {
  deviceId: number;
  day: string;
  counterMinWh: number | null;
  counterMaxWh: number | null;
  peakW: number | null;
}

export interface DeviceStatusRow {
  deviceId: number;
  status: number;
  ts: Date;
}

// Statements stay moderate so one slow batch does not hold a transaction for long.
const MAX_ROWS_PER_STATEMENT = 5000;

const FLOAT4_OID = 700;

/**
 * Every row's values back to back as one real[] in PostgreSQL's binary array format (what array_recv
 * reads), with each row's 1-based [start:end] slice. Floats cross as 4 bytes the server copies instead
 * of text it parses: the readings insert took half the time. NaN (an absent point) is a valid real.
 */
export function packValues(rows: readonly { values: readonly number[] }[]): { packed: Buffer; starts: number[]; ends: number[] } {
  let count = 0;
  for (const row of rows) count += row.values.length;
  const packed = Buffer.allocUnsafe(count === 0 ? 12 : 20 + 8 * count);
  packed.writeInt32BE(count === 0 ? 0 : 1, 0); // dimensions
  packed.writeInt32BE(0, 4); // no nulls
  packed.writeInt32BE(FLOAT4_OID, 8);
  const starts: number[] = [];
  const ends: number[] = [];
  if (count === 0) {
    for (const _ of rows) {
      starts.push(1);
      ends.push(0);
    }
    return { packed, starts, ends };
  }
  packed.writeInt32BE(count, 12); // length of the dimension
  packed.writeInt32BE(1, 16); // its lower bound
  let offset = 20;
  let position = 0;
  for (const row of rows) {
    starts.push(position + 1);
    for (const value of row.values) {
      packed.writeInt32BE(4, offset);
      packed.writeFloatBE(value, offset + 4);
      offset += 8;
    }
    position += row.values.length;
    ends.push(position);
  }
  return { packed, starts, ends };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** All SQL of the ingest pipeline. */
export function createTelemetryRepository(db: Database) {
  // A device with the time zone of its plant, which sets its day boundaries.
  const selectDeviceRecords = () =>
    db
      .select({
        id: devices.id,
        sn: devices.sn,
        gatewayId: devices.gatewayId,
        plantId: devices.plantId,
        protocolId: devices.protocolId,
        timezone: sql<string>`coalesce(${plants.timezone}, 'UTC')`,
      })
      .from(devices)
      .leftJoin(plants, eq(plants.id, devices.plantId));

  return {
    async gatewayCredentials(sn: string) {
      const [row] = await db.select({ id: gateways.id, keyHash: gateways.keyHash }).from(gateways).where(eq(gateways.sn, sn));
      return row;
    },

    async loadDevices(): Promise<DeviceRecord[]> {
      return selectDeviceRecords();
    },

    /**
     * Registers a device a gateway reported for the first time, under the gateway's plant, unless the
     * serial number is taken or the gateway already has `maxPerGateway` devices. True when added.
     */
    async discoverDevice(
      sn: string,
      gatewayId: number,
      protocolId: string,
      family: string,
      maxPerGateway: number,
      parentSn?: string,
    ): Promise<boolean> {
      // A slave pack's master must be a device of the same gateway, else the link is ignored.
      const parent = parentSn ? sql`(select p.id from devices p where p.sn = ${parentSn} and p.gateway_id = ${gatewayId})` : sql`null::int`;
      const rows = await queryRows<{ id: number }>(
        db,
        sql`insert into devices (sn, gateway_id, plant_id, family, protocol_id, model, parent_id)
            select ${sn}, g.id, g.plant_id, ${family}, ${protocolId}, ${protocolId}, ${parent} from gateways g
            where g.id = ${gatewayId} and (select count(*) from devices d where d.gateway_id = g.id) < ${maxPerGateway}
            on conflict (sn) do nothing returning id`,
      );
      return rows.length > 0;
    },

    /** Brand, model and firmware as the devices report them (only sent when they change). */
    async updateNameplates(
      rows: readonly { deviceId: number; brand: string | null; model: string | null; firmware: string | null }[],
    ): Promise<void> {
      await db.execute(sql`update devices d set brand = coalesce(n.brand, d.brand), model = coalesce(n.model, d.model),
          firmware_version = coalesce(n.firmware, d.firmware_version)
        from unnest(${sql.param(rows.map((r) => r.deviceId))}::int[], ${sql.param(rows.map((r) => r.brand))}::text[],
                    ${sql.param(rows.map((r) => r.model))}::text[], ${sql.param(rows.map((r) => r.firmware))}::text[]) as n(id, brand, model, firmware)
        where d.id = n.id`);
    },

    async findDevice(sn: string): Promise<DeviceRecord | undefined> {
      const [row] = await selectDeviceRecords().where(eq(devices.sn, sn));
      return row;
    },

    async openEvents(): Promise<{ deviceId: number; code: number }[]> {
      return db
        .select({ deviceId: deviceEvents.deviceId, code: deviceEvents.code })
        .from(deviceEvents)
        .where(isNull(deviceEvents.clearedAt));
    },

    /**
     * Stores one batch in one transaction: raw readings (a redelivered one is a no-op), the realtime
     * snapshot (only moving forward in time), daily counters, device statuses, events and gateway
     * sequence numbers. Returns the devices whose status changed.
     */
    async writeBatch(batch: {
      readings: ReadingRow[];
      realtime: RealtimeRow[];
      daily: DailyRow[];
      statuses: DeviceStatusRow[];
      openEvents: { deviceId: number; plantId: number | null; code: number; level: string; at: Date }[];
      clearEvents: { deviceId: number; code: number; at: Date }[];
      gateways: { gatewayId: number; lastSeq: number; gaps: number; at: Date }[];
    }): Promise<{ statusChanges: { deviceId: number; plantId: number | null }[] }> {
      return db.transaction(async (tx) => {
        // Column arrays through unnest: one parameter per column instead of three per row, several
        // times faster than multi-row VALUES. The values travel packed in one binary array, sliced per row.
        for (const part of chunks(batch.readings, MAX_ROWS_PER_STATEMENT)) {
          const { packed, starts, ends } = packValues(part);
          await tx.execute(sql`
            insert into ${readings} (device_id, ts, values)
            select d, t, (${sql.param(packed)}::real[])[s:e]
            from unnest(${sql.param(part.map((r) => r.deviceId))}::int[], ${sql.param(part.map((r) => r.ts.toISOString()))}::timestamptz[],
                        ${sql.param(starts)}::int[], ${sql.param(ends)}::int[]) as rows(d, t, s, e)
            on conflict do nothing`);
        }
        if (batch.realtime.length > 0) {
          const rt = batch.realtime;
          await tx.execute(sql`
            insert into ${deviceRealtime} (device_id, ts, power_w, energy_total_wh, soc)
            select d, t, p, e, s
            from unnest(${sql.param(rt.map((r) => r.deviceId))}::int[], ${sql.param(rt.map((r) => r.ts.toISOString()))}::timestamptz[],
                        ${sql.param(rt.map((r) => r.powerW))}::float8[], ${sql.param(rt.map((r) => r.energyTotalWh))}::float8[],
                        ${sql.param(rt.map((r) => r.soc))}::real[]) as rows(d, t, p, e, s)
            on conflict (device_id) do update set ts = excluded.ts, power_w = excluded.power_w,
              energy_total_wh = excluded.energy_total_wh, soc = excluded.soc
            where ${deviceRealtime.ts} < excluded.ts`);
        }
        if (batch.daily.length > 0) {
          await tx.execute(sql`
            insert into ${deviceEnergyDaily} (device_id, day, counter_min_wh, counter_max_wh, peak_w)
            select * from unnest(${sql.param(batch.daily.map((r) => r.deviceId))}::int[], ${sql.param(batch.daily.map((r) => r.day))}::date[],
                                 ${sql.param(batch.daily.map((r) => r.counterMinWh))}::float8[], ${sql.param(batch.daily.map((r) => r.counterMaxWh))}::float8[],
                                 ${sql.param(batch.daily.map((r) => r.peakW))}::float8[])
            on conflict (device_id, day) do update set
              counter_min_wh = least(${deviceEnergyDaily.counterMinWh}, excluded.counter_min_wh),
              counter_max_wh = greatest(${deviceEnergyDaily.counterMaxWh}, excluded.counter_max_wh),
              peak_w = greatest(${deviceEnergyDaily.peakW}, excluded.peak_w)`);
        }
        // A device row is rewritten only when its status changes, and only by its newest reading (the
        // realtime row above already holds the newest time): the report time itself lives in device_realtime.
        // Writing every device on every report cost as much as storing the readings.
        const changed =
          batch.statuses.length === 0
            ? []
            : await queryRows<{ id: number; plant_id: number | null }>(
                tx,
                sql`
            update ${devices} d set status = v.status
            from unnest(${sql.param(batch.statuses.map((s) => s.deviceId))}::int[], ${sql.param(batch.statuses.map((s) => s.status))}::smallint[],
                        ${sql.param(batch.statuses.map((s) => s.ts.toISOString()))}::timestamptz[]) as v(id, status, ts)
            where d.id = v.id and d.status <> v.status
              and v.ts >= (select r.ts from ${deviceRealtime} r where r.device_id = d.id)
            returning d.id, d.plant_id`,
              );
        if (batch.openEvents.length > 0) {
          await tx
            .insert(deviceEvents)
            .values(
              batch.openEvents.map((e) => ({ deviceId: e.deviceId, plantId: e.plantId, code: e.code, level: e.level, openedAt: e.at })),
            )
            .onConflictDoNothing();
        }
        for (const e of batch.clearEvents) {
          await tx
            .update(deviceEvents)
            .set({ clearedAt: e.at })
            .where(and(eq(deviceEvents.deviceId, e.deviceId), eq(deviceEvents.code, e.code), isNull(deviceEvents.clearedAt)));
        }
        if (batch.gateways.length > 0) {
          await tx.execute(sql`
            update ${gateways} g set last_seq = greatest(coalesce(g.last_seq, 0), v.seq), gap_count = g.gap_count + v.gaps, last_report_at = v.at
            from (select unnest(${sql.param(batch.gateways.map((g) => g.gatewayId))}::int[]) as id,
                         unnest(${sql.param(batch.gateways.map((g) => g.lastSeq))}::int[]) as seq,
                         unnest(${sql.param(batch.gateways.map((g) => g.gaps))}::int[]) as gaps,
                         unnest(${sql.param(batch.gateways.map((g) => g.at.toISOString()))}::timestamptz[]) as at) v
            where g.id = v.id`);
        }
        return { statusChanges: changed.map((r) => ({ deviceId: r.id, plantId: r.plant_id })) };
      });
    },

    /** Recomputes plant statuses from their devices' (the worst wins). */
    async plantDeviceStatuses(plantIds: readonly number[]): Promise<{ plantId: number; statuses: number[] }[]> {
      if (plantIds.length === 0) return [];
      const rows = await db
        .select({ plantId: devices.plantId, status: devices.status })
        .from(devices)
        .where(inArray(devices.plantId, [...plantIds]));
      const byPlant = new Map<number, number[]>();
      for (const r of rows) if (r.plantId !== null) byPlant.set(r.plantId, [...(byPlant.get(r.plantId) ?? []), r.status]);
      return [...byPlant].map(([plantId, statuses]) => ({ plantId, statuses }));
    },

    async setPlantStatus(plantId: number, status: number): Promise<void> {
      await db.update(plants).set({ status }).where(eq(plants.id, plantId));
    },

    async setGatewayPresence(gatewayId: number, presence: { online: boolean; at: Date; ip?: string | null }) {
      await db
        .update(gateways)
        .set({
          online: presence.online,
          status: presence.online ? 1 : 2,
          ...(presence.online ? { lastOnlineAt: presence.at, lastIp: presence.ip ?? null } : {}),
        })
        .where(eq(gateways.id, gatewayId));
    },

    async setGatewayInfo(
      gatewayId: number,
      info: {
        fw?: string;
        hw?: string;
        rssi?: number;
        comm?: string;
        iccid?: string;
        interval?: number;
        config?: { serverAddress: string; locked: boolean; digitalOutput: boolean; passwordSetAt?: number };
      },
    ) {
      await db
        .update(gateways)
        .set({
          ...(info.fw !== undefined ? { fwVersion: info.fw } : {}),
          ...(info.hw !== undefined ? { hwVersion: info.hw } : {}),
          ...(info.rssi !== undefined ? { rssi: info.rssi } : {}),
          ...(info.comm !== undefined ? { commType: info.comm } : {}),
          ...(info.iccid !== undefined ? { iccid: info.iccid } : {}),
          ...(info.interval !== undefined ? { reportIntervalS: info.interval } : {}),
          // The gateway's settings as it reports them: a change made on the gateway itself is seen too.
          ...(info.config
            ? {
                serverAddress: info.config.serverAddress,
                locked: info.config.locked,
                digitalOutput: info.config.digitalOutput,
                ...(info.config.passwordSetAt !== undefined ? { connectionPasswordAt: new Date(info.config.passwordSetAt) } : {}),
              }
            : {}),
        })
        .where(eq(gateways.id, gatewayId));
    },

    /** Devices silent for longer than `multiple` report intervals of their gateway become offline. */
    async markSilentDevicesOffline(multiple: number, now: Date, offline: number): Promise<{ plantIds: number[] }> {
      const rows = await queryRows<{ plant_id: number | null }>(
        db,
        sql`
        update ${devices} d set status = ${offline}
        from ${gateways} g
        where g.id = d.gateway_id and d.status <> ${offline}
          and not exists (select 1 from ${deviceRealtime} r where r.device_id = d.id
                          and r.ts >= ${now}::timestamptz - make_interval(secs => g.report_interval_s * ${multiple}))
        returning d.plant_id`,
      );
      return { plantIds: [...new Set(rows.map((r) => r.plant_id).filter((id): id is number => id !== null))] };
    },

    /** Monthly partitions of readings for this month and the next ones, created ahead of the data. */
    async ensureReadingPartitions(now: Date, monthsAhead: number): Promise<void> {
      for (let i = 0; i <= monthsAhead; i++) {
        const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1));
        const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
        const name = readingPartitionName(start);
        const exists = await queryRows<{ n: number }>(db, sql`select 1 as n from pg_class where relname = ${name}`);
        if (exists.length > 0) continue;
        // Rows already in the default partition for that month would block the new partition: move them.
        await db.transaction(async (tx) => {
          await tx.execute(sql.raw(`create table "${name}" (like readings including defaults)`));
          await tx.execute(
            sql.raw(
              `with moved as (delete from readings_default where ts >= '${start.toISOString()}' and ts < '${end.toISOString()}' returning *) insert into "${name}" select * from moved`,
            ),
          );
          await tx.execute(
            sql.raw(
              `alter table readings attach partition "${name}" for values from ('${start.toISOString()}') to ('${end.toISOString()}')`,
            ),
          );
        });
      }
    },
  };
}

export type TelemetryRepository = ReturnType<typeof createTelemetryRepository>;
