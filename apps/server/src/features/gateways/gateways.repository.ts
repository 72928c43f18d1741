import type { GatewayListQuery } from '@sunward/contracts/gateways';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, type RowOf, sqlRows } from '../../db/rows.js';
import { devices, gatewayConnectionLog, gateways, plants } from '../../db/schema.js';
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
  /** Maker and model as the gateway's status says (the hardware list's firmware range applies). */
  manufacturer: string | null;
  model: string | null;
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

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const SORTS: Record<GatewayListQuery['sort'], SQL> = { sn: sql`g.sn`, lastOnlineAt: sql`g.last_online_at` };
const FROM = sql`gateways g left join plants p on p.id = g.plant_id`;
const COLUMNS = sql`g.id, g.sn, g.alias, g.plant_id, p.name as plant_name, g.company_id, g.online, g.rssi, g.comm_type, g.iccid,
  g.hw_version, g.fw_version, g.manufacturer, g.model, g.last_online_at, g.last_ip, g.locked, g.server_address, g.digital_output, g.connection_password_at,
  g.replaced_by_id, (select count(*) from devices d where d.gateway_id = g.id)::int as device_count`;

const G = gateways;
/** The columns COLUMNS selects, typed from the schema. */
const ROW = {
  id: G.id,
  sn: G.sn,
  alias: G.alias,
  plant_id: G.plantId,
  plant_name: nullable(plants.name),
  company_id: G.companyId,
  online: G.online,
  rssi: G.rssi,
  comm_type: G.commType,
  iccid: G.iccid,
  hw_version: G.hwVersion,
  fw_version: G.fwVersion,
  manufacturer: G.manufacturer,
  model: G.model,
  last_online_at: G.lastOnlineAt,
  last_ip: G.lastIp,
  locked: G.locked,
  server_address: G.serverAddress,
  digital_output: G.digitalOutput,
  connection_password_at: G.connectionPasswordAt,
  replaced_by_id: G.replacedById,
  device_count: computed.number,
};

