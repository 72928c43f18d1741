import type { EnergyHubAddress } from '@sunward/contracts/energy-hub';
import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows } from '../../db/rows.js';
import {
  deviceRealtime,
  devices,
  energyHubDevices,
  energyHubEnrollments,
  energyHubEvents,
  energyHubResults,
  plants,
  roles,
  users,
} from '../../db/schema.js';
import { LATEST_VALUES } from '../../ingest/telemetry-query.repository.js';

export type EnrollmentRecord = typeof energyHubEnrollments.$inferSelect;
export type EnrollmentDeviceRecord = typeof energyHubDevices.$inferSelect;
export type EventRecord = typeof energyHubEvents.$inferSelect;
export type ResultRecord = typeof energyHubResults.$inferSelect;
export type NewEnrollment = Omit<typeof energyHubEnrollments.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export type NewEnrollmentDevice = Omit<typeof energyHubDevices.$inferInsert, 'id' | 'enrollmentId'>;
export type NewEvent = Omit<typeof energyHubEvents.$inferInsert, 'id' | 'createdAt'>;

/** An enrollment with its plant's name and company (the tenant boundary) and its batteries. */
export interface EnrollmentFull extends EnrollmentRecord {
  plantName: string;
  companyId: number | null;
  devices: EnrollmentDeviceRecord[];
}

/** The account an enrollment's dispatch acts for, as it is now. */
export interface EnrollmentOwner {
  userId: number;
  account: string;
  roleKey: string | null;
  companyId: number | null;
  disabled: boolean;
  language: string;
}

/** A battery's latest reading: SOC, the map it was decoded with and the values (for its discharged-energy counter). */
export interface BatteryReading {
  deviceId: number;
  protocolId: string;
  ts: Date;
  soc: number | null;
  values: number[];
}

export const addressOf = (value: unknown): EnergyHubAddress => value as EnergyHubAddress;

