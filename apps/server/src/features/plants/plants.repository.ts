import { Code } from '@sunward/contracts/codes';
import type {
  PlantAccessLevel,
  PlantDetail,
  PlantFields,
  PlantGateway,
  PlantRow,
  PlantStatusCount,
  ShareRole,
  ShareUser,
  Tariff,
} from '@sunward/contracts/plants';
import { type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.js';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { levelOf, visibleCondition } from './plant-access.js';

/** The list's filters after validation (PlantListQuerySchema output). */
export interface PlantFilter {
  keyword?: string | undefined;
  status?: number[] | undefined;
  plantType?: number[] | undefined;
  capacityMin?: number | undefined;
  capacityMax?: number | undefined;
  region?: string | undefined;
  gridDateFrom?: string | undefined;
  gridDateTo?: string | undefined;
}

const SORT_COLUMNS: Record<string, SQL> = {
  name: sql`plants.name`,
  capacityKwp: sql`plants.capacity_kwp`,
  powerW: sql`plants.power_w`,
  energyTodayWh: sql`plants.energy_today_wh`,
  energyTotalWh: sql`plants.energy_total_wh`,
  specificYield: sql`(plants.energy_today_wh / nullif(plants.capacity_kwp, 0))`,
  status: sql`plants.status`,
  lastUpdateAt: sql`plants.last_update_at`,
  createdAt: sql`plants.created_at`,
};

/** `like` patterns are matched literally: the user's % and _ are not wildcards. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filterCondition(auth: AuthContext, f: PlantFilter): SQL {
  const parts: SQL[] = [visibleCondition(auth)];
  if (f.keyword?.trim()) {
    const pattern = `%${escapeLike(f.keyword.trim())}%`;
    parts.push(sql`(plants.name ilike ${pattern} or plants.alias ilike ${pattern} or plants.address ilike ${pattern})`);
  }
  if (f.status?.length) parts.push(sql`plants.status = any(${sql.param(f.status)}::smallint[])`);
  if (f.plantType?.length) parts.push(sql`plants.plant_type = any(${sql.param(f.plantType)}::smallint[])`);
  if (f.capacityMin !== undefined) parts.push(sql`plants.capacity_kwp >= ${f.capacityMin}`);
  if (f.capacityMax !== undefined) parts.push(sql`plants.capacity_kwp <= ${f.capacityMax}`);
  if (f.region) parts.push(sql`plants.region = ${f.region}`);
  if (f.gridDateFrom) parts.push(sql`plants.grid_date >= ${f.gridDateFrom}::date`);
  if (f.gridDateTo) parts.push(sql`plants.grid_date <= ${f.gridDateTo}::date`);
  return sql.join(parts, sql` and `);
}

interface RowRecord {
  id: number;
  name: string;
  picture: string | null;
  plant_type: number;
  capacity_kwp: number;
  status: number;
  power_w: number | null;
  energy_today_wh: number | null;
  energy_total_wh: number | null;
  last_update_at: Date | string | null;
  region: string | null;
  address: string | null;
  timezone: string;
  created_at: Date | string;
  owner_id: number | null;
  company_id: number | null;
  share_role: string | null;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());
const num = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toRow(auth: AuthContext, r: RowRecord): PlantRow {
  const capacity = Number(r.capacity_kwp);
  const today = num(r.energy_today_wh);
  return {
    id: Number(r.id),
    name: r.name,
    picture: r.picture,
    plantType: Number(r.plant_type),
    capacityKwp: capacity,
    status: Number(r.status),
    powerW: num(r.power_w),
    energyTodayWh: today,
    energyTotalWh: num(r.energy_total_wh),
    specificYield: today === null || capacity <= 0 ? null : today / 1000 / capacity,
    lastUpdateAt: iso(r.last_update_at),
    region: r.region,
    address: r.address,
    timezone: r.timezone,
    createdAt: iso(r.created_at) ?? '',
    access: levelOf(auth, r.owner_id, r.company_id, r.share_role) ?? 'view',
    shared: r.share_role !== null,
  };
}

const ROW_COLUMNS = sql`plants.id, plants.name, plants.picture, plants.plant_type, plants.capacity_kwp, plants.status, plants.power_w,
  plants.energy_today_wh, plants.energy_total_wh, plants.last_update_at, plants.region, plants.address, plants.timezone,
  plants.created_at, plants.owner_id, plants.company_id`;

export interface PlantRecord {
  id: number;
  ownerId: number | null;
  companyId: number | null;
  plantType: number;
  name: string;
}

export function createPlantsRepository(db: Database) {
  return {
    async list(auth: AuthContext, filter: PlantFilter, page: number, size: number, sort: string, order: 'asc' | 'desc') {
      const where = filterCondition(auth, filter);
      const column = SORT_COLUMNS[sort] ?? SORT_COLUMNS.createdAt;
      const direction = order === 'asc' ? sql`asc nulls first` : sql`desc nulls last`;
      const [rows, [count]] = await Promise.all([
        queryRows<RowRecord>(
          db,
          sql`select ${ROW_COLUMNS}, (select s.role from plant_shares s where s.plant_id = plants.id and s.user_id = ${auth.userId}) as share_role
              from plants where ${where}
              order by ${column} ${direction}, plants.id ${order === 'asc' ? sql`asc` : sql`desc`}
              limit ${size} offset ${(page - 1) * size}`,
        ),
        queryRows<{ total: number | string }>(db, sql`select count(*) as total from plants where ${where}`),
      ]);
      return { total: Number(count?.total ?? 0), records: rows.map((r) => toRow(auth, r)) };
    },

    async row(auth: AuthContext, plantId: number): Promise<PlantRow | undefined> {
      const [r] = await queryRows<RowRecord>(
        db,
        sql`select ${ROW_COLUMNS}, (select s.role from plant_shares s where s.plant_id = plants.id and s.user_id = ${auth.userId}) as share_role
            from plants where plants.id = ${plantId}`,
      );
      return r ? toRow(auth, r) : undefined;
    },

    async statusCount(auth: AuthContext, filter: PlantFilter = {}): Promise<PlantStatusCount> {
      const [r] = await queryRows<Record<keyof PlantStatusCount, number | string>>(
        db,
        sql`select count(*) as total,
              count(*) filter (where status = 1) as normal, count(*) filter (where status = 2) as offline,
              count(*) filter (where status = 3) as warning, count(*) filter (where status = 4) as fault,
              count(*) filter (where status = 5) as upgrading, count(*) filter (where status = 6) as protect
            from plants where ${filterCondition(auth, filter)}`,
      );
      return {
        total: Number(r?.total ?? 0),
        normal: Number(r?.normal ?? 0),
        offline: Number(r?.offline ?? 0),
        warning: Number(r?.warning ?? 0),
        fault: Number(r?.fault ?? 0),
        upgrading: Number(r?.upgrading ?? 0),
        protect: Number(r?.protect ?? 0),
      };
    },

    async mapMarkers(auth: AuthContext, filter: PlantFilter): Promise<[number, number, number, number][]> {
      const rows = await queryRows<{ id: number; latitude: number; longitude: number; status: number }>(
        db,
        sql`select id, latitude, longitude, status from plants where ${filterCondition(auth, filter)}`,
      );
      return rows.map((r) => [Number(r.id), Number(r.latitude), Number(r.longitude), Number(r.status)]);
    },

    async regions(auth: AuthContext): Promise<string[]> {
      const rows = await queryRows<{ region: string }>(
        db,
        sql`select distinct region from plants where region is not null and ${visibleCondition(auth)} order by region`,
      );
      return rows.map((r) => r.region);
    },

    /** Plants the caller can pick (selectors, comparison): id and name, by name. */
    async options(auth: AuthContext, ownOnly: boolean): Promise<{ id: number; name: string; plantType: number }[]> {
      const where = ownOnly ? sql`plants.owner_id = ${auth.userId}` : visibleCondition(auth);
      const rows = await queryRows<{ id: number; name: string; plant_type: number }>(
        db,
        sql`select id, name, plant_type from plants where ${where} order by name limit 10000`,
      );
      return rows.map((r) => ({ id: Number(r.id), name: r.name, plantType: Number(r.plant_type) }));
    },

    async record(plantId: number): Promise<PlantRecord | undefined> {
      const [r] = await queryRows<{ id: number; owner_id: number | null; company_id: number | null; plant_type: number; name: string }>(
        db,
        sql`select id, owner_id, company_id, plant_type, name from plants where id = ${plantId}`,
      );
      return r
        ? { id: Number(r.id), ownerId: num(r.owner_id), companyId: num(r.company_id), plantType: Number(r.plant_type), name: r.name }
        : undefined;
    },

    /** The plant as its detail page shows it; `shared` says whether it is shared with `viewerId`. */
    async detail(plantId: number, access: PlantAccessLevel, viewerId: number): Promise<PlantDetail | undefined> {
      const [r] = await queryRows<{
        id: number;
        name: string;
        alias: string | null;
        plant_type: number;
        capacity_kwp: number;
        grid_date: string | null;
        latitude: number;
        longitude: number;
        address: string | null;
        region: string | null;
        timezone: string;
        picture: string | null;
        contact_name: string | null;
        contact_phone: string | null;
        installer: string | null;
        owner_name: string | null;
        metering_topology: string;
        status: number;
        company_id: number | null;
        owner_id: number | null;
        owner_account: string | null;
        created_at: Date | string;
        tariff: Tariff | null;
        shared: boolean;
      }>(
        db,
        sql`select p.id, p.name, p.alias, p.plant_type, p.capacity_kwp, to_char(p.grid_date, 'YYYY-MM-DD') as grid_date, p.latitude, p.longitude,
              p.address, p.region, p.timezone, p.picture, p.contact_name, p.contact_phone, p.installer, p.owner_name, p.metering_topology,
              p.status, p.company_id, p.owner_id, u.account as owner_account, p.created_at, p.tariff,
              exists (select 1 from plant_shares s where s.plant_id = p.id and s.user_id = ${viewerId}) as shared
            from plants p left join users u on u.id = p.owner_id where p.id = ${plantId}`,
      );
      if (!r) return undefined;
      return {
        id: Number(r.id),
        name: r.name,
        alias: r.alias,
        plantType: Number(r.plant_type),
        capacityKwp: Number(r.capacity_kwp),
        gridDate: r.grid_date,
        latitude: Number(r.latitude),
        longitude: Number(r.longitude),
        address: r.address,
        region: r.region,
        timezone: r.timezone,
        picture: r.picture,
        contactName: r.contact_name,
        contactPhone: r.contact_phone,
        installer: r.installer,
        ownerName: r.owner_name,
        meteringTopology: r.metering_topology === 'net' ? 'net' : 'gross',
        status: Number(r.status),
        companyId: num(r.company_id),
        ownerId: num(r.owner_id),
        ownerAccount: r.owner_account,
        createdAt: iso(r.created_at) ?? '',
        access,
        shared: r.shared,
        tariff: r.tariff,
      };
    },

    async create(
      fields: PlantFields,
      tariff: Tariff,
      ownerId: number,
      companyId: number | null,
      gatewayIds: readonly number[],
    ): Promise<number> {
      return db.transaction(async (tx) => {
        const [row] = await queryRows<{ id: number }>(
          tx,
          sql`insert into plants (name, alias, company_id, owner_id, plant_type, capacity_kwp, latitude, longitude, timezone, address, region,
                grid_date, picture, contact_name, contact_phone, installer, owner_name, metering_topology, tariff)
              values (${fields.name}, ${fields.alias ?? null}, ${companyId}, ${ownerId}, ${fields.plantType}, ${fields.capacityKwp},
                ${fields.latitude}, ${fields.longitude}, ${fields.timezone}, ${fields.address ?? null}, ${fields.region ?? null},
                ${fields.gridDate ?? null}, ${fields.picture ?? null}, ${fields.contactName ?? null}, ${fields.contactPhone ?? null},
                ${fields.installer ?? null}, ${fields.ownerName ?? null}, ${fields.meteringTopology}, ${JSON.stringify(tariff)}::jsonb)
              returning id`,
        );
        if (!row) throw new Error('plant not created');
        const plantId = Number(row.id);
        await bindGateways(tx, plantId, gatewayIds);
        return plantId;
      });
    },

    async update(plantId: number, fields: PlantFields): Promise<void> {
      await db.execute(sql`update plants set name = ${fields.name}, alias = ${fields.alias ?? null}, plant_type = ${fields.plantType},
          capacity_kwp = ${fields.capacityKwp}, latitude = ${fields.latitude}, longitude = ${fields.longitude}, timezone = ${fields.timezone},
          address = ${fields.address ?? null}, region = ${fields.region ?? null}, grid_date = ${fields.gridDate ?? null},
          picture = ${fields.picture ?? null}, contact_name = ${fields.contactName ?? null}, contact_phone = ${fields.contactPhone ?? null},
          installer = ${fields.installer ?? null}, owner_name = ${fields.ownerName ?? null}, metering_topology = ${fields.meteringTopology}
        where id = ${plantId}`);
    },

    async setTariff(plantId: number, tariff: Tariff): Promise<void> {
      await db.execute(sql`update plants set tariff = ${JSON.stringify(tariff)}::jsonb where id = ${plantId}`);
    },

    async tariff(plantId: number): Promise<Tariff | null> {
      const [r] = await queryRows<{ tariff: Tariff | null }>(db, sql`select tariff from plants where id = ${plantId}`);
      return r?.tariff ?? null;
    },

    async contacts(plantId: number) {
      const [r] = await queryRows<{
        contactName: string | null;
        contactPhone: string | null;
        installer: string | null;
        ownerName: string | null;
      }>(
        db,
        sql`select contact_name as "contactName", contact_phone as "contactPhone", installer, owner_name as "ownerName" from plants where id = ${plantId}`,
      );
      return r;
    },

    async setContacts(
      plantId: number,
      c: {
        contactName?: string | undefined;
        contactPhone?: string | undefined;
        installer?: string | undefined;
        ownerName?: string | undefined;
      },
    ) {
      await db.execute(sql`update plants set contact_name = ${c.contactName ?? null}, contact_phone = ${c.contactPhone ?? null},
          installer = ${c.installer ?? null}, owner_name = ${c.ownerName ?? null} where id = ${plantId}`);
    },

    async gateways(plantId: number): Promise<PlantGateway[]> {
      const rows = await queryRows<{
        id: number;
        sn: string;
        alias: string | null;
        online: boolean;
        status: number;
        last_online_at: Date | string | null;
        fw_version: string | null;
        rssi: number | null;
        device_count: number | string;
      }>(
        db,
        sql`select g.id, g.sn, g.alias, g.online, g.status, g.last_online_at, g.fw_version, g.rssi,
              (select count(*) from devices d where d.gateway_id = g.id) as device_count
            from gateways g where g.plant_id = ${plantId} order by g.sn`,
      );
      return rows.map((g) => ({
        id: Number(g.id),
        sn: g.sn,
        alias: g.alias,
        online: g.online,
        status: Number(g.status),
        lastOnlineAt: iso(g.last_online_at),
        fwVersion: g.fw_version,
        rssi: num(g.rssi),
        deviceCount: Number(g.device_count),
      }));
    },

    /** The registry entry of a gateway: its key hash and binding, to check a binding request. */
    async gatewayBySn(sn: string) {
      const [r] = await queryRows<{
        id: number;
        key_hash: string;
        plant_id: number | null;
        online: boolean;
        device_count: number | string;
      }>(
        db,
        sql`select g.id, g.key_hash, g.plant_id, g.online, (select count(*) from devices d where d.gateway_id = g.id) as device_count
            from gateways g where lower(g.sn) = lower(${sn})`,
      );
      return r
        ? { id: Number(r.id), keyHash: r.key_hash, plantId: num(r.plant_id), online: r.online, deviceCount: Number(r.device_count) }
        : undefined;
    },

    /** Statuses of the plant's devices, to derive the plant's own after a binding. */
    async deviceStatuses(plantId: number): Promise<number[]> {
      const rows = await queryRows<{ status: number }>(db, sql`select status from devices where plant_id = ${plantId}`);
      return rows.map((r) => Number(r.status));
    },

    async setStatus(plantId: number, status: number): Promise<void> {
      await db.execute(sql`update plants set status = ${status} where id = ${plantId}`);
    },

    async bindGateways(plantId: number, gatewayIds: readonly number[]): Promise<void> {
      await db.transaction((tx) => bindGateways(tx, plantId, gatewayIds));
    },

    async shareUsers(plantId: number): Promise<ShareUser[]> {
      const rows = await queryRows<{ user_id: number; account: string; nickname: string; role: ShareRole; created_at: Date | string }>(
        db,
        sql`select s.user_id, u.account, u.nickname, s.role, s.created_at from plant_shares s join users u on u.id = s.user_id
            where s.plant_id = ${plantId} order by s.created_at`,
      );
      return rows.map((r) => ({
        userId: Number(r.user_id),
        account: r.account,
        nickname: r.nickname,
        role: r.role,
        sharedAt: iso(r.created_at) ?? '',
      }));
    },

    async share(plantId: number, userId: number, role: ShareRole): Promise<void> {
      await db.execute(sql`insert into plant_shares (plant_id, user_id, role) values (${plantId}, ${userId}, ${role})
        on conflict (plant_id, user_id) do update set role = excluded.role`);
    },

    async cancelShare(plantId: number, userId: number): Promise<boolean> {
      const rows = await queryRows<{ user_id: number }>(
        db,
        sql`delete from plant_shares where plant_id = ${plantId} and user_id = ${userId} returning user_id`,
      );
      return rows.length > 0;
    },

    /** The new owner takes the plant; a share the new owner held is dropped (they own it now). */
    async transfer(plantId: number, newOwnerId: number): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(sql`update plants set owner_id = ${newOwnerId} where id = ${plantId}`);
        await tx.execute(sql`delete from plant_shares where plant_id = ${plantId} and user_id = ${newOwnerId}`);
      });
    },

    /**
     * Deletes the plant and all its data: devices (with their realtime, daily energy and events by
     * cascade) and their raw and aggregated readings. Gateways return to the registry unbound so
     * they can be bound to another plant.
     */
    async delete(plantId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const ids = sql`(select id from devices where plant_id = ${plantId})`;
        await tx.execute(sql`delete from readings where device_id in ${ids}`);
        await tx.execute(sql`delete from readings_5m where device_id in ${ids}`);
        await tx.execute(sql`delete from readings_hourly where device_id in ${ids}`);
        await tx.execute(sql`delete from devices where plant_id = ${plantId}`);
        await tx.execute(sql`update gateways set plant_id = null where plant_id = ${plantId}`);
        await tx.execute(sql`delete from plants where id = ${plantId}`);
      });
    },

    async userByAccount(account: string) {
      const [r] = await queryRows<{ id: number; company_id: number | null; password_hash: string; disabled_at: Date | null }>(
        db,
        sql`select id, company_id, password_hash, disabled_at from users where account = ${account.trim().toLowerCase()}`,
      );
      return r
        ? { id: Number(r.id), companyId: num(r.company_id), passwordHash: r.password_hash, disabled: r.disabled_at !== null }
        : undefined;
    },

    async passwordHash(userId: number): Promise<string | undefined> {
      const [r] = await queryRows<{ password_hash: string }>(db, sql`select password_hash from users where id = ${userId}`);
      return r?.password_hash;
    },

    async plantCountOfUser(userId: number): Promise<number> {
      const [r] = await queryRows<{ n: number | string }>(
        db,
        sql`select count(*) as n from plants where owner_id = ${userId} or exists (select 1 from plant_shares s where s.plant_id = plants.id and s.user_id = ${userId})`,
      );
      return Number(r?.n ?? 0);
    },

    async openEventCount(where: SQL): Promise<{ total: number; open: number }> {
      const [r] = await queryRows<{ total: number | string; open: number | string }>(
        db,
        sql`select count(*) as total, count(*) filter (where e.cleared_at is null) as open
            from device_events e join plants on plants.id = e.plant_id where ${where}`,
      );
      return { total: Number(r?.total ?? 0), open: Number(r?.open ?? 0) };
    },

    async deviceSummary(plantId: number): Promise<{ deviceCount: number; gatewayCount: number }> {
      const [r] = await queryRows<{ devices: number | string; gateways: number | string }>(
        db,
        sql`select (select count(*) from devices where plant_id = ${plantId}) as devices, (select count(*) from gateways where plant_id = ${plantId}) as gateways`,
      );
      return { deviceCount: Number(r?.devices ?? 0), gatewayCount: Number(r?.gateways ?? 0) };
    },

    async savePredictions(plantId: number, rows: readonly { day: string; energyWh: number }[]): Promise<void> {
      if (rows.length === 0) return;
      await db.execute(sql`insert into plant_predictions (plant_id, day, energy_wh)
        select ${plantId}, d, e from unnest(${sql.param(rows.map((r) => r.day))}::date[], ${sql.param(rows.map((r) => r.energyWh))}::float8[]) as t(d, e)
        on conflict (plant_id, day) do update set energy_wh = excluded.energy_wh`);
    },

    async layout(plantId: number, view: string, type: string): Promise<unknown> {
      const [r] = await queryRows<{ content: unknown }>(
        db,
        sql`select content from plant_layouts where plant_id = ${plantId} and view = ${view} and type = ${type}`,
      );
      return r?.content ?? null;
    },

    async saveLayout(plantId: number, view: string, type: string, content: unknown): Promise<void> {
      await db.execute(sql`insert into plant_layouts (plant_id, view, type, content) values (${plantId}, ${view}, ${type}, ${JSON.stringify(content)}::jsonb)
        on conflict (plant_id, view, type) do update set content = excluded.content, updated_at = now()`);
    },
  };
}

/** Binds gateways and the devices already known behind them to a plant (devices reported before binding). */
async function bindGateways(tx: Database, plantId: number, gatewayIds: readonly number[]): Promise<void> {
  if (gatewayIds.length === 0) return;
  // Only unbound gateways are taken, in the same statement that checks it: two plants racing for one
  // gateway cannot both get it; the loser's transaction rolls back with 301.
  const bound = await queryRows<{ id: number }>(
    tx,
    // Spec 02 §6: an unassigned gateway goes to the company of the user binding it (the plant's company).
    sql`update gateways set plant_id = ${plantId}, company_id = coalesce(company_id, (select company_id from plants where id = ${plantId}))
        where id = any(${sql.param([...gatewayIds])}::int[]) and plant_id is null returning id`,
  );
  if (bound.length !== new Set(gatewayIds).size) throw new ApiError(Code.GATEWAY_USED);
  await tx.execute(sql`update devices set plant_id = ${plantId} where gateway_id = any(${sql.param([...gatewayIds])}::int[])`);
}

export type PlantsRepository = ReturnType<typeof createPlantsRepository>;
