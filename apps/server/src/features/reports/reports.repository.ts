import type { ReportConfig, ReportParameter, ReportPeriod, ReportRecipient, ReportSchedule, ReportSend } from '@sunward/contracts/reports';
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.js';
import { companies, emailDeliveries, reportConfigs, reportSchedules, reportSends } from '../../db/schema.js';

const iso = (v: unknown): string => new Date(v as string).toISOString();
const isoOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : iso(v));

/** Each plant's own local bounds of the period, for the events and device energy of several zones at once. */
export interface PlantBounds {
  plantId: number;
  fromDay: string;
  toDay: string;
  fromMs: number;
  toMs: number;
}

function boundsTable(bounds: readonly PlantBounds[]) {
  return sql`b as (select * from unnest(${sql.param(bounds.map((b) => b.plantId))}::int[], ${sql.param(bounds.map((b) => b.fromDay))}::date[],
    ${sql.param(bounds.map((b) => b.toDay))}::date[], ${sql.param(bounds.map((b) => new Date(b.fromMs).toISOString()))}::timestamptz[],
    ${sql.param(bounds.map((b) => new Date(b.toMs).toISOString()))}::timestamptz[]) as b(plant_id, from_day, to_day, from_ts, to_ts))`;
}

type ScheduleRow = typeof reportSchedules.$inferSelect;

function scheduleOf(r: ScheduleRow): ReportSchedule {
  return {
    id: r.id,
    scope: r.scope === 'customer' ? 'customer' : 'plant',
    plantId: r.plantId,
    customerId: r.customerId,
    targetName: r.targetName,
    configId: r.configId,
    frequency: r.frequency === 'weekly' ? 'weekly' : 'monthly',
    format: r.format === 'xlsx' ? 'xlsx' : 'pdf',
    recipients: r.recipients as ReportRecipient[],
    enabled: r.enabled,
    disabledReason: r.disabledReason,
    nextRunAt: r.nextRunAt.toISOString(),
    lastRunAt: r.lastRunAt?.toISOString() ?? null,
  };
}

