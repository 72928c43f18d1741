import type { GatewayListQuery } from '@sunward/contracts/gateways';
import { type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.js';
import type { AuthContext } from '../../plugins/auth.js';
import { gatewayVisibleCondition } from '../devices/device-access.js';

/** A gateway as the list and detail read it (one row of gateways with its plant and device count). */
export interface GatewayRecord {
  id: number;
  sn: string;
  alias: string | null;
  plantId: number | null;
  plantName: string | null;
  companyId: number | null;
  online: boolean;
  rssi: number | null;
  commType: string | null;
  iccid: string | null;
  hwVersion: string | null;
  fwVersion: string | null;
  lastOnlineAt: Date | null;
  lastIp: string | null;
  locked: boolean;
  serverAddress: string | null;
  digitalOutput: boolean | null;
  connectionPasswordAt: Date | null;
  replacedById: number | null;
  deviceCount: number;
}

export interface GatewaySettingsUpdate {
  serverAddress?: string;
  locked?: boolean;
  digitalOutput?: boolean;
  connectionPasswordAt?: Date;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const date = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string));
const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const SORTS: Record<GatewayListQuery['sort'], SQL> = { sn: sql`g.sn`, lastOnlineAt: sql`g.last_online_at` };
const FROM = sql`gateways g left join plants p on p.id = g.plant_id`;
const COLUMNS = sql`g.id, g.sn, g.alias, g.plant_id, p.name as plant_name, g.company_id, g.online, g.rssi, g.comm_type, g.iccid,
  g.hw_version, g.fw_version, g.last_online_at, g.last_ip, g.locked, g.server_address, g.digital_output, g.connection_password_at,
  g.replaced_by_id, (select count(*) from devices d where d.gateway_id = g.id)::int as device_count`;

function toRecord(r: Record<string, unknown>): GatewayRecord {
  return {
    id: Number(r.id),
    sn: String(r.sn),
    alias: (r.alias as string | null) ?? null,
    plantId: num(r.plant_id),
    plantName: (r.plant_name as string | null) ?? null,
    companyId: num(r.company_id),
    online: Boolean(r.online),
    rssi: num(r.rssi),
    commType: (r.comm_type as string | null) ?? null,
    iccid: (r.iccid as string | null) ?? null,
    hwVersion: (r.hw_version as string | null) ?? null,
    fwVersion: (r.fw_version as string | null) ?? null,
    lastOnlineAt: date(r.last_online_at),
    lastIp: (r.last_ip as string | null) ?? null,
    locked: Boolean(r.locked),
    serverAddress: (r.server_address as string | null) ?? null,
    digitalOutput: r.digital_output === null || r.digital_output === undefined ? null : Boolean(r.digital_output),
    connectionPasswordAt: date(r.connection_password_at),
    replacedById: num(r.replaced_by_id),
    deviceCount: Number(r.device_count ?? 0),
  };
}

function whereOf(auth: AuthContext, q: Omit<GatewayListQuery, 'page' | 'size' | 'sort' | 'order'>, withStatus: boolean): SQL {
  const parts: SQL[] = [gatewayVisibleCondition(auth)];
  if (q.keyword) parts.push(sql`(g.sn ilike ${like(q.keyword)} or g.alias ilike ${like(q.keyword)})`);
  if (q.plantId) parts.push(sql`g.plant_id = ${q.plantId}`);
  if (withStatus && q.status) parts.push(sql`g.online = ${q.status === 'online'}`);
  if (q.locked !== undefined) parts.push(sql`g.locked = ${q.locked}`);
  return sql.join(parts, sql` and `);
}

