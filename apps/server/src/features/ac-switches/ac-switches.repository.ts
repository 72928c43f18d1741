import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, type RowOf, sqlRows } from '../../db/rows.js';
import { acSwitches, devices, plants } from '../../db/schema.js';
import { LATEST_VALUES } from '../../ingest/telemetry-query.repository.js';
import { inCompanySubtree } from '../../lib/company-tree.js';
import type { AuthContext } from '../../plugins/auth.js';
import { assignedToCustomer } from '../plants/plant-access.js';

/** A switch as lists and checks read it: the registry row, its plant, master, people and reporting device. */
export interface AcSwitchRecord {
  id: number;
  sn: string;
  keyHash: string;
  masterId: number | null;
  masterSn: string | null;
  subCount: number;
  alias: string | null;
  companyId: number | null;
  customerId: number | null;
  customerAccount: string | null;
  plantId: number | null;
  plantName: string | null;
  /** The plant's time zone (timed tasks run in it). */
  plantTimeZone: string | null;
  frequency: number;
  associateUserId: number | null;
  associateAccount: string | null;
  createdAt: Date;
  deviceId: number | null;
  protocolId: string | null;
  gatewaySn: string | null;
  deviceStatus: number | null;
  lastReportAt: Date | null;
  values: number[] | null;
}

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const FROM = sql`ac_switches s
  left join plants p on p.id = s.plant_id
  left join ac_switches m on m.id = s.master_id
  left join users cu on cu.id = s.customer_id
  left join users au on au.id = s.associate_user_id
  left join devices d on lower(d.sn) = lower(s.sn) and d.family = 'ac_switch'
  left join gateways g on g.id = d.gateway_id
  left join device_realtime r on r.device_id = d.id`;

const COLUMNS = sql`s.id, s.sn, s.key_hash, s.master_id, m.sn as master_sn,
  (select count(*) from ac_switches c where c.master_id = s.id)::int as sub_count, s.alias, s.company_id, s.customer_id,
  cu.account as customer_account, s.plant_id, p.name as plant_name, p.timezone as plant_time_zone, s.frequency, s.associate_user_id, au.account as associate_account,
  s.created_at, d.id as device_id, d.protocol_id, g.sn as gateway_sn, d.status as device_status, r.ts as last_report_at,
  case when r.device_id is null then null else ${LATEST_VALUES} end as values`;

const S = acSwitches;
const ROW = {
  id: S.id,
  sn: S.sn,
  key_hash: S.keyHash,
  master_id: S.masterId,
  master_sn: nullable(computed.text),
  sub_count: computed.number,
  alias: S.alias,
  company_id: S.companyId,
  customer_id: S.customerId,
  customer_account: nullable(computed.text),
  plant_id: S.plantId,
  plant_name: nullable(plants.name),
  plant_time_zone: nullable(plants.timezone),
  frequency: S.frequency,
  associate_user_id: S.associateUserId,
  associate_account: nullable(computed.text),
  created_at: S.createdAt,
  device_id: nullable(devices.id),
  protocol_id: nullable(devices.protocolId),
  gateway_sn: nullable(computed.text),
  device_status: nullable(devices.status),
  last_report_at: nullable(computed.date),
  values: nullable(computed.numbers),
};

function toRecord(r: RowOf<typeof ROW>): AcSwitchRecord {
  return {
    id: r.id,
    sn: r.sn,
    keyHash: r.key_hash,
    masterId: r.master_id,
    masterSn: r.master_sn,
    subCount: r.sub_count,
    alias: r.alias,
    companyId: r.company_id,
    customerId: r.customer_id,
    customerAccount: r.customer_account,
    plantId: r.plant_id,
    plantName: r.plant_name,
    plantTimeZone: r.plant_time_zone,
    frequency: r.frequency,
    associateUserId: r.associate_user_id,
    associateAccount: r.associate_account,
    createdAt: r.created_at,
    deviceId: r.device_id,
    protocolId: r.protocol_id,
    gatewaySn: r.gateway_sn,
    deviceStatus: r.device_status,
    lastReportAt: r.last_report_at,
    values: r.values,
  };
}

/**
 * The switches a caller sees (the tenant boundary, after device-access.ts): in a plant, at their level for
 * that plant; not in a plant, those of their company's subtree; the platform stock (no company) only to the
 * platform administrator.
 */
export function switchVisibleCondition(auth: AuthContext): SQL {
  if (auth.roleKey === 'platform_admin') return sql`true`;
  const unbound =
    auth.companyId === null ? sql`false` : sql`(s.plant_id is null and ${inCompanySubtree(sql`s.company_id`, auth.companyId)})`;
  return sql`(exists (select 1 from plants vp where vp.id = s.plant_id and (vp.owner_id = ${auth.userId}
      or ${inCompanySubtree(sql`vp.company_id`, auth.companyId)}
      or exists (select 1 from plant_shares vs where vs.plant_id = vp.id and vs.user_id = ${auth.userId})
      or ${assignedToCustomer(sql`vp.id`, auth)})) or ${unbound}
      or s.customer_id = ${auth.userId} or s.associate_user_id = ${auth.userId})`;
}

export interface NewSwitch {
  sn: string;
  keyHash: string;
  companyId: number | null;
  customerId: number | null;
  plantId: number | null;
  /** The master's SN (resolved to its id on insert, so masters of the same batch count). */
  masterSn: string | null;
  alias: string | null;
}