function toRecord(r: RowOf<typeof ROW>): GatewayRecord {
  return {
    id: r.id,
    sn: r.sn,
    alias: r.alias,
    plantId: r.plant_id,
    plantName: r.plant_name,
    companyId: r.company_id,
    online: r.online,
    rssi: r.rssi,
    commType: r.comm_type,
    iccid: r.iccid,
    hwVersion: r.hw_version,
    fwVersion: r.fw_version,
    manufacturer: r.manufacturer,
    model: r.model,
    lastOnlineAt: r.last_online_at,
    lastIp: r.last_ip,
    locked: r.locked,
    serverAddress: r.server_address,
    digitalOutput: r.digital_output,
    connectionPasswordAt: r.connection_password_at,
    replacedById: r.replaced_by_id,
    deviceCount: r.device_count,
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
        sqlRows(
          db,
          ROW,
          sql`select ${COLUMNS} from ${FROM} where ${where} order by ${SORTS[query.sort]} ${direction}, g.id
              limit ${query.size} offset ${(query.page - 1) * query.size}`,
        ),
        sqlRows(db, { n: computed.number }, sql`select count(*)::int as n from ${FROM} where ${where}`),
      ]);
      return { rows: rows.map(toRecord), total: total[0]?.n ?? 0 };
    },

    async counts(auth: AuthContext, query: Omit<GatewayListQuery, 'page' | 'size' | 'sort' | 'order'>) {
      const [row] = await sqlRows(
        db,
        { online: computed.number, total: computed.number },
        sql`select count(*) filter (where g.online)::int as online, count(*)::int as total from ${FROM} where ${whereOf(auth, query, false)}`,
      );
      const online = row?.online ?? 0;
      const total = row?.total ?? 0;
      return { online, offline: total - online, total };
    },

    /** A gateway by SN or id regardless of the caller (access is checked after). */
    async find(by: { sn: string } | { id: number }): Promise<GatewayRecord | undefined> {
      // SNs are unique regardless of case (devices too): what a person types finds the gateway.
      const key = 'sn' in by ? sql`lower(g.sn) = lower(${by.sn})` : sql`g.id = ${by.id}`;
      const [row] = await sqlRows(db, ROW, sql`select ${COLUMNS} from ${FROM} where ${key}`);
      return row ? toRecord(row) : undefined;
    },

    async keyHash(id: number): Promise<string | undefined> {
      const [row] = await sqlRows(db, { key_hash: gateways.keyHash }, sql`select key_hash from gateways where id = ${id}`);
      return row?.key_hash;
    },

    async devices(gatewayId: number) {
      const rows = await sqlRows(
        db,
        { id: devices.id, sn: devices.sn, family: devices.family, alias: devices.alias, status: devices.status },
        sql`select id, sn, family, alias, status from devices where gateway_id = ${gatewayId} order by sn`,
      );
      return rows.map((r) => ({ id: r.id, sn: r.sn, family: r.family, alias: r.alias, status: r.status }));
    },

    /** Which of these SNs are already in the registry. */
    async registeredAmong(sns: readonly string[]): Promise<Set<string>> {
      if (sns.length === 0) return new Set();
      const folded = [...new Set(sns.map((sn) => sn.toLowerCase()))];
      const rows = await sqlRows(
        db,
        { sn: computed.text },
        sql`select lower(sn) as sn from gateways where lower(sn) = any(${sql.param(folded)}::text[])`,
      );
      const taken = new Set(rows.map((r) => r.sn));
      // The SNs as the file spells them, for each one registered in any case.
      return new Set(sns.filter((sn) => taken.has(sn.toLowerCase())));
    },

    /** Registers gateways unbound in a company; returns the SNs actually added (a concurrent import may win one). */
    async register(
      rows: readonly { sn: string; keyHash: string; alias: string | null }[],
      companyId: number | null,
    ): Promise<{ id: number; sn: string }[]> {
      if (rows.length === 0) return [];
      const added = await sqlRows(
        db,
        { id: gateways.id, sn: gateways.sn },
        sql`insert into gateways (sn, key_hash, alias, company_id)
            select r.sn, r.key_hash, r.alias, ${companyId}::int
            from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ sn: r.sn, key_hash: r.keyHash, alias: r.alias })))}::jsonb)
              as r(sn text, key_hash text, alias text)
            on conflict do nothing returning id, sn`,
      );
      return added;
    },

    /** The gateway's newest refusals (reports, replies, logins) from its communication log. */
    async refusals(sn: string, limit: number): Promise<{ at: Date; reason: string | null; count: number }[]> {
      const rows = await sqlRows(
        db,
        { at: gatewayConnectionLog.at, reason: gatewayConnectionLog.reason, count: computed.number },
        sql`select at, reason, coalesce(count, 1)::int as count from gateway_connection_log
            where gateway_sn = ${sn} and kind = 'refused' order by at desc, id desc limit ${limit}`,
      );
      return rows;
    },

    /** How many refusals (summed counts) the gateway had since a time. */
    async refusalCount(sn: string, since: Date): Promise<number> {
      const [row] = await sqlRows(
        db,
        { n: computed.number },
        sql`select coalesce(sum(coalesce(count, 1)), 0)::int as n from gateway_connection_log
            where gateway_sn = ${sn} and kind = 'refused' and at >= ${since.toISOString()}::timestamptz`,
      );
      return row?.n ?? 0;
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
          const [row] = await sqlRows(
            tx,
            { id: gateways.id },
            sql`insert into gateways (sn, key_hash) values (${target.register.sn}, ${target.register.keyHash})
                on conflict do nothing returning id`,
          );
          if (!row) return 'taken';
          newId = row.id;
        }
        await tx.execute(sql`update gateways n set plant_id = o.plant_id, company_id = coalesce(o.company_id, n.company_id),
            alias = coalesce(o.alias, n.alias)
            from gateways o where o.id = ${oldId} and n.id = ${newId}`);
        const moved = await sqlRows(
          tx,
          { id: devices.id },
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
        const orphans = await sqlRows(
          tx,
          { id: devices.id },
          sql`delete from devices where gateway_id = ${id} and plant_id is null returning id`,
        );
        if (orphans.length > 0)
          await tx.execute(sql`delete from readings where device_id = any(${sql.param(orphans.map((o) => o.id))}::int[])`);
        await tx.execute(sql`update gateways set replaced_by_id = null where replaced_by_id = ${id}`);
        await tx.execute(sql`delete from gateways where id = ${id} and plant_id is null`);
      });
    },
  };
}

export type GatewaysRepository = ReturnType<typeof createGatewaysRepository>;
