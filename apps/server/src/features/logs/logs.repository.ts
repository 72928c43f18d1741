import { type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.js';
import type { AuthContext } from '../../plugins/auth.js';
import { gatewayVisibleCondition } from '../devices/device-access.js';
import { visibleCondition } from '../plants/plant-access.js';

/** Filters as SQL takes them: a closed or open period, substrings. */
export interface ConnectionFilter {
  sn?: string;
  kind?: string;
  from?: Date;
  to?: Date;
}
export interface MaintenanceFilter {
  account?: string;
  target?: string;
  action?: string;
  result?: string;
  from?: Date;
  to?: Date;
}

export interface ConnectionRecord {
  id: number;
  at: Date;
  gatewaySn: string;
  kind: string;
  address: string | null;
  reason: string | null;
  sessionSeconds: number | null;
  count: number | null;
}
export interface MaintenanceRecord {
  id: number;
  at: Date;
  account: string;
  action: string;
  targetType: string;
  target: string;
  plantId: number | null;
  result: string;
  detail: string | null;
}

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

// A gateway's history is seen by whoever sees the gateway (its plant's viewers, its company); the platform
// administrators also see logins refused for SNs no gateway has.
const CONNECTION_FROM = sql`gateway_connection_log l left join gateways g on lower(g.sn) = lower(l.gateway_sn)`;

function connectionWhere(auth: AuthContext, f: ConnectionFilter): SQL {
  const parts: SQL[] = [gatewayVisibleCondition(auth)];
  if (f.sn) parts.push(sql`l.gateway_sn ilike ${like(f.sn)}`);
  if (f.kind) parts.push(sql`l.kind = ${f.kind}`);
  if (f.from) parts.push(sql`l.at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) parts.push(sql`l.at < ${f.to.toISOString()}::timestamptz`);
  return sql.join(parts, sql` and `);
}

/**
 * The maintenance log's boundary: changes made by the caller, by members of the caller's company, or on a
 * plant the caller sees (a customer sees what the O&M company did on their plant).
 */
function maintenanceWhere(auth: AuthContext, f: MaintenanceFilter): SQL {
  const parts: SQL[] = [];
  if (auth.roleKey !== 'platform_admin') {
    const company = auth.companyId === null ? sql`false` : sql`o.company_id = ${auth.companyId}`;
    parts.push(
      sql`(o.user_id = ${auth.userId} or ${company} or exists (select 1 from plants where plants.id = o.plant_id and ${visibleCondition(auth)}))`,
    );
  }
  if (f.account) parts.push(sql`o.account ilike ${like(f.account)}`);
  if (f.target) parts.push(sql`o.target ilike ${like(f.target)}`);
  if (f.action) parts.push(sql`o.action ilike ${like(f.action)}`);
  if (f.result) parts.push(sql`o.result = ${f.result}`);
  if (f.from) parts.push(sql`o.at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) parts.push(sql`o.at < ${f.to.toISOString()}::timestamptz`);
  return parts.length === 0 ? sql`true` : sql.join(parts, sql` and `);
}

const connectionOf = (r: Record<string, unknown>): ConnectionRecord => ({
  id: Number(r.id),
  at: new Date(String(r.at)),
  gatewaySn: String(r.gateway_sn),
  kind: String(r.kind),
  address: str(r.address),
  reason: str(r.reason),
  sessionSeconds: num(r.session_seconds),
  count: num(r.count),
});
const maintenanceOf = (r: Record<string, unknown>): MaintenanceRecord => ({
  id: Number(r.id),
  at: new Date(String(r.at)),
  account: String(r.account),
  action: String(r.action),
  targetType: String(r.target_type),
  target: String(r.target),
  plantId: num(r.plant_id),
  result: String(r.result),
  detail: str(r.detail),
});

type Cursor = { at: string; id: number } | null;

/** SQL of the logs: pages, counts and keyset batches for exports, all behind the tenant boundary. */
export function createLogsRepository(db: Database) {
  async function count(from: SQL, where: SQL): Promise<number> {
    const [row] = await queryRows<{ n: number | string }>(db, sql`select count(*) as n from ${from} where ${where}`);
    return Number(row?.n ?? 0);
  }
  async function batch<T>(
    columns: SQL,
    from: SQL,
    alias: SQL,
    where: SQL,
    cursor: Cursor,
    limit: number,
    map: (r: Record<string, unknown>) => T,
  ): Promise<{ records: T[]; cursor: Cursor }> {
    const after = cursor ? sql` and (${alias}.at, ${alias}.id) < (${cursor.at}::timestamptz, ${cursor.id})` : sql``;
    const rows = await queryRows<Record<string, unknown>>(
      db,
      sql`select ${columns}, ${alias}.at::text as cursor_at from ${from} where ${where}${after} order by ${alias}.at desc, ${alias}.id desc limit ${limit}`,
    );
    const last = rows.at(-1);
    return { records: rows.map(map), cursor: last ? { at: String(last.cursor_at), id: Number(last.id) } : null };
  }
  const CONNECTION_COLUMNS = sql`l.id, l.at, l.gateway_sn, l.kind, l.address, l.reason, l.session_seconds, l.count`;
  const MAINTENANCE_COLUMNS = sql`o.id, o.at, o.account, o.action, o.target_type, o.target, o.plant_id, o.result, o.detail`;
  return {
    async connections(auth: AuthContext, f: ConnectionFilter, page: number, size: number) {
      const where = connectionWhere(auth, f);
      const [rows, total] = await Promise.all([
        queryRows<Record<string, unknown>>(
          db,
          sql`select ${CONNECTION_COLUMNS} from ${CONNECTION_FROM} where ${where} order by l.at desc, l.id desc limit ${size} offset ${(page - 1) * size}`,
        ),
        count(CONNECTION_FROM, where),
      ]);
      return { records: rows.map(connectionOf), total };
    },
    connectionCount: (auth: AuthContext, f: ConnectionFilter) => count(CONNECTION_FROM, connectionWhere(auth, f)),
    connectionBatch: (auth: AuthContext, f: ConnectionFilter, cursor: Cursor, limit: number) =>
      batch(CONNECTION_COLUMNS, CONNECTION_FROM, sql`l`, connectionWhere(auth, f), cursor, limit, connectionOf),

    async maintenance(auth: AuthContext, f: MaintenanceFilter, page: number, size: number) {
      const where = maintenanceWhere(auth, f);
      const [rows, total] = await Promise.all([
        queryRows<Record<string, unknown>>(
          db,
          sql`select ${MAINTENANCE_COLUMNS} from operation_log o where ${where} order by o.at desc, o.id desc limit ${size} offset ${(page - 1) * size}`,
        ),
        count(sql`operation_log o`, where),
      ]);
      return { records: rows.map(maintenanceOf), total };
    },
    maintenanceCount: (auth: AuthContext, f: MaintenanceFilter) => count(sql`operation_log o`, maintenanceWhere(auth, f)),
    maintenanceBatch: (auth: AuthContext, f: MaintenanceFilter, cursor: Cursor, limit: number) =>
      batch(MAINTENANCE_COLUMNS, sql`operation_log o`, sql`o`, maintenanceWhere(auth, f), cursor, limit, maintenanceOf),
  };
}

export type LogsRepository = ReturnType<typeof createLogsRepository>;