export function createAcSwitchesRepository(db: Database) {
  async function select(where: SQL, tail: SQL = sql``): Promise<AcSwitchRecord[]> {
    const rows = await sqlRows(db, ROW, sql`select ${COLUMNS} from ${FROM} where ${where} ${tail}`);
    return rows.map(toRecord);
  }

  return {
    async find(by: { id: number } | { sn: string }): Promise<AcSwitchRecord | undefined> {
      const [row] = await select('id' in by ? sql`s.id = ${by.id}` : sql`lower(s.sn) = lower(${by.sn})`);
      return row;
    },

    async page(
      auth: AuthContext,
      filter: { keyword?: string; plantId?: number; scope?: 'all' | 'bound' | 'unbound' | 'stock' },
      page: number,
      size: number,
    ) {
      const parts: SQL[] = [switchVisibleCondition(auth)];
      if (filter.plantId !== undefined) parts.push(sql`s.plant_id = ${filter.plantId}`);
      if (filter.keyword) parts.push(sql`(s.sn ilike ${like(filter.keyword)} or s.alias ilike ${like(filter.keyword)})`);
      if (filter.scope === 'bound') parts.push(sql`s.plant_id is not null`);
      if (filter.scope === 'unbound') parts.push(sql`s.plant_id is null`);
      if (filter.scope === 'stock') parts.push(sql`s.company_id is null`);
      const where = sql.join(parts, sql` and `);
      const [count] = await sqlRows(db, { total: computed.number }, sql`select count(*)::int as total from ac_switches s where ${where}`);
      const rows = await select(where, sql`order by s.id desc limit ${size} offset ${(page - 1) * size}`);
      return { rows, total: count?.total ?? 0 };
    },

    /** Lower-cased SNs of the list already in the registry, with the masters and subs among them the caller reaches. */
    async known(auth: AuthContext, sns: readonly string[]) {
      const lowered = [...new Set(sns.map((s) => s.toLowerCase()))];
      if (lowered.length === 0) return { registered: new Set<string>(), masters: new Set<string>(), subs: new Set<string>() };
      const rows = await sqlRows(
        db,
        { sn: S.sn, master_id: S.masterId, visible: computed.boolean },
        sql`select s.sn, s.master_id, coalesce(${switchVisibleCondition(auth)}, false) as visible from ac_switches s
            where lower(s.sn) = any(${sql.param(lowered)}::text[])`,
      );
      return {
        registered: new Set(rows.map((r) => r.sn.toLowerCase())),
        masters: new Set(rows.filter((r) => r.visible && r.master_id === null).map((r) => r.sn.toLowerCase())),
        subs: new Set(rows.filter((r) => r.visible && r.master_id !== null).map((r) => r.sn.toLowerCase())),
      };
    },

    /** registerSwitches: masters first so sub switches of the same batch find them; a taken SN is skipped. */
    async register(list: readonly NewSwitch[]): Promise<Map<string, number>> {
      const ids = new Map<string, number>();
      const ordered = [...list.filter((s) => s.masterSn === null), ...list.filter((s) => s.masterSn !== null)];
      await db.transaction(async (tx) => {
        for (const s of ordered) {
          const [row] = await sqlRows(
            tx,
            { id: S.id },
            sql`insert into ac_switches (sn, key_hash, company_id, customer_id, plant_id, master_id, alias)
                values (${s.sn}, ${s.keyHash}, ${s.companyId}, ${s.customerId}, ${s.plantId},
                  ${s.masterSn === null ? null : sql`(select id from ac_switches where lower(sn) = lower(${s.masterSn}) and master_id is null)`}, ${s.alias})
                on conflict do nothing returning id`,
          );
          if (row) ids.set(s.sn, row.id);
        }
      });
      return ids;
    },

    async update(
      id: number,
      changes: Partial<{
        plantId: number | null;
        companyId: number | null;
        customerId: number | null;
        frequency: number;
        associateUserId: number | null;
      }>,
    ): Promise<void> {
      if (Object.keys(changes).length === 0) return;
      await db.update(acSwitches).set(changes).where(sql`${acSwitches.id} = ${id}`);
    },

    /** Unbinds switches from their plants (sub switches follow their master). */
    async unbindPlant(ids: readonly number[]): Promise<void> {
      await db.execute(
        sql`update ac_switches set plant_id = null where id = any(${sql.param([...ids])}::int[]) or master_id = any(${sql.param([...ids])}::int[])`,
      );
    },

    async remove(id: number): Promise<void> {
      await db.delete(acSwitches).where(sql`${acSwitches.id} = ${id}`);
    },

    /** The accounts of the company's customers (the choice of "imported for" and "associated user"). */
    async customers(companyId: number): Promise<{ userId: number; account: string; name: string | null }[]> {
      return sqlRows(
        db,
        { userId: computed.number, account: computed.text, name: nullable(computed.text) },
        sql`select cc.user_id as "userId", u.account, cc.name from company_customers cc join users u on u.id = cc.user_id
            where cc.company_id = ${companyId} order by u.account`,
      );
    },

    async isCustomer(companyId: number, userId: number): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { one: computed.number },
        sql`select 1 as one from company_customers where company_id = ${companyId} and user_id = ${userId}`,
      );
      return rows.length > 0;
    },

    /** Whether the account may be associated with a switch of the company: a customer or a member of the company. */
    async isCompanyPerson(companyId: number, userId: number): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { one: computed.number },
        sql`select 1 as one where exists (select 1 from company_customers where company_id = ${companyId} and user_id = ${userId})
            or exists (select 1 from users where id = ${userId} and company_id = ${companyId})`,
      );
      return rows.length > 0;
    },

    /** The plant's company (a switch bound to a plant moves into the plant's company). */
    async plantCompany(plantId: number): Promise<number | null> {
      const [row] = await sqlRows(db, { company_id: plants.companyId }, sql`select company_id from plants where id = ${plantId}`);
      return row?.company_id ?? null;
    },
  };
}

export type AcSwitchesRepository = ReturnType<typeof createAcSwitchesRepository>;
