import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../db/client.js';
import { deviceEnergyDaily, deviceEvents, deviceRealtime, devices, gateways, plants, readings } from '../db/schema.js';

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
  values: number[];
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

// Postgres accepts up to 65,535 parameters per statement: readings use 3 per row.
const MAX_ROWS_PER_INSERT = 5000;

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
     * sequence numbers. Returns the plants whose devices changed.
     */
    async writeBatch(batch: {
      readings: ReadingRow[];
      realtime: RealtimeRow[];
      daily: DailyRow[];
      statuses: DeviceStatusRow[];
      openEvents: { deviceId: number; plantId: number | null; code: number; level: string; at: Date }[];
      clearEvents: { deviceId: number; code: number; at: Date }[];
      gateways: { gatewayId: number; lastSeq: number; gaps: number; at: Date }[];
    }): Promise<number[]> {
      return db.transaction(async (tx) => {
        for (const part of chunks(batch.readings, MAX_ROWS_PER_INSERT)) {
          await tx.insert(readings).values(part).onConflictDoNothing();
        }
        if (batch.realtime.length > 0) {
          await tx
            .insert(deviceRealtime)
            .values(batch.realtime)
            .onConflictDoUpdate({
              target: deviceRealtime.deviceId,
              set: {
                ts: sql`excluded.ts`,
                values: sql`excluded.values`,
                powerW: sql`excluded.power_w`,
                energyTotalWh: sql`excluded.energy_total_wh`,
                soc: sql`excluded.soc`,
              },
              setWhere: sql`${deviceRealtime.ts} < excluded.ts`,
            });
        }
        if (batch.daily.length > 0) {
          await tx
            .insert(deviceEnergyDaily)
            .values(batch.daily)
            .onConflictDoUpdate({
              target: [deviceEnergyDaily.deviceId, deviceEnergyDaily.day],
              set: {
                counterMinWh: sql`least(${deviceEnergyDaily.counterMinWh}, excluded.counter_min_wh)`,
                counterMaxWh: sql`greatest(${deviceEnergyDaily.counterMaxWh}, excluded.counter_max_wh)`,
                peakW: sql`greatest(${deviceEnergyDaily.peakW}, excluded.peak_w)`,
              },
            });
        }
        for (const s of batch.statuses) {
          await tx
            .update(devices)
            .set({ status: s.status, lastReportAt: s.ts })
            .where(and(eq(devices.id, s.deviceId), sql`(${devices.lastReportAt} is null or ${devices.lastReportAt} <= ${s.ts})`));
        }
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
        for (const g of batch.gateways) {
          await tx
            .update(gateways)
            .set({
              lastSeq: sql`greatest(coalesce(${gateways.lastSeq}, 0), ${g.lastSeq})`,
              gapCount: sql`${gateways.gapCount} + ${g.gaps}`,
              lastReportAt: g.at,
            })
            .where(eq(gateways.id, g.gatewayId));
        }
        const deviceIds = [...new Set(batch.statuses.map((s) => s.deviceId))];
        if (deviceIds.length === 0) return [];
        const affected = await tx.selectDistinct({ plantId: devices.plantId }).from(devices).where(inArray(devices.id, deviceIds));
        return affected.map((a) => a.plantId).filter((id): id is number => id !== null);
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
      info: { fw?: string; hw?: string; rssi?: number; comm?: string; iccid?: string; interval?: number },
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
        })
        .where(eq(gateways.id, gatewayId));
    },

    /** Devices silent for longer than `multiple` report intervals of their gateway become offline. */
    async markSilentDevicesOffline(multiple: number, now: Date, offline: number): Promise<number[]> {
      const rows = await queryRows<{ plant_id: number | null }>(
        db,
        sql`
        update ${devices} d set status = ${offline}
        from ${gateways} g
        where g.id = d.gateway_id and d.status <> ${offline}
          and (d.last_report_at is null or d.last_report_at < ${now}::timestamptz - make_interval(secs => g.report_interval_s * ${multiple}))
        returning d.plant_id`,
      );
      return [...new Set(rows.map((r) => r.plant_id).filter((id): id is number => id !== null))];
    },

    /** Monthly partitions of readings for this month and the next ones, created ahead of the data. */
    async ensureReadingPartitions(now: Date, monthsAhead: number): Promise<void> {
      for (let i = 0; i <= monthsAhead; i++) {
        const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1));
        const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
        const name = `readings_${start.getUTCFullYear()}_${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
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