/** SQL of the energy hub: enrollments, their batteries, events and each battery's result. */
export function createEnergyHubRepository(db: Database) {
  async function withDevices(rows: (EnrollmentRecord & { plantName: string; companyId: number | null })[]): Promise<EnrollmentFull[]> {
    if (rows.length === 0) return [];
    const all = await db
      .select()
      .from(energyHubDevices)
      .where(
        inArray(
          energyHubDevices.enrollmentId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(energyHubDevices.id));
    return rows.map((r) => ({ ...r, devices: all.filter((d) => d.enrollmentId === r.id) }));
  }

  const enrollmentQuery = () =>
    db
      .select({ enrollment: energyHubEnrollments, plantName: plants.name, companyId: plants.companyId })
      .from(energyHubEnrollments)
      .innerJoin(plants, eq(plants.id, energyHubEnrollments.plantId));

  return {
    /** The plant's devices with these SNs (any case), whatever their family. */
    async plantDevices(plantId: number, sns: readonly string[]) {
      if (sns.length === 0) return [];
      return db
        .select({ id: devices.id, sn: devices.sn, family: devices.family, protocolId: devices.protocolId })
        .from(devices)
        .where(
          and(
            eq(devices.plantId, plantId),
            inArray(
              sql`lower(${devices.sn})`,
              sns.map((s) => s.toLowerCase()),
            ),
          ),
        );
    },

    /** The plant's batteries (the enrollment form offers them). */
    async plantBatteries(plantId: number) {
      return db
        .select({ id: devices.id, sn: devices.sn, model: devices.model, brand: devices.brand })
        .from(devices)
        .where(and(eq(devices.plantId, plantId), eq(devices.family, 'battery'), isNull(devices.parentId)))
        .orderBy(asc(devices.sn));
    },

    /** Which of these devices are in a live enrollment. */
    async liveDevices(deviceIds: readonly number[]): Promise<number[]> {
      if (deviceIds.length === 0) return [];
      const rows = await db
        .select({ id: energyHubDevices.deviceId })
        .from(energyHubDevices)
        .where(and(eq(energyHubDevices.active, true), inArray(energyHubDevices.deviceId, [...deviceIds])));
      return rows.map((r) => r.id);
    },

    async livePlant(plantId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: energyHubEnrollments.id })
        .from(energyHubEnrollments)
        .where(and(eq(energyHubEnrollments.plantId, plantId), eq(energyHubEnrollments.active, true)));
      return row !== undefined;
    },

    async liveAccount(programId: string, utilityAccount: string): Promise<boolean> {
      const [row] = await db
        .select({ id: energyHubEnrollments.id })
        .from(energyHubEnrollments)
        .where(
          and(
            eq(energyHubEnrollments.programId, programId),
            eq(energyHubEnrollments.utilityAccount, utilityAccount),
            eq(energyHubEnrollments.active, true),
          ),
        );
      return row !== undefined;
    },

    /** enrollPlant: the enrollment and its batteries in one transaction (a refused index leaves nothing behind). */
    async enrollPlant(enrollment: NewEnrollment, batteries: readonly NewEnrollmentDevice[]): Promise<number> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(energyHubEnrollments).values(enrollment).returning({ id: energyHubEnrollments.id });
        if (!row) throw new Error('enrollment insert returned no row');
        await tx.insert(energyHubDevices).values(batteries.map((b) => ({ ...b, enrollmentId: row.id })));
        return row.id;
      });
    },

    async find(id: number): Promise<EnrollmentFull | undefined> {
      const rows = await enrollmentQuery().where(eq(energyHubEnrollments.id, id));
      const [found] = await withDevices(rows.map((r) => ({ ...r.enrollment, plantName: r.plantName, companyId: r.companyId })));
      return found;
    },

    /** Enrollments of these plants (undefined: every plant), newest first. */
    async list(plantIds: readonly number[] | undefined): Promise<EnrollmentFull[]> {
      if (plantIds && plantIds.length === 0) return [];
      const query = enrollmentQuery();
      const rows = await (plantIds ? query.where(inArray(energyHubEnrollments.plantId, [...plantIds])) : query).orderBy(
        desc(energyHubEnrollments.id),
      );
      return withDevices(rows.map((r) => ({ ...r.enrollment, plantName: r.plantName, companyId: r.companyId })));
    },

    /** Moves the enrollment only from `from` (a concurrent move wins once); leaving pending/accepted frees its batteries. */
    async move(id: number, from: string, to: string, live: boolean): Promise<boolean> {
      return db.transaction(async (tx) => {
        const moved = await tx
          .update(energyHubEnrollments)
          .set({ state: to, active: live, updatedAt: new Date() })
          .where(and(eq(energyHubEnrollments.id, id), eq(energyHubEnrollments.state, from)))
          .returning({ id: energyHubEnrollments.id });
        if (moved.length === 0) return false;
        await tx.update(energyHubDevices).set({ active: live }).where(eq(energyHubDevices.enrollmentId, id));
        return true;
      });
    },

    async saveSettings(id: number, settings: { minSocPct: number; maxDischargeW: number | null; participating: readonly number[] }) {
      await db.transaction(async (tx) => {
        await tx
          .update(energyHubEnrollments)
          .set({ minSocPct: settings.minSocPct, maxDischargeW: settings.maxDischargeW, updatedAt: new Date() })
          .where(eq(energyHubEnrollments.id, id));
        await tx
          .update(energyHubDevices)
          .set({ participates: sql`${energyHubDevices.id} = any(${`{${settings.participating.join(',')}}`}::int[])` })
          .where(eq(energyHubDevices.enrollmentId, id));
      });
    },

    async saveOpenAdr(
      id: number,
      change: Partial<Pick<EnrollmentRecord, 'vtnUrl' | 'venName' | 'venId' | 'registrationId' | 'lastPollAt'>>,
    ): Promise<void> {
      await db.update(energyHubEnrollments).set(change).where(eq(energyHubEnrollments.id, id));
    },

    /** Accepted enrollments with a VTN: the VEN polls each. */
    async withVtn(): Promise<EnrollmentRecord[]> {
      return db
        .select()
        .from(energyHubEnrollments)
        .where(and(eq(energyHubEnrollments.active, true), sql`${energyHubEnrollments.vtnUrl} is not null`));
    },

    async owner(enrollmentId: number): Promise<EnrollmentOwner | undefined> {
      const [row] = await db
        .select({
          userId: users.id,
          account: users.account,
          roleKey: roles.key,
          companyId: users.companyId,
          disabledAt: users.disabledAt,
          language: users.language,
        })
        .from(energyHubEnrollments)
        .innerJoin(users, eq(users.id, energyHubEnrollments.userId))
        .leftJoin(roles, eq(roles.id, users.roleId))
        .where(eq(energyHubEnrollments.id, enrollmentId));
      return row ? { ...row, disabled: row.disabledAt !== null } : undefined;
    },

    /** A new event; undefined when the enrollment already has one with this id. */
    async addEvent(event: NewEvent): Promise<number | undefined> {
      const [row] = await db.insert(energyHubEvents).values(event).onConflictDoNothing().returning({ id: energyHubEvents.id });
      return row?.id;
    },

    async eventByExternalId(enrollmentId: number, eventId: string): Promise<EventRecord | undefined> {
      const [row] = await db
        .select()
        .from(energyHubEvents)
        .where(and(eq(energyHubEvents.enrollmentId, enrollmentId), eq(energyHubEvents.eventId, eventId)));
      return row;
    },

    async updateEvent(id: number, change: Partial<Omit<EventRecord, 'id' | 'enrollmentId' | 'createdAt'>>): Promise<void> {
      await db.update(energyHubEvents).set(change).where(eq(energyHubEvents.id, id));
    },

    async event(id: number): Promise<EventRecord | undefined> {
      const [row] = await db.select().from(energyHubEvents).where(eq(energyHubEvents.id, id));
      return row;
    },

    /** Events of these enrollments, newest start first. */
    async events(enrollmentIds: readonly number[]): Promise<EventRecord[]> {
      if (enrollmentIds.length === 0) return [];
      return db
        .select()
        .from(energyHubEvents)
        .where(inArray(energyHubEvents.enrollmentId, [...enrollmentIds]))
        .orderBy(desc(energyHubEvents.startAt), desc(energyHubEvents.id));
    },

    async results(eventIds: readonly number[]): Promise<ResultRecord[]> {
      if (eventIds.length === 0) return [];
      return db
        .select()
        .from(energyHubResults)
        .where(inArray(energyHubResults.eventId, [...eventIds]))
        .orderBy(asc(energyHubResults.sn));
    },

    /** Pending events whose start has come. */
    async dueStarts(now: Date, limit: number): Promise<EventRecord[]> {
      return db
        .select()
        .from(energyHubEvents)
        .where(and(eq(energyHubEvents.state, 'pending'), lte(energyHubEvents.startAt, now)))
        .orderBy(asc(energyHubEvents.startAt))
        .limit(limit);
    },

    async activeEvents(): Promise<EventRecord[]> {
      return db.select().from(energyHubEvents).where(eq(energyHubEvents.state, 'active')).orderBy(asc(energyHubEvents.endAt));
    },

    /**
     * Moves an event from one state to the next only if no other pass (another server process) moved it first:
     * true when this pass owns the start or the stop.
     */
    async claim(id: number, from: string, to: string): Promise<boolean> {
      const moved = await db
        .update(energyHubEvents)
        .set({ state: to })
        .where(and(eq(energyHubEvents.id, id), eq(energyHubEvents.state, from)))
        .returning({ id: energyHubEvents.id });
      return moved.length > 0;
    },

    /** Claims one battery's part in an event: the row is made once; whoever makes it sends the command. */
    async claimDevice(row: Omit<typeof energyHubResults.$inferInsert, 'id'>): Promise<number | undefined> {
      const [made] = await db.insert(energyHubResults).values(row).onConflictDoNothing().returning({ id: energyHubResults.id });
      return made?.id;
    },

    async updateResult(id: number, change: Partial<Omit<ResultRecord, 'id' | 'eventId' | 'deviceId' | 'sn'>>): Promise<void> {
      await db.update(energyHubResults).set(change).where(eq(energyHubResults.id, id));
    },

    /** Ends a discharging battery's part once (the floor, the end and an opt-out may race). */
    async finishDischarge(id: number, outcome: 'done' | 'failed', code: number | null): Promise<boolean> {
      const moved = await db
        .update(energyHubResults)
        .set({ outcome, code, endedAt: new Date() })
        .where(and(eq(energyHubResults.id, id), eq(energyHubResults.outcome, 'discharging')))
        .returning({ id: energyHubResults.id });
      return moved.length > 0;
    },

    async readings(deviceIds: readonly number[]): Promise<BatteryReading[]> {
      if (deviceIds.length === 0) return [];
      return sqlRows(
        db,
        {
          deviceId: deviceRealtime.deviceId,
          protocolId: devices.protocolId,
          ts: deviceRealtime.ts,
          soc: nullable(deviceRealtime.soc),
          values: computed.numbers,
        },
        sql`select r.device_id as "deviceId", d.protocol_id as "protocolId", r.ts, r.soc, ${LATEST_VALUES} as "values"
            from device_realtime r join devices d on d.id = r.device_id
            where r.device_id = any(${`{${deviceIds.join(',')}}`}::int[])`,
      );
    },
  };
}

export type EnergyHubRepository = ReturnType<typeof createEnergyHubRepository>;
