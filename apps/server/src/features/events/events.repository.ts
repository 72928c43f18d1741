import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, type RowOf, sqlRows } from '../../db/rows.js';
import { deviceEvents, devices, plants } from '../../db/schema.js';
import type { AuthContext } from '../../plugins/auth.js';
import { deviceVisibleCondition } from '../devices/device-access.js';

/** The list's filters as the service resolves them: a closed period, stored families, map codes for text. */
export interface EventQueryFilter {
  from: Date;
  to: Date;
  levels?: readonly string[];
  status?: 'active' | 'cleared';
  deviceSn?: string;
  plantId?: number;
  families?: readonly string[];
  keyword?: string;
  /** (map, code) pairs whose description matches the keyword. */
  describedBy?: readonly { protocolId: string; code: number }[];
}

export interface EventRecord {
  id: number;
  code: number;
  level: string;
  deviceId: number;
  deviceSn: string;
  deviceAlias: string | null;
  family: string;
  protocolId: string;
  plantId: number | null;
  plantName: string | null;
  openedAt: Date;
  clearedAt: Date | null;
}

// The plant an event happened in (device_events.plant_id), which stays when the device moves on.
const FROM = sql`device_events e join devices d on d.id = e.device_id left join plants pl on pl.id = e.plant_id`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The WHERE of every event query. The period takes events opened in it and those opened earlier that
 * are still open (they still need attention); `withLevelAndStatus` false leaves those two filters out
 * (the badges count every level).
 */
