import type { ChannelCounts } from '@sunward/contracts/channel';
import { DeviceStatus } from '@sunward/contracts/device-status';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows } from '../../db/rows.js';
import { companies, roles, users } from '../../db/schema.js';
import { inCompanySubtree } from '../../lib/company-tree.js';

/** A company of the tree with the counts of its own plants (the service rolls them up). */
export interface ChannelCompanyRow {
  id: number;
  name: string;
  kind: string;
  parentId: number | null;
  childBranding: boolean;
  notifySubtree: boolean;
  own: ChannelCounts;
}

/** SQL of the channel hierarchy (issue 24): the tree with counts, creating a child, the settings. */
export function createChannelRepository(db: Database) {
  return {
    async company(id: number) {
      const [row] = await sqlRows(
        db,
        { id: companies.id, kind: companies.kind, child_branding: companies.childBranding, notify_subtree: companies.notifySubtree },
        sql`select id, kind, child_branding, notify_subtree from companies where id = ${id}`,
      );
      return row;
    },

    /**
     * Every company in the subtree of `root` (every company for null: the platform administrator) with
     * the counts of its own plants, in one statement: plants, devices, plants not offline, open alarms,
     * power and today's energy (the same columns the plant list shows).
     */
    async tree(root: number | null): Promise<ChannelCompanyRow[]> {
      const inside = root === null ? sql`true` : inCompanySubtree(sql`c.id`, root);
      const rows = await sqlRows(
        db,
        {
          id: companies.id,
          name: companies.name,
          kind: companies.kind,
          parent_id: nullable(companies.parentId),
          child_branding: companies.childBranding,
          notify_subtree: companies.notifySubtree,
          plants: computed.number,
          devices: computed.number,
          online: computed.number,
          open_alarms: computed.number,
          power_w: computed.number,
          energy_today_wh: computed.number,
        },
        sql`with tree as (select c.id, c.name, c.kind, c.parent_id, c.child_branding, c.notify_subtree from companies c where ${inside}),
            own as (
              select p.company_id, count(*) as plants, count(*) filter (where p.status <> ${DeviceStatus.OFFLINE}) as online,
                     coalesce(sum(p.power_w), 0) as power_w, coalesce(sum(p.energy_today_wh), 0) as energy_today_wh
              from plants p where p.company_id in (select id from tree) group by p.company_id),
            dev as (
              select p.company_id, count(*) as devices from devices d join plants p on p.id = d.plant_id
              where p.company_id in (select id from tree) group by p.company_id),
            alarm as (
              select p.company_id, count(*) as open_alarms from device_events e join plants p on p.id = e.plant_id
              where e.cleared_at is null and p.company_id in (select id from tree) group by p.company_id)
          select t.id, t.name, t.kind, t.parent_id, t.child_branding, t.notify_subtree,
                 coalesce(own.plants, 0) as plants, coalesce(dev.devices, 0) as devices, coalesce(own.online, 0) as online,
                 coalesce(alarm.open_alarms, 0) as open_alarms, coalesce(own.power_w, 0) as power_w,
                 coalesce(own.energy_today_wh, 0) as energy_today_wh
          from tree t left join own on own.company_id = t.id left join dev on dev.company_id = t.id
               left join alarm on alarm.company_id = t.id
          order by t.name, t.id`,
      );
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        kind: r.kind,
        parentId: r.parent_id,
        childBranding: r.child_branding,
        notifySubtree: r.notify_subtree,
        own: {
          plants: r.plants,
          devices: r.devices,
          online: r.online,
          openAlarms: r.open_alarms,
          powerW: r.power_w,
          energyTodayWh: r.energy_today_wh,
        },
      }));
    },

    async nameTaken(name: string): Promise<boolean> {
      const rows = await sqlRows(db, { id: companies.id }, sql`select id from companies where lower(name) = lower(${name})`);
      return rows.length > 0;
    },

    async accountTaken(account: string): Promise<boolean> {
      const rows = await sqlRows(db, { id: users.id }, sql`select id from users where account = ${account}`);
      return rows.length > 0;
    },

    /** The child company and its administrator, together or not at all; undefined when a name or account was taken meanwhile. */
    async createChild(input: {
      parentId: number;
      name: string;
      kind: string;
      account: string;
      passwordHash: string;
      nickname: string;
    }): Promise<number | undefined> {
      return db.transaction(async (tx) => {
        const [role] = await sqlRows(tx, { id: roles.id }, sql`select id from roles where key = 'company_admin' and company_id is null`);
        if (!role) throw new Error('the company_admin role is missing');
        const [company] = await sqlRows(
          tx,
          { id: companies.id },
          sql`insert into companies (name, kind, parent_id) values (${input.name}, ${input.kind}, ${input.parentId})
              on conflict (name) do nothing returning id`,
        );
        if (!company) return undefined;
        const [user] = await sqlRows(
          tx,
          { id: users.id },
          sql`insert into users (account, password_hash, nickname, role_id, company_id)
              values (${input.account}, ${input.passwordHash}, ${input.nickname}, ${role.id}, ${company.id})
              on conflict (account) do nothing returning id`,
        );
        if (!user) {
          await tx.execute(sql`delete from companies where id = ${company.id}`);
          return undefined;
        }
        return company.id;
      });
    },

    async setSettings(companyId: number, settings: { childBranding: boolean; notifySubtree: boolean }): Promise<void> {
      await db.execute(
        sql`update companies set child_branding = ${settings.childBranding}, notify_subtree = ${settings.notifySubtree} where id = ${companyId}`,
      );
    },
  };
}

export type ChannelRepository = ReturnType<typeof createChannelRepository>;
