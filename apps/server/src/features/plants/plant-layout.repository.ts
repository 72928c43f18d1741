import { DeviceStatus } from '@sunward/contracts/device-status';
import type { LayoutGroup, LayoutPanel, PhysicalLayout } from '@sunward/contracts/plant-layout';
import { roleIndex } from '@sunward/protocol/positions';
import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.js';

/** A device of the plant as the layout sees it. */
export interface LayoutDeviceRow {
  id: number;
  sn: string;
  family: string;
  protocolId: string;
  name: string;
  ratedPowerW: number | null;
  status: number;
  /** Has reported at least once. */
  reported: boolean;
  powerW: number | null;
  lifetimeWh: number | null;
  ts: string | null;
}

interface StoredPhysical {
  version: number;
  groups: LayoutGroup[];
  panels: LayoutPanel[];
}

const PHYSICAL = { view: 'physical', type: 'default' } as const;
const LINK = { view: 'link', type: 'public' } as const;

/** SQL of the plant layout (plant_layouts rows: the physical layout, and the public link's token hash). */
export function createPlantLayoutRepository(db: Database) {
  return {
    async plant(plantId: number): Promise<{ id: number; name: string; timezone: string; capacityKwp: number } | undefined> {
      const [row] = await queryRows<{ id: number; name: string; timezone: string; capacityKwp: number }>(
        db,
        sql`select id, name, timezone, capacity_kwp::float8 as "capacityKwp" from plants where id = ${plantId}`,
      );
      return row;
    },

    async physical(plantId: number): Promise<PhysicalLayout> {
      const [row] = await queryRows<{ content: StoredPhysical; updatedAt: string }>(
        db,
        sql`select content, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "updatedAt"
            from plant_layouts where plant_id = ${plantId} and view = ${PHYSICAL.view} and type = ${PHYSICAL.type}`,
      );
      if (!row) return { version: 0, updatedAt: null, groups: [], panels: [] };
      const content = row.content;
      return {
        version: Number(content.version) || 0,
        updatedAt: row.updatedAt,
        groups: Array.isArray(content.groups) ? content.groups : [],
        panels: Array.isArray(content.panels) ? content.panels : [],
      };
    },

    /**
     * Saves over `expected` only: the upsert's condition and the write are one statement, so of two
     * editors that loaded the same version exactly one succeeds. Returns false when the stored version moved.
     */
    async savePhysical(plantId: number, expected: number, layout: Omit<StoredPhysical, 'version'>): Promise<boolean> {
      const content = JSON.stringify({ version: expected + 1, groups: layout.groups, panels: layout.panels });
      const rows =
        expected === 0
          ? await queryRows<{ plant_id: number }>(
              db,
              sql`insert into plant_layouts (plant_id, view, type, content) values (${plantId}, ${PHYSICAL.view}, ${PHYSICAL.type}, ${content}::jsonb)
                  on conflict (plant_id, view, type) do nothing returning plant_id`,
            )
          : await queryRows<{ plant_id: number }>(
              db,
              sql`update plant_layouts set content = ${content}::jsonb, updated_at = now()
                  where plant_id = ${plantId} and view = ${PHYSICAL.view} and type = ${PHYSICAL.type} and (content->>'version')::int = ${expected}
                  returning plant_id`,
            );
      return rows.length > 0;
    },

    /** The plant's devices with their latest power and lifetime counter. */
    async devices(plantId: number): Promise<LayoutDeviceRow[]> {
      const rows = await queryRows<Omit<LayoutDeviceRow, 'reported'> & { reported: boolean | null }>(
        db,
        sql`select d.id, d.sn, d.family, d.protocol_id as "protocolId", coalesce(d.alias, d.sn) as name,
                   d.rated_power_w::float8 as "ratedPowerW", d.status, r.device_id is not null as reported,
                   case when d.status = ${DeviceStatus.OFFLINE} then 0 else r.power_w::float8 end as "powerW",
                   r.energy_total_wh::float8 as "lifetimeWh",
                   to_char(r.ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as ts
            from devices d left join device_realtime r on r.device_id = d.id
            where d.plant_id = ${plantId} and d.parent_id is null
            order by d.family, d.sn`,
      );
      return rows.map((r) => ({ ...r, reported: r.reported === true }));
    },

    /** Each device's energy over plant-local days [fromDay, toDay] (the energy model's daily rollup). */
    async energyBetween(deviceIds: readonly number[], fromDay: string, toDay: string): Promise<Map<number, number>> {
      if (deviceIds.length === 0) return new Map();
      const rows = await queryRows<{ id: number; wh: number }>(
        db,
        sql`select device_id as id, sum(energy_wh)::float8 as wh from device_energy_daily
            where device_id = any(${sql.param([...deviceIds])}::int[]) and day between ${fromDay}::date and ${toDay}::date
            group by device_id`,
      );
      return new Map(rows.map((r) => [r.id, r.wh]));
    },

    /**
     * Mean power of each device per `stepMs` between two instants, from raw readings and, where raw
     * readings have expired, the 5-minute averages.
     */
    async powerSteps(
      list: readonly { id: number; protocolId: string }[],
      from: Date,
      to: Date,
      stepMs: number,
    ): Promise<{ id: number; t: number; w: number | null }[]> {
      const out: { id: number; t: number; w: number | null }[] = [];
      const byProtocol = new Map<string, number[]>();
      for (const d of list) byProtocol.set(d.protocolId, [...(byProtocol.get(d.protocolId) ?? []), d.id]);
      const step = sql.raw(`'${Math.round(stepMs / 1000)} seconds'::interval`);
      for (const [protocolId, ids] of byProtocol) {
        const index = roleIndex(protocolId, 'power');
        if (index === undefined) continue;
        const rows = await queryRows<{ id: number; t: number; w: number | null }>(
          db,
          sql`with src as (
                select device_id, ts, values[${index}] as v from readings
                  where device_id = any(${sql.param(ids)}::int[]) and ts >= ${from.toISOString()}::timestamptz and ts < ${to.toISOString()}::timestamptz
                union all
                select m.device_id, m.bucket, m.values[${index}] from readings_5m m
                  where m.device_id = any(${sql.param(ids)}::int[]) and m.bucket >= ${from.toISOString()}::timestamptz and m.bucket < ${to.toISOString()}::timestamptz
                    and not exists (select 1 from readings r where r.device_id = m.device_id and r.ts >= m.bucket and r.ts < m.bucket + interval '5 minutes')
              )
              select device_id as id, (extract(epoch from date_bin(${step}, ts, ${from.toISOString()}::timestamptz)) * 1000)::float8 as t,
                     avg(v)::float8 as w
              from src group by 1, 2 order by 1, 2`,
        );
        out.push(...rows.map((r) => ({ id: r.id, t: Number(r.t), w: r.w === null ? null : Number(r.w) })));
      }
      return out;
    },

    async link(plantId: number): Promise<{ tokenHash: string; createdAt: string } | undefined> {
      const [row] = await queryRows<{ content: { tokenHash: string; createdAt: string } }>(
        db,
        sql`select content from plant_layouts where plant_id = ${plantId} and view = ${LINK.view} and type = ${LINK.type}`,
      );
      return row?.content;
    },

    async saveLink(plantId: number, tokenHash: string, createdAt: string): Promise<void> {
      const content = JSON.stringify({ tokenHash, createdAt });
      await db.execute(sql`insert into plant_layouts (plant_id, view, type, content) values (${plantId}, ${LINK.view}, ${LINK.type}, ${content}::jsonb)
        on conflict (plant_id, view, type) do update set content = excluded.content, updated_at = now()`);
    },

    async deleteLink(plantId: number): Promise<void> {
      await db.execute(sql`delete from plant_layouts where plant_id = ${plantId} and view = ${LINK.view} and type = ${LINK.type}`);
    },

    async plantOfToken(tokenHash: string): Promise<number | undefined> {
      const [row] = await queryRows<{ id: number }>(
        db,
        sql`select plant_id as id from plant_layouts where view = ${LINK.view} and type = ${LINK.type} and content->>'tokenHash' = ${tokenHash}`,
      );
      return row?.id;
    },
  };
}

export type PlantLayoutRepository = ReturnType<typeof createPlantLayoutRepository>;