function whereOf(auth: AuthContext, f: EventQueryFilter, withLevelAndStatus = true): SQL {
  const parts: SQL[] = [
    deviceVisibleCondition(auth),
    sql`e.opened_at < ${f.to.toISOString()}::timestamptz`,
    sql`(e.opened_at >= ${f.from.toISOString()}::timestamptz or e.cleared_at is null)`,
  ];
  if (withLevelAndStatus && f.levels && f.levels.length > 0) parts.push(sql`e.level = any(${sql.param([...f.levels])}::text[])`);
  if (withLevelAndStatus && f.status === 'active') parts.push(sql`e.cleared_at is null`);
  if (withLevelAndStatus && f.status === 'cleared') parts.push(sql`e.cleared_at is not null`);
  if (f.deviceSn) parts.push(sql`d.sn ilike ${`%${escapeLike(f.deviceSn)}%`}`);
  if (f.plantId !== undefined) parts.push(sql`e.plant_id = ${f.plantId}`);
  if (f.families && f.families.length > 0) parts.push(sql`d.family = any(${sql.param([...f.families])}::text[])`);
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword)}%`;
    const alternatives = [sql`d.sn ilike ${like}`, sql`d.alias ilike ${like}`, sql`pl.name ilike ${like}`];
    if (/^\d{1,9}$/.test(f.keyword)) alternatives.push(sql`e.code = ${Number(f.keyword)}`);
    const described = f.describedBy ?? [];
    if (described.length > 0)
      alternatives.push(
        sql`(d.protocol_id, e.code) in (select * from unnest(${sql.param(described.map((x) => x.protocolId))}::text[], ${sql.param(described.map((x) => x.code))}::int[]))`,
      );
    parts.push(sql`(${sql.join(alternatives, sql` or `)})`);
  }
  return sql.join(parts, sql` and `);
}

/** The columns COLUMNS selects, typed from the schema. */
const RECORD = {
  id: deviceEvents.id,
  code: deviceEvents.code,
  level: deviceEvents.level,
  device_id: deviceEvents.deviceId,
  sn: devices.sn,
  alias: devices.alias,
  family: devices.family,
  protocol_id: devices.protocolId,
  plant_id: deviceEvents.plantId,
  plant_name: nullable(plants.name),
  opened_at: deviceEvents.openedAt,
  cleared_at: deviceEvents.clearedAt,
};

function recordOf(r: RowOf<typeof RECORD>): EventRecord {
  return {
    id: r.id,
    code: r.code,
    level: r.level,
    deviceId: r.device_id,
    deviceSn: r.sn,
    deviceAlias: r.alias,
    family: r.family,
    protocolId: r.protocol_id,
    plantId: r.plant_id,
    plantName: r.plant_name,
    openedAt: r.opened_at,
    clearedAt: r.cleared_at,
  };
}

const COLUMNS = sql`e.id, e.code, e.level, e.device_id, d.sn, d.alias, d.family, d.protocol_id, e.plant_id, pl.name as plant_name, e.opened_at, e.cleared_at`;

/** SQL of the event list: pages, counts and the export rows, all behind the device tenant boundary. */
export function createEventsRepository(db: Database) {
  return {
    /** One page, newest first (ties by id so pages never overlap). */
    async page(
      auth: AuthContext,
      filter: EventQueryFilter,
      page: number,
      size: number,
    ): Promise<{ records: EventRecord[]; total: number }> {
      const where = whereOf(auth, filter);
      const [rows, [count]] = await Promise.all([
        sqlRows(
          db,
          RECORD,
          sql`select ${COLUMNS} from ${FROM} where ${where} order by e.opened_at desc, e.id desc limit ${size} offset ${(page - 1) * size}`,
        ),
        sqlRows(db, { n: computed.number }, sql`select count(*) as n from ${FROM} where ${where}`),
      ]);
      return { records: rows.map(recordOf), total: count?.n ?? 0 };
    },

    /** Every row under the filters, newest first, or 'tooMany' beyond `limit` (one row more is read to know). */
    async all(auth: AuthContext, filter: EventQueryFilter, limit: number): Promise<EventRecord[] | 'tooMany'> {
      const rows = await sqlRows(
        db,
        RECORD,
        sql`select ${COLUMNS} from ${FROM} where ${whereOf(auth, filter)} order by e.opened_at desc, e.id desc limit ${limit + 1}`,
      );
      if (rows.length > limit) return 'tooMany';
      return rows.map(recordOf);
    },

    /**
     * The next `limit` rows after `cursor` in the list's order (newest first, ties by id), for exports read
     * in batches: keyset, so each batch costs the same however deep the export is.
     */
    async batch(
      auth: AuthContext,
      filter: EventQueryFilter,
      cursor: { openedAt: string; id: number } | null,
      limit: number,
    ): Promise<{ records: EventRecord[]; cursor: { openedAt: string; id: number } | null }> {
      const after = cursor ? sql` and (e.opened_at, e.id) < (${cursor.openedAt}::timestamptz, ${cursor.id})` : sql``;
      const rows = await sqlRows(
        db,
        { ...RECORD, cursor_at: computed.text },
        sql`select ${COLUMNS}, e.opened_at::text as cursor_at from ${FROM} where ${whereOf(auth, filter)}${after}
            order by e.opened_at desc, e.id desc limit ${limit}`,
      );
      const last = rows.at(-1);
      return { records: rows.map(recordOf), cursor: last ? { openedAt: last.cursor_at, id: last.id } : null };
    },

    async count(auth: AuthContext, filter: EventQueryFilter): Promise<number> {
      const [count] = await sqlRows(db, { n: computed.number }, sql`select count(*) as n from ${FROM} where ${whereOf(auth, filter)}`);
      return count?.n ?? 0;
    },

    /** Open events by level and every event of the period, under the filters but level and status. */
    async counts(auth: AuthContext, filter: EventQueryFilter): Promise<{ level: string; active: number; total: number }[]> {
      const rows = await sqlRows(
        db,
        { level: deviceEvents.level, active: computed.number, total: computed.number },
        sql`select e.level, count(*) filter (where e.cleared_at is null) as active, count(*) as total
            from ${FROM} where ${whereOf(auth, filter, false)} group by e.level`,
      );
      return rows.map((r) => ({ level: r.level, active: r.active, total: r.total }));
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