/** SQL for gateways: lists filtered by the caller's visibility, lookups, registration, replacement. */
export function createGatewaysRepository(db: Database) {
  return {
    async page(auth: AuthContext, query: GatewayListQuery): Promise<{ rows: GatewayRecord[]; total: number }> {
      const where = whereOf(auth, query, true);
      const direction = query.order === 'desc' ? sql`desc nulls last` : sql`asc nulls first`;
      const [rows, total] = await Promise.all([
        queryRows<Record<string, unknown>>(
          db,
          sql`select ${COLUMNS} from ${FROM} where ${where} order by ${SORTS[query.sort]} ${direction}, g.id
              limit ${query.size} offset ${(query.page - 1) * query.size}`,
        ),
        queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${FROM} where ${where}`),
      ]);
      return { rows: rows.map(toRecord), total: Number(total[0]?.n ?? 0) };
    },

    async counts(auth: AuthContext, query: Omit<GatewayListQuery, 'page' | 'size' | 'sort' | 'order'>) {
      const [row] = await queryRows<{ online: number; total: number }>(
        db,
        sql`select count(*) filter (where g.online)::int as online, count(*)::int as total from ${FROM} where ${whereOf(auth, query, false)}`,
      );
      const online = Number(row?.online ?? 0);
      const total = Number(row?.total ?? 0);
      return { online, offline: total - online, total };
    },

    /** A gateway by SN or id regardless of the caller (access is checked after). */
    async find(by: { sn: string } | { id: number }): Promise<GatewayRecord | undefined> {
      // SNs are unique regardless of case (devices too): what a person types finds the gateway.
      const key = 'sn' in by ? sql`lower(g.sn) = lower(${by.sn})` : sql`g.id = ${by.id}`;
      const [row] = await queryRows<Record<string, unknown>>(db, sql`select ${COLUMNS} from ${FROM} where ${key}`);
      return row ? toRecord(row) : undefined;
    },

    async keyHash(id: number): Promise<string | undefined> {
      const [row] = await queryRows<{ key_hash: string }>(db, sql`select key_hash from gateways where id = ${id}`);
      return row?.key_hash;
    },

    async devices(gatewayId: number) {
      const rows = await queryRows<{ id: number; sn: string; family: string; alias: string | null; status: number }>(
        db,
        sql`select id, sn, family, alias, status from devices where gateway_id = ${gatewayId} order by sn`,
      );
      return rows.map((r) => ({ id: Number(r.id), sn: r.sn, family: r.family, alias: r.alias ?? null, status: Number(r.status) }));
    },

    /** Which of these SNs are already in the registry. */
    async registeredAmong(sns: readonly string[]): Promise<Set<string>> {
      if (sns.length === 0) return new Set();
      const folded = [...new Set(sns.map((sn) => sn.toLowerCase()))];
      const rows = await queryRows<{ sn: string }>(
        db,
        sql`select lower(sn) as sn from gateways where lower(sn) = any(${sql.param(folded)}::text[])`,
      );
      const taken = new Set(rows.map((r) => r.sn));
      // The SNs as the file spells them, for each one registered in any case.
      return new Set(sns.filter((sn) => taken.has(sn.toLowerCase())));
    },

    /** Registers gateways unbound in a company; returns the SNs actually added (a concurrent import may win one). */
    async register(rows: readonly { sn: string; keyHash: string; alias: string | null }[], companyId: number | null): Promise<string[]> {
      if (rows.length === 0) return [];
      const added = await queryRows<{ sn: string }>(
        db,
        sql`insert into gateways (sn, key_hash, alias, company_id)
            select r.sn, r.key_hash, r.alias, ${companyId}::int
            from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ sn: r.sn, key_hash: r.keyHash, alias: r.alias })))}::jsonb)
              as r(sn text, key_hash text, alias text)
            on conflict do nothing returning sn`,
      );
      return added.map((r) => r.sn);
    },

    async setAlias(id: number, alias: string | null): Promise<void> {
      await db.execute(sql`update gateways set alias = ${alias} where id = ${id}`);
    },

    async saveSettings(id: number, update: GatewaySettingsUpdate): Promise<void> {
      const sets: SQL[] = [];
      if (update.serverAddress !== undefined) sets.push(sql`server_address = ${update.serverAddress}`);
      if (update.locked !== undefined) sets.push(sql`locked = ${update.locked}`);
      if (update.digitalOutput !== undefined) sets.push(sql`digital_output = ${update.digitalOutput}`);
      if (update.connectionPasswordAt !== undefined)
        sets.push(sql`connection_password_at = ${update.connectionPasswordAt.toISOString()}::timestamptz`);
      if (sets.length === 0) return;
      await db.execute(sql`update gateways set ${sql.join(sets, sql`, `)} where id = ${id}`);
    },

    /**
     * replaceGateway: the new gateway (registered first when `register` is given) takes the old one's plant,
     * company, alias and devices; the old one is unbound and points at its replacement. One transaction.
     */
    async replace(
      oldId: number,
      target: { id: number } | { register: { sn: string; keyHash: string } },
    ): Promise<{ id: number; movedDevices: number } | 'taken'> {
      return db.transaction(async (tx) => {
        let newId: number;
        if ('id' in target) newId = target.id;
        else {
          const [row] = await queryRows<{ id: number }>(
            tx,
            sql`insert into gateways (sn, key_hash) values (${target.register.sn}, ${target.register.keyHash})
                on conflict do nothing returning id`,
          );
          if (!row) return 'taken';
          newId = Number(row.id);
        }
        await tx.execute(sql`update gateways n set plant_id = o.plant_id, company_id = coalesce(o.company_id, n.company_id),
            alias = coalesce(o.alias, n.alias)
            from gateways o where o.id = ${oldId} and n.id = ${newId}`);
        const moved = await queryRows<{ id: number }>(
          tx,
          sql`update devices set gateway_id = ${newId} where gateway_id = ${oldId} returning id`,
        );
        // Devices users deleted stay deleted behind the replacement too.
        await tx.execute(sql`insert into deleted_devices (gateway_id, sn) select ${newId}, sn from deleted_devices where gateway_id = ${oldId}
            on conflict do nothing`);
        // Devices the new gateway had found on its own join the plant with it.
        await tx.execute(sql`update devices d set plant_id = n.plant_id from gateways n
            where n.id = ${newId} and d.gateway_id = n.id and d.plant_id is null and n.plant_id is not null`);
        await tx.execute(sql`update gateways set plant_id = null, alias = null, replaced_by_id = ${newId} where id = ${oldId}`);
        return { id: newId, movedDevices: moved.length };
      });
    },

    /** Deletes an unbound gateway with the devices it discovered that are in no plant (nothing else reaches them). */
    async remove(id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const orphans = await queryRows<{ id: number }>(
          tx,
          sql`delete from devices where gateway_id = ${id} and plant_id is null returning id`,
        );
        if (orphans.length > 0)
          await tx.execute(sql`delete from readings where device_id = any(${sql.param(orphans.map((o) => Number(o.id)))}::int[])`);
        await tx.execute(sql`update gateways set replaced_by_id = null where replaced_by_id = ${id}`);
        await tx.execute(sql`delete from gateways where id = ${id} and plant_id is null`);
      });
    },
  };
}

export type GatewaysRepository = ReturnType<typeof createGatewaysRepository>;
