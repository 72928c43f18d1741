import type { InvitationMessageData } from '@sunward/contracts/invitations';
import { type AlarmData, MessageState, type MessageStateValue } from '@sunward/contracts/notifications';
import { and, count, desc, eq, gte, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows } from '../../db/rows.js';
import { deviceEvents, devices, messages, plants, users } from '../../db/schema.js';
import { inCompanySubtree } from '../../lib/company-tree.js';

export { MessageState };

export interface NewMessage {
  userId: number;
  type: number;
  title: string;
  content: string;
  data: AlarmData | InvitationMessageData | null;
}

export interface MessageFilter {
  type?: number;
  state?: number;
  from?: Date;
  to?: Date;
}

export interface AlarmDevice {
  id: number;
  sn: string;
  alias: string | null;
  family: string;
  protocolId: string;
  plantId: number | null;
  plantName: string | null;
  timezone: string | null;
}

// Rows per insert statement: well under PostgreSQL's 65,535 parameters (6 per row).
const INSERT_CHUNK = 2000;

/** The notification centre's SQL: messages of one user, always scoped by user id. */
export function createMessagesRepository(db: Database) {
  function where(userId: number, filter: MessageFilter): SQL | undefined {
    return and(
      eq(messages.userId, userId),
      filter.type === undefined ? undefined : eq(messages.type, filter.type),
      filter.state === undefined ? undefined : eq(messages.state, filter.state),
      filter.from ? gte(messages.createdAt, filter.from) : undefined,
      filter.to ? lt(messages.createdAt, filter.to) : undefined,
    );
  }

  return {
    async unreadCount(userId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(messages)
        .where(and(eq(messages.userId, userId), eq(messages.state, MessageState.UNREAD)));
      return Number(row?.n ?? 0);
    },

    /** Unread counts of several users (absent: none unread). */
    async unreadCounts(userIds: readonly number[]): Promise<Map<number, number>> {
      const result = new Map<number, number>();
      if (userIds.length === 0) return result;
      const rows = await db
        .select({ userId: messages.userId, n: count() })
        .from(messages)
        .where(and(inArray(messages.userId, [...userIds]), eq(messages.state, MessageState.UNREAD)))
        .groupBy(messages.userId);
      for (const r of rows) result.set(r.userId, Number(r.n));
      return result;
    },

    /** Newest first; receive time ties broken by id so pages never overlap. */
    async page(userId: number, filter: MessageFilter, page: number, size: number) {
      const condition = where(userId, filter);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(messages)
          .where(condition)
          .orderBy(desc(messages.createdAt), desc(messages.id))
          .limit(size)
          .offset((page - 1) * size),
        db.select({ n: count() }).from(messages).where(condition),
      ]);
      return { rows, total: Number(total?.n ?? 0) };
    },

    /** Sets one message's state; false when the caller has no message with that id. */
    async setState(userId: number, id: number, state: MessageStateValue): Promise<boolean> {
      const rows = await db
        .update(messages)
        .set({ state })
        .where(and(eq(messages.id, id), eq(messages.userId, userId)))
        .returning({ id: messages.id });
      return rows.length > 0;
    },

    /** Sets the state of the caller's listed messages, or of all of them; ids of other users are ignored. */
    async setStates(userId: number, ids: readonly number[] | undefined, state: MessageStateValue): Promise<number> {
      const rows = await db
        .update(messages)
        .set({ state })
        .where(
          and(
            eq(messages.userId, userId),
            sql`${messages.state} <> ${state}`,
            ids === undefined ? undefined : inArray(messages.id, [...ids]),
          ),
        )
        .returning({ id: messages.id });
      return rows.length;
    },

    /** Every account that can sign in, with its language (system announcements go to all of them). */
    async activeUsers(): Promise<{ userId: number; language: string }[]> {
      const rows = await db.select({ userId: users.id, language: users.language }).from(users).where(isNull(users.disabledAt));
      return rows;
    },

    async insertMany(rows: readonly NewMessage[]): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK)
        await db.insert(messages).values(rows.slice(i, i + INSERT_CHUNK).map((r) => ({ ...r, state: MessageState.UNREAD })));
    },

    /**
     * Everyone who sees each plant, with their language: its owner, the users of its company, the users it
     * is shared with, the company's customers it is assigned to, and platform administrators (the same
     * answer plant-access.ts gives per caller; change both together). Alarm routing in the channel
     * hierarchy (issue 24): users of a company above the plant's are told only when their company has
     * `notify_subtree` set.
     */
    async recipients(plantIds: readonly number[]): Promise<{ userId: number; language: string; plantId: number }[]> {
      if (plantIds.length === 0) return [];
      const rows = await sqlRows(
        db,
        { user_id: users.id, language: users.language, plant_id: plants.id },
        sql`select u.id as user_id, u.language, p.id as plant_id
            from plants p
            join users u on u.disabled_at is null and (
                 u.id = p.owner_id
              or (p.company_id is not null and u.company_id = p.company_id)
              or (p.company_id is not null and exists (select 1 from companies uc where uc.id = u.company_id and uc.notify_subtree)
                  and ${inCompanySubtree(sql`p.company_id`, sql`u.company_id`)})
              or exists (select 1 from plant_shares s where s.plant_id = p.id and s.user_id = u.id)
              or exists (select 1 from company_customer_plants cp join company_customers cc on cc.id = cp.customer_id
                         where cp.plant_id = p.id and cc.user_id = u.id and p.company_id = cc.company_id)
              or exists (select 1 from roles r where r.id = u.role_id and r.key = 'platform_admin' and r.company_id is null))
            where p.id = any(${sql.param([...plantIds])}::int[])`,
      );
      return rows.map((r) => ({ userId: r.user_id, language: r.language, plantId: r.plant_id }));
    },

    async devices(deviceIds: readonly number[]): Promise<AlarmDevice[]> {
      if (deviceIds.length === 0) return [];
      const rows = await sqlRows(
        db,
        {
          id: devices.id,
          sn: devices.sn,
          alias: devices.alias,
          family: devices.family,
          protocol_id: devices.protocolId,
          plant_id: devices.plantId,
          plant_name: nullable(plants.name),
          timezone: nullable(plants.timezone),
        },
        sql`select d.id, d.sn, d.alias, d.family, d.protocol_id, d.plant_id, p.name as plant_name, p.timezone
            from devices d left join plants p on p.id = d.plant_id
            where d.id = any(${sql.param([...deviceIds])}::int[])`,
      );
      return rows.map((r) => ({
        id: r.id,
        sn: r.sn,
        alias: r.alias,
        family: r.family,
        protocolId: r.protocol_id,
        plantId: r.plant_id,
        plantName: r.plant_name,
        timezone: r.timezone,
      }));
    },

    /** The level each (device, code) was opened with, for clearances (the pipeline only knows codes then). */
    async openedLevels(pairs: readonly { deviceId: number; code: number }[]): Promise<Map<string, string>> {
      const result = new Map<string, string>();
      if (pairs.length === 0) return result;
      const rows = await sqlRows(
        db,
        { device_id: deviceEvents.deviceId, code: deviceEvents.code, level: deviceEvents.level },
        sql`select distinct on (e.device_id, e.code) e.device_id, e.code, e.level
            from device_events e
            join unnest(${sql.param(pairs.map((p) => p.deviceId))}::int[], ${sql.param(pairs.map((p) => p.code))}::int[]) as k(d, c)
              on e.device_id = k.d and e.code = k.c
            order by e.device_id, e.code, e.opened_at desc`,
      );
      for (const r of rows) result.set(`${r.device_id}|${r.code}`, r.level);
      return result;
    },

    /** Of these openings (device, code, opened at), the ones already cleared: keys `deviceId|code|ms`. */
    async clearedOpenings(openings: readonly { deviceId: number; code: number; at: string }[]): Promise<Set<string>> {
      if (openings.length === 0) return new Set();
      const rows = await sqlRows(
        db,
        { device_id: deviceEvents.deviceId, code: deviceEvents.code, opened_ms: computed.number },
        sql`select e.device_id, e.code, (extract(epoch from e.opened_at) * 1000)::float8 as opened_ms
            from device_events e
            join unnest(${sql.param(openings.map((o) => o.deviceId))}::int[], ${sql.param(openings.map((o) => o.code))}::int[],
                        ${sql.param(openings.map((o) => o.at))}::timestamptz[]) as k(d, c, t)
              on e.device_id = k.d and e.code = k.c and e.opened_at = k.t
            where e.cleared_at is not null`,
      );
      return new Set(rows.map((r) => `${r.device_id}|${r.code}|${Math.round(r.opened_ms)}`));
    },
  };
}

export type MessagesRepository = ReturnType<typeof createMessagesRepository>;