function configOf(r: typeof reportConfigs.$inferSelect): ReportConfig {
  return {
    id: r.id,
    plantId: r.plantId,
    name: r.name,
    period: r.period as ReportPeriod,
    parameters: r.parameters as ReportParameter[],
    units: r.units,
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** All SQL of reports: devices, device-days and events of the reported plants, configurations, schedules, sends. */
export function createReportsRepository(db: Database) {
  return {
    /** The plants assigned to a customer of the company (undefined: no such customer there; any company for null). */
    async customerPlants(customerId: number, companyId: number | null): Promise<{ name: string; plantIds: number[] } | undefined> {
      const rows = await queryRows<{ name: string; plant_id: number | null }>(
        db,
        sql`select c.name, cp.plant_id from company_customers c left join company_customer_plants cp on cp.customer_id = c.id
            where c.id = ${customerId} ${companyId === null ? sql`` : sql`and c.company_id = ${companyId}`} order by cp.plant_id`,
      );
      const [first] = rows;
      if (!first) return undefined;
      return { name: first.name, plantIds: rows.flatMap((r) => (r.plant_id === null ? [] : [Number(r.plant_id)])) };
    },

    async plantInfo(plantId: number): Promise<{ name: string; timezone: string } | undefined> {
      const [row] = await queryRows<{ name: string; timezone: string }>(db, sql`select name, timezone from plants where id = ${plantId}`);
      return row;
    },

    async devices(plantIds: readonly number[]) {
      if (plantIds.length === 0) return [];
      const rows = await queryRows<Record<string, unknown>>(
        db,
        sql`select id, plant_id, sn, alias, family, model, rated_power_w from devices
            where plant_id = any(${sql.param([...plantIds])}::int[]) order by plant_id, family, sn`,
      );
      return rows.map((r) => ({
        id: Number(r.id),
        plantId: Number(r.plant_id),
        sn: String(r.sn),
        alias: r.alias === null ? null : String(r.alias),
        family: String(r.family),
        model: r.model === null ? null : String(r.model),
        ratedPowerW: r.rated_power_w === null ? null : Number(r.rated_power_w),
      }));
    },

    /** Each device's energy over its plant's days of the period (the daily rollup, never raw readings). */
    async deviceEnergy(bounds: readonly PlantBounds[]): Promise<Map<number, number>> {
      if (bounds.length === 0) return new Map();
      const rows = await queryRows<{ device_id: number; energy_wh: number }>(
        db,
        sql`with ${boundsTable(bounds)}
            select e.device_id, sum(e.energy_wh)::float8 as energy_wh from b
              join devices d on d.plant_id = b.plant_id
              join device_energy_daily e on e.device_id = d.id and e.day between b.from_day and b.to_day
            group by e.device_id`,
      );
      return new Map(rows.map((r) => [Number(r.device_id), Number(r.energy_wh)]));
    },

    /** One device with its plant's name and zone (a device report's subject). */
    async device(id: number) {
      const [r] = await queryRows<Record<string, unknown>>(
        db,
        sql`select d.id, d.plant_id, d.sn, d.alias, d.family, d.model, d.rated_power_w, d.protocol_id, p.name as plant_name, p.timezone
            from devices d join plants p on p.id = d.plant_id where d.id = ${id}`,
      );
      if (!r) return undefined;
      return {
        id: Number(r.id),
        plantId: Number(r.plant_id),
        sn: String(r.sn),
        alias: r.alias === null ? null : String(r.alias),
        family: String(r.family),
        model: r.model === null ? null : String(r.model),
        ratedPowerW: r.rated_power_w === null ? null : Number(r.rated_power_w),
        protocolId: String(r.protocol_id),
        plantName: String(r.plant_name),
        timezone: String(r.timezone),
      };
    },

    /** Per device: events overlapping the period and the seconds of fault events within it (up to `nowMs`). */
    async deviceEventTimes(bounds: readonly PlantBounds[], nowMs: number, deviceId?: number) {
      if (bounds.length === 0) return [];
      const now = new Date(nowMs).toISOString();
      const rows = await queryRows<{ device_id: number; events: number; fault_s: number }>(
        db,
        sql`with ${boundsTable(bounds)}
            select e.device_id, count(*)::int as events,
              coalesce(sum(extract(epoch from least(coalesce(e.cleared_at, ${now}::timestamptz), b.to_ts, ${now}::timestamptz) - greatest(e.opened_at, b.from_ts)))
                filter (where e.level = 'fault'), 0)::float8 as fault_s
            from b join device_events e on e.plant_id = b.plant_id and e.opened_at < b.to_ts and (e.cleared_at is null or e.cleared_at > b.from_ts)
            ${deviceId === undefined ? sql`` : sql`where e.device_id = ${deviceId}`}
            group by e.device_id`,
      );
      return rows.map((r) => ({ deviceId: Number(r.device_id), events: Number(r.events), faultSeconds: Math.max(0, Number(r.fault_s)) }));
    },

    /** The events overlapping the period, newest first, at most `limit`, and how many there are. */
    async events(bounds: readonly PlantBounds[], nowMs: number, limit: number, deviceId?: number) {
      if (bounds.length === 0) return { total: 0, rows: [] };
      const now = new Date(nowMs).toISOString();
      const rows = await queryRows<Record<string, unknown>>(
        db,
        sql`with ${boundsTable(bounds)}
            select e.plant_id, d.sn, d.protocol_id, e.code, e.level, e.opened_at, e.cleared_at, count(*) over ()::int as total,
              greatest(0, extract(epoch from least(coalesce(e.cleared_at, ${now}::timestamptz), b.to_ts, ${now}::timestamptz) - greatest(e.opened_at, b.from_ts)))::float8 as seconds
            from b join device_events e on e.plant_id = b.plant_id and e.opened_at < b.to_ts and (e.cleared_at is null or e.cleared_at > b.from_ts)
              join devices d on d.id = e.device_id
            ${deviceId === undefined ? sql`` : sql`where e.device_id = ${deviceId}`}
            order by e.opened_at desc, e.id desc limit ${limit}`,
      );
      return {
        total: Number(rows[0]?.total ?? 0),
        rows: rows.map((r) => ({
          plantId: Number(r.plant_id),
          sn: String(r.sn),
          protocolId: String(r.protocol_id),
          code: Number(r.code),
          level: String(r.level),
          openedAt: iso(r.opened_at),
          clearedAt: isoOrNull(r.cleared_at),
          durationSeconds: Number(r.seconds),
        })),
      };
    },

    async brand(companyId: number | null): Promise<{ name: string; logoUrl: string | null; themeColor: string } | undefined> {
      if (companyId === null) return undefined;
      const [row] = await db
        .select({ name: companies.name, logoUrl: companies.logoUrl, themeColor: companies.themeColor })
        .from(companies)
        .where(eq(companies.id, companyId));
      return row;
    },

    /** The account a schedule runs as: its role and company now (a disabled account runs nothing). */
    async owner(userId: number): Promise<{ userId: number; roleKey: string; companyId: number | null; language: string } | undefined> {
      const [row] = await queryRows<{ id: number; role_key: string; company_id: number | null; language: string }>(
        db,
        sql`select u.id, r.key as role_key, u.company_id, u.language from users u join roles r on r.id = u.role_id
            where u.id = ${userId} and u.disabled_at is null`,
      );
      return row
        ? {
            userId: Number(row.id),
            roleKey: row.role_key,
            companyId: row.company_id === null ? null : Number(row.company_id),
            language: row.language,
          }
        : undefined;
    },

    async deviceIdsOfPlant(plantId: number): Promise<Set<number>> {
      const rows = await queryRows<{ id: number }>(db, sql`select id from devices where plant_id = ${plantId}`);
      return new Set(rows.map((r) => Number(r.id)));
    },

    // ---- configurations ----

    async configs(plantId: number): Promise<ReportConfig[]> {
      const rows = await db.select().from(reportConfigs).where(eq(reportConfigs.plantId, plantId)).orderBy(reportConfigs.name);
      return rows.map(configOf);
    },

    async config(id: number): Promise<ReportConfig | undefined> {
      const [row] = await db.select().from(reportConfigs).where(eq(reportConfigs.id, id));
      return row ? configOf(row) : undefined;
    },

    async configNameTaken(plantId: number, name: string, exceptId: number | null): Promise<boolean> {
      const rows = await queryRows<{ id: number }>(
        db,
        sql`select id from report_configs where plant_id = ${plantId} and lower(name) = lower(${name}) ${exceptId === null ? sql`` : sql`and id <> ${exceptId}`}`,
      );
      return rows.length > 0;
    },

    async saveConfig(
      id: number | null,
      values: { plantId: number; name: string; period: ReportPeriod; parameters: ReportParameter[]; units: number[]; createdBy: number },
    ): Promise<ReportConfig> {
      const [row] =
        id === null
          ? await db.insert(reportConfigs).values(values).returning()
          : await db
              .update(reportConfigs)
              .set({ name: values.name, period: values.period, parameters: values.parameters, units: values.units, updatedAt: new Date() })
              .where(eq(reportConfigs.id, id))
              .returning();
      if (!row) throw new Error('report configuration not saved');
      return configOf(row);
    },

    async deleteConfig(id: number): Promise<void> {
      await db.delete(reportConfigs).where(eq(reportConfigs.id, id));
    },

    // ---- schedules ----

    async schedules(ownerId: number): Promise<ReportSchedule[]> {
      const rows = await db.select().from(reportSchedules).where(eq(reportSchedules.ownerId, ownerId)).orderBy(reportSchedules.id);
      return rows.map(scheduleOf);
    },

    async schedule(id: number, ownerId: number | null): Promise<(ReportSchedule & { ownerId: number }) | undefined> {
      const [row] = await db
        .select()
        .from(reportSchedules)
        .where(ownerId === null ? eq(reportSchedules.id, id) : and(eq(reportSchedules.id, id), eq(reportSchedules.ownerId, ownerId)));
      return row ? { ...scheduleOf(row), ownerId: row.ownerId } : undefined;
    },

    async addSchedule(values: typeof reportSchedules.$inferInsert): Promise<ReportSchedule> {
      const [row] = await db.insert(reportSchedules).values(values).returning();
      if (!row) throw new Error('report schedule not saved');
      return scheduleOf(row);
    },

    async deleteSchedule(id: number): Promise<void> {
      await db.delete(reportSchedules).where(eq(reportSchedules.id, id));
    },

    async setSchedule(id: number, values: Partial<typeof reportSchedules.$inferInsert>): Promise<void> {
      await db.update(reportSchedules).set(values).where(eq(reportSchedules.id, id));
    },

    /** Enabled schedules whose time has come, moved `leaseMs` ahead so a concurrent pass skips them. */
    async claimDue(now: Date, leaseMs: number, limit: number): Promise<(ReportSchedule & { ownerId: number; due: Date })[]> {
      const rows = await queryRows<{ id: number; next_run_at: string }>(
        db,
        sql`update report_schedules s set next_run_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz
            from (select id, next_run_at from report_schedules where enabled and next_run_at <= ${now.toISOString()}::timestamptz
                  order by next_run_at, id limit ${limit} for update skip locked) due
            where s.id = due.id returning s.id, due.next_run_at`,
      );
      const out: (ReportSchedule & { ownerId: number; due: Date })[] = [];
      for (const r of rows) {
        const s = await this.schedule(Number(r.id), null);
        if (s) out.push({ ...s, due: new Date(r.next_run_at) });
      }
      return out;
    },

    /**
     * Report e-mails whose attached file is no longer needed: delivered or given up, or older than the
     * retention whatever their state; and the files still waited for (pending, younger).
     */
    async attachments(cutoff: Date): Promise<{ done: { id: number; path: string }[]; waiting: Set<string> }> {
      const rows = await db
        .select({
          id: emailDeliveries.id,
          path: emailDeliveries.attachmentPath,
          status: emailDeliveries.status,
          createdAt: emailDeliveries.createdAt,
        })
        .from(emailDeliveries)
        .where(and(eq(emailDeliveries.kind, 'report'), isNotNull(emailDeliveries.attachmentPath)));
      const done: { id: number; path: string }[] = [];
      const waiting = new Set<string>();
      for (const r of rows) {
        if (r.path === null) continue;
        if (r.status === 'sent' || r.status === 'failed' || r.createdAt < cutoff) done.push({ id: r.id, path: r.path });
        else waiting.add(r.path);
      }
      return { done, waiting };
    },

    async clearAttachments(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(emailDeliveries)
        .set({ attachmentPath: null })
        .where(inArray(emailDeliveries.id, [...ids]));
    },

    async addSend(values: typeof reportSends.$inferInsert): Promise<void> {
      await db.insert(reportSends).values(values);
    },

    async sends(
      ownerId: number,
      scheduleId: number | undefined,
      page: number,
      size: number,
    ): Promise<{ total: number; records: ReportSend[] }> {
      const where = and(
        eq(reportSchedules.ownerId, ownerId),
        scheduleId === undefined ? undefined : eq(reportSends.scheduleId, scheduleId),
      );
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(reportSends)
        .innerJoin(reportSchedules, eq(reportSchedules.id, reportSends.scheduleId))
        .where(where);
      const rows = await db
        .select({
          id: reportSends.id,
          scheduleId: reportSends.scheduleId,
          targetName: reportSchedules.targetName,
          period: reportSends.period,
          recipient: reportSends.recipient,
          language: reportSends.language,
          error: reportSends.error,
          createdAt: reportSends.createdAt,
          status: emailDeliveries.status,
          attempts: emailDeliveries.attempts,
          lastError: emailDeliveries.lastError,
          sentAt: emailDeliveries.sentAt,
        })
        .from(reportSends)
        .innerJoin(reportSchedules, eq(reportSchedules.id, reportSends.scheduleId))
        .leftJoin(emailDeliveries, eq(emailDeliveries.id, reportSends.deliveryId))
        .where(where)
        .orderBy(desc(reportSends.id))
        .limit(size)
        .offset((page - 1) * size);
      return {
        total: Number(count?.n ?? 0),
        records: rows.map((r) => ({
          id: r.id,
          scheduleId: r.scheduleId,
          targetName: r.targetName,
          period: r.period,
          recipient: r.recipient,
          language: r.language,
          status: r.error !== null ? 'error' : r.status === 'sent' ? 'sent' : r.status === 'failed' ? 'failed' : 'pending',
          attempts: r.attempts ?? 0,
          error: r.error ?? r.lastError ?? null,
          createdAt: r.createdAt.toISOString(),
          sentAt: r.sentAt?.toISOString() ?? null,
        })),
      };
    },
  };
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
