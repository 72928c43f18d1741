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
import type { Database } from '../../db/client.js';
import { computed, nullable, type RowOf, sqlRows } from '../../db/rows.js';
import { devices, gateways, plantShares, plants, users } from '../../db/schema.js';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { levelOf, subtreeColumn, visibleCondition } from './plant-access.js';

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

/** A plant as the list shows it, with the caller's share role when the plant is shared with them. */
const PLANT_ROW = {
  id: plants.id,
  name: plants.name,
  picture: plants.picture,
  plant_type: plants.plantType,
  capacity_kwp: plants.capacityKwp,
  status: plants.status,
  power_w: plants.powerW,
  energy_today_wh: plants.energyTodayWh,
  energy_total_wh: plants.energyTotalWh,
  last_update_at: plants.lastUpdateAt,
  region: plants.region,
  address: plants.address,
  timezone: plants.timezone,
  created_at: plants.createdAt,
  owner_id: plants.ownerId,
  company_id: plants.companyId,
  share_role: nullable(plantShares.role),
  in_subtree: computed.boolean,
};
type RowRecord = RowOf<typeof PLANT_ROW>;

/** The tariff as the wizard sent it (validated by TariffSchema before it is stored). */
const tariff = nullable(computed.json<Tariff>());

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;

function toRow(auth: AuthContext, r: RowRecord): PlantRow {
  const capacity = r.capacity_kwp;
  const today = r.energy_today_wh;
  return {
    id: r.id,
    name: r.name,
    picture: r.picture,
    plantType: r.plant_type,
    capacityKwp: capacity,
    status: r.status,
    powerW: r.power_w,
    energyTodayWh: today,
    energyTotalWh: r.energy_total_wh,
    specificYield: today === null || capacity <= 0 ? null : today / 1000 / capacity,
    lastUpdateAt: iso(r.last_update_at),
    region: r.region,
    address: r.address,
    timezone: r.timezone,
    createdAt: iso(r.created_at) ?? '',
    access: levelOf(auth, r.owner_id, r.company_id, r.share_role, r.in_subtree) ?? 'view',
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
        sqlRows(
          db,
          PLANT_ROW,
          sql`select ${ROW_COLUMNS}, (select s.role from plant_shares s where s.plant_id = plants.id and s.user_id = ${auth.userId}) as share_role,
            ${subtreeColumn(auth, sql`plants.company_id`)} as in_subtree
              from plants where ${where}
              order by ${column} ${direction}, plants.id ${order === 'asc' ? sql`asc` : sql`desc`}
              limit ${size} offset ${(page - 1) * size}`,
        ),
        sqlRows(db, { total: computed.number }, sql`select count(*) as total from plants where ${where}`),
      ]);
      return { total: count?.total ?? 0, records: rows.map((r) => toRow(auth, r)) };
    },

    async row(auth: AuthContext, plantId: number): Promise<PlantRow | undefined> {
      const [r] = await sqlRows(
        db,
        PLANT_ROW,
        sql`select ${ROW_COLUMNS}, (select s.role from plant_shares s where s.plant_id = plants.id and s.user_id = ${auth.userId}) as share_role,
            ${subtreeColumn(auth, sql`plants.company_id`)} as in_subtree
            from plants where plants.id = ${plantId}`,
      );
      return r ? toRow(auth, r) : undefined;
    },

    async statusCount(auth: AuthContext, filter: PlantFilter = {}): Promise<PlantStatusCount> {
      const [r] = await sqlRows(
        db,
        {
          total: computed.number,
          normal: computed.number,
          offline: computed.number,
          warning: computed.number,
          fault: computed.number,
          upgrading: computed.number,
          protect: computed.number,
        },
        sql`select count(*) as total,
              count(*) filter (where status = 1) as normal, count(*) filter (where status = 2) as offline,
              count(*) filter (where status = 3) as warning, count(*) filter (where status = 4) as fault,
              count(*) filter (where status = 5) as upgrading, count(*) filter (where status = 6) as protect
            from plants where ${filterCondition(auth, filter)}`,
      );
      return {
        total: r?.total ?? 0,
        normal: r?.normal ?? 0,
        offline: r?.offline ?? 0,
        warning: r?.warning ?? 0,
        fault: r?.fault ?? 0,
        upgrading: r?.upgrading ?? 0,
        protect: r?.protect ?? 0,
      };
    },

    async mapMarkers(auth: AuthContext, filter: PlantFilter): Promise<[number, number, number, number][]> {
      const rows = await sqlRows(
        db,
        { id: plants.id, latitude: plants.latitude, longitude: plants.longitude, status: plants.status },
        sql`select id, latitude, longitude, status from plants where ${filterCondition(auth, filter)}`,
      );
      return rows.map((r) => [r.id, r.latitude, r.longitude, r.status]);
    },

    async regions(auth: AuthContext): Promise<string[]> {
      const rows = await sqlRows(
        db,
        { region: computed.text },
        sql`select distinct region from plants where region is not null and ${visibleCondition(auth)} order by region`,
      );
      return rows.map((r) => r.region);
    },

    /** Plants the caller can pick (selectors, comparison): id and name, by name. */
    async options(auth: AuthContext, ownOnly: boolean): Promise<{ id: number; name: string; plantType: number }[]> {
      const where = ownOnly ? sql`plants.owner_id = ${auth.userId}` : visibleCondition(auth);
      const rows = await sqlRows(
        db,
        { id: plants.id, name: plants.name, plant_type: plants.plantType },
        sql`select id, name, plant_type from plants where ${where} order by name limit 10000`,
      );
      return rows.map((r) => ({ id: r.id, name: r.name, plantType: r.plant_type }));
    },

    async record(plantId: number): Promise<PlantRecord | undefined> {
      const [r] = await sqlRows(
        db,
        { id: plants.id, owner_id: plants.ownerId, company_id: plants.companyId, plant_type: plants.plantType, name: plants.name },
        sql`select id, owner_id, company_id, plant_type, name from plants where id = ${plantId}`,
      );
      return r ? { id: r.id, ownerId: r.owner_id, companyId: r.company_id, plantType: r.plant_type, name: r.name } : undefined;
    },

    /** The plant as its detail page shows it; `shared` says whether it is shared with `viewerId`. */
    async detail(plantId: number, access: PlantAccessLevel, viewerId: number): Promise<PlantDetail | undefined> {
      const [r] = await sqlRows(
        db,
        {
          id: plants.id,
          name: plants.name,
          alias: plants.alias,
          plant_type: plants.plantType,
          capacity_kwp: plants.capacityKwp,
          grid_date: plants.gridDate,
          latitude: plants.latitude,
          longitude: plants.longitude,
          address: plants.address,
          region: plants.region,
          timezone: plants.timezone,
          picture: plants.picture,
          contact_name: plants.contactName,
          contact_phone: plants.contactPhone,
          installer: plants.installer,
          owner_name: plants.ownerName,
          metering_topology: plants.meteringTopology,
          status: plants.status,
          company_id: plants.companyId,
          owner_id: plants.ownerId,
          owner_account: nullable(users.account),
          created_at: plants.createdAt,
          tariff,
          shared: computed.boolean,
        },
        sql`select p.id, p.name, p.alias, p.plant_type, p.capacity_kwp, to_char(p.grid_date, 'YYYY-MM-DD') as grid_date, p.latitude, p.longitude,
              p.address, p.region, p.timezone, p.picture, p.contact_name, p.contact_phone, p.installer, p.owner_name, p.metering_topology,
              p.status, p.company_id, p.owner_id, u.account as owner_account, p.created_at, p.tariff,
              exists (select 1 from plant_shares s where s.plant_id = p.id and s.user_id = ${viewerId}) as shared
            from plants p left join users u on u.id = p.owner_id where p.id = ${plantId}`,
      );
      if (!r) return undefined;
      return {
        id: r.id,
        name: r.name,
        alias: r.alias,
        plantType: r.plant_type,
        capacityKwp: r.capacity_kwp,
        gridDate: r.grid_date,
        latitude: r.latitude,
        longitude: r.longitude,
        address: r.address,
        region: r.region,
        timezone: r.timezone,
        picture: r.picture,
        contactName: r.contact_name,
        contactPhone: r.contact_phone,
        installer: r.installer,
        ownerName: r.owner_name,
        meteringTopology: r.metering_topology === 'net' ? 'net' : 'gross',
        status: r.status,
        companyId: r.company_id,
        ownerId: r.owner_id,
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
        const [row] = await sqlRows(
          tx,
          { id: plants.id },
          sql`insert into plants (name, alias, company_id, owner_id, plant_type, capacity_kwp, latitude, longitude, timezone, address, region,
                grid_date, picture, contact_name, contact_phone, installer, owner_name, metering_topology, tariff)
              values (${fields.name}, ${fields.alias ?? null}, ${companyId}, ${ownerId}, ${fields.plantType}, ${fields.capacityKwp},
                ${fields.latitude}, ${fields.longitude}, ${fields.timezone}, ${fields.address ?? null}, ${fields.region ?? null},
                ${fields.gridDate ?? null}, ${fields.picture ?? null}, ${fields.contactName ?? null}, ${fields.contactPhone ?? null},
                ${fields.installer ?? null}, ${fields.ownerName ?? null}, ${fields.meteringTopology}, ${JSON.stringify(tariff)}::jsonb)
              returning id`,
        );
        if (!row) throw new Error('plant not created');
        const plantId = row.id;
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
      const [r] = await sqlRows(db, { tariff }, sql`select tariff from plants where id = ${plantId}`);
      return r?.tariff ?? null;
    },

    async contacts(plantId: number) {
      const [r] = await sqlRows(
        db,
        { contactName: plants.contactName, contactPhone: plants.contactPhone, installer: plants.installer, ownerName: plants.ownerName },
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
      const rows = await sqlRows(
        db,
        {
          id: gateways.id,
          sn: gateways.sn,
          alias: gateways.alias,
          online: gateways.online,
          status: gateways.status,
          last_online_at: gateways.lastOnlineAt,
          fw_version: gateways.fwVersion,
          rssi: gateways.rssi,
          device_count: computed.number,
        },
        sql`select g.id, g.sn, g.alias, g.online, g.status, g.last_online_at, g.fw_version, g.rssi,
              (select count(*) from devices d where d.gateway_id = g.id) as device_count
            from gateways g where g.plant_id = ${plantId} order by g.sn`,
      );
      return rows.map((g) => ({
        id: g.id,
        sn: g.sn,
        alias: g.alias,
        online: g.online,
        status: g.status,
        lastOnlineAt: iso(g.last_online_at),
        fwVersion: g.fw_version,
        rssi: g.rssi,
        deviceCount: g.device_count,
      }));
    },

    /** The registry entry of a gateway: its key hash and binding, to check a binding request. */
    async gatewayBySn(sn: string) {
      const [r] = await sqlRows(
        db,
        { id: gateways.id, key_hash: gateways.keyHash, plant_id: gateways.plantId, online: gateways.online, device_count: computed.number },
        sql`select g.id, g.key_hash, g.plant_id, g.online, (select count(*) from devices d where d.gateway_id = g.id) as device_count
            from gateways g where lower(g.sn) = lower(${sn})`,
      );
      return r ? { id: r.id, keyHash: r.key_hash, plantId: r.plant_id, online: r.online, deviceCount: r.device_count } : undefined;
    },

    /** Statuses of the plant's devices, to derive the plant's own after a binding. */
    async deviceStatuses(plantId: number): Promise<number[]> {
      const rows = await sqlRows(db, { status: devices.status }, sql`select status from devices where plant_id = ${plantId}`);
      return rows.map((r) => r.status);
    },

    async setStatus(plantId: number, status: number): Promise<void> {
      await db.execute(sql`update plants set status = ${status} where id = ${plantId}`);
    },

    async bindGateways(plantId: number, gatewayIds: readonly number[]): Promise<void> {
      await db.transaction((tx) => bindGateways(tx, plantId, gatewayIds));
    },

    async shareUsers(plantId: number): Promise<ShareUser[]> {
      const rows = await sqlRows(
        db,
        {
          user_id: plantShares.userId,
          account: users.account,
          nickname: users.nickname,
          role: plantShares.role,
          created_at: plantShares.createdAt,
        },
        sql`select s.user_id, u.account, u.nickname, s.role, s.created_at from plant_shares s join users u on u.id = s.user_id
            where s.plant_id = ${plantId} order by s.created_at`,
      );
      return rows.map((r) => ({
        userId: r.user_id,
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
      const rows = await sqlRows(
        db,
        { user_id: plantShares.userId },
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
      const [r] = await sqlRows(
        db,
        { id: users.id, company_id: users.companyId, password_hash: users.passwordHash, disabled_at: users.disabledAt },
        sql`select id, company_id, password_hash, disabled_at from users where account = ${account.trim().toLowerCase()}`,
      );
      return r ? { id: r.id, companyId: r.company_id, passwordHash: r.password_hash, disabled: r.disabled_at !== null } : undefined;
    },

    async passwordHash(userId: number): Promise<string | undefined> {
      const [r] = await sqlRows(db, { password_hash: users.passwordHash }, sql`select password_hash from users where id = ${userId}`);
      return r?.password_hash;
    },

    async plantCountOfUser(userId: number): Promise<number> {
      const [r] = await sqlRows(
        db,
        { n: computed.number },
        sql`select count(*) as n from plants where owner_id = ${userId} or exists (select 1 from plant_shares s where s.plant_id = plants.id and s.user_id = ${userId})`,
      );
      return r?.n ?? 0;
    },

    async openEventCount(where: SQL): Promise<{ total: number; open: number }> {
      const [r] = await sqlRows(
        db,
        { total: computed.number, open: computed.number },
        sql`select count(*) as total, count(*) filter (where e.cleared_at is null) as open
            from device_events e join plants on plants.id = e.plant_id where ${where}`,
      );
      return { total: r?.total ?? 0, open: r?.open ?? 0 };
    },

    async deviceSummary(plantId: number): Promise<{ deviceCount: number; gatewayCount: number }> {
      const [r] = await sqlRows(
        db,
        { devices: computed.number, gateways: computed.number },
        sql`select (select count(*) from devices where plant_id = ${plantId}) as devices, (select count(*) from gateways where plant_id = ${plantId}) as gateways`,
      );
      return { deviceCount: r?.devices ?? 0, gatewayCount: r?.gateways ?? 0 };
    },

    async savePredictions(plantId: number, rows: readonly { day: string; energyWh: number }[]): Promise<void> {
      if (rows.length === 0) return;
      await db.execute(sql`insert into plant_predictions (plant_id, day, energy_wh)
        select ${plantId}, d, e from unnest(${sql.param(rows.map((r) => r.day))}::date[], ${sql.param(rows.map((r) => r.energyWh))}::float8[]) as t(d, e)
        on conflict (plant_id, day) do update set energy_wh = excluded.energy_wh`);
    },
  };
}

/** Binds gateways and the devices already known behind them to a plant (devices reported before binding). */
async function bindGateways(tx: Database, plantId: number, gatewayIds: readonly number[]): Promise<void> {
  if (gatewayIds.length === 0) return;
  // Only unbound gateways are taken, in the same statement that checks it: two plants racing for one
  // gateway cannot both get it; the loser's transaction rolls back with 301.
  const bound = await sqlRows(
    tx,
    { id: gateways.id },
    // Spec 02 §6: an unassigned gateway goes to the company of the user binding it (the plant's company).
    sql`update gateways set plant_id = ${plantId}, company_id = coalesce(company_id, (select company_id from plants where id = ${plantId}))
        where id = any(${sql.param([...gatewayIds])}::int[]) and plant_id is null returning id`,
  );
  if (bound.length !== new Set(gatewayIds).size) throw new ApiError(Code.GATEWAY_USED);
  await tx.execute(sql`update devices set plant_id = ${plantId} where gateway_id = any(${sql.param([...gatewayIds])}::int[])`);
}

export type PlantsRepository = ReturnType<typeof createPlantsRepository>;
