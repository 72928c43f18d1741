import type {
  BatteryFirmwareListQuery,
  BatteryProductFields,
  BatteryProductListQuery,
  BatteryProductRow,
  BatteryTypeNode,
  BatteryTypeRef,
} from '@sunward/contracts/battery-firmware';
import { type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.js';

/** A battery type as stored: a primary has no parent. */
export interface BatteryTypeRecord {
  id: number;
  name: string;
  parentId: number | null;
}

export interface BatteryProductRecord {
  id: number;
  name: string;
  manufacturer: string;
  model: string;
  batteryTypeId: number;
}

type Raw = Record<string, unknown>;

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const count = (v: unknown) => Number(v ?? 0);

function toType(r: Raw): BatteryTypeRecord {
  return {
    id: Number(r.id),
    name: String(r.name),
    parentId: r.parent_id === null || r.parent_id === undefined ? null : Number(r.parent_id),
  };
}

/** A secondary type and its primary, from columns aliased t_id, t_name, t_parent_id, p_name. */
function typeRef(r: Raw): BatteryTypeRef {
  return { id: Number(r.t_id), name: String(r.t_name), parentId: Number(r.t_parent_id), parentName: String(r.p_name) };
}

/** Rows whose battery type is `typeId` or, when it is a primary, one of its secondary types. */
const underType = (column: SQL, typeId: number) =>
  sql`${column} in (select id from battery_types where id = ${typeId} or parent_id = ${typeId})`;

/** All SQL of the battery firmware library: types, products and the battery columns of firmware records. */
export function createBatteryFirmwareRepository(db: Database) {
  return {
    // ---- types ----

    /** The whole tree with, per secondary type, how many products and images use it. */
    async tree(): Promise<BatteryTypeNode[]> {
      const rows = await queryRows<Raw>(
        db,
        sql`select t.id, t.name, t.parent_id,
              (select count(*)::int from battery_products p where p.battery_type_id = t.id) as products,
              (select count(*)::int from firmware f where f.battery_type_id = t.id) as firmware
            from battery_types t order by lower(t.name), t.id`,
      );
      const primaries = rows.filter((r) => r.parent_id === null || r.parent_id === undefined);
      return primaries.map((p) => ({
        id: Number(p.id),
        name: String(p.name),
        children: rows
          .filter((c) => c.parent_id !== null && c.parent_id !== undefined && Number(c.parent_id) === Number(p.id))
          .map((c) => ({
            id: Number(c.id),
            name: String(c.name),
            parentId: Number(c.parent_id),
            products: count(c.products),
            firmware: count(c.firmware),
          })),
      }));
    },

    async typeById(id: number): Promise<BatteryTypeRecord | undefined> {
      const [row] = await queryRows<Raw>(db, sql`select id, name, parent_id from battery_types where id = ${id}`);
      return row ? toType(row) : undefined;
    },

    /** Whether a sibling (same parent, or another primary when parentId is null) has this name. */
    async typeNameTaken(name: string, parentId: number | null, exceptId = 0): Promise<boolean> {
      const [row] = await queryRows<{ taken: boolean }>(
        db,
        sql`select exists(select 1 from battery_types
              where name = ${name} and id <> ${exceptId} and ${parentId === null ? sql`parent_id is null` : sql`parent_id = ${parentId}`}) as taken`,
      );
      return Boolean(row?.taken);
    },

    async typeUsage(id: number): Promise<{ children: number; products: number; firmware: number }> {
      const [row] = await queryRows<Raw>(
        db,
        sql`select (select count(*)::int from battery_types where parent_id = ${id}) as children,
                   (select count(*)::int from battery_products where battery_type_id = ${id}) as products,
                   (select count(*)::int from firmware where battery_type_id = ${id}) as firmware`,
      );
      return { children: count(row?.children), products: count(row?.products), firmware: count(row?.firmware) };
    },

    async insertType(name: string, parentId: number | null): Promise<number> {
      const [row] = await queryRows<{ id: number }>(
        db,
        sql`insert into battery_types (name, parent_id) values (${name}, ${parentId}) returning id`,
      );
      if (!row) throw new Error('battery type not inserted');
      return Number(row.id);
    },

    async renameType(id: number, name: string): Promise<void> {
      await db.execute(sql`update battery_types set name = ${name} where id = ${id}`);
    },

    async moveType(id: number, parentId: number): Promise<void> {
      await db.execute(sql`update battery_types set parent_id = ${parentId} where id = ${id}`);
    },

    async removeType(id: number): Promise<void> {
      await db.execute(sql`delete from battery_types where id = ${id}`);
    },

    // ---- products ----

    async products(q: BatteryProductListQuery): Promise<{ infos: BatteryProductRow[]; total: number }> {
      const parts: SQL[] = [sql`true`];
      if (q.keyword)
        parts.push(sql`(p.name ilike ${like(q.keyword)} or p.manufacturer ilike ${like(q.keyword)} or p.model ilike ${like(q.keyword)})`);
      if (q.batteryTypeId) parts.push(underType(sql`p.battery_type_id`, q.batteryTypeId));
      const where = sql.join(parts, sql` and `);
      const [rows, counts] = await Promise.all([
        queryRows<Raw>(
          db,
          sql`select p.*, t.id as t_id, t.name as t_name, t.parent_id as t_parent_id, pt.name as p_name,
                (select count(*)::int from firmware f where f.battery_product_id = p.id) as firmware
              from battery_products p
              join battery_types t on t.id = p.battery_type_id
              join battery_types pt on pt.id = t.parent_id
              where ${where} order by p.created_at desc, p.id desc limit ${q.size} offset ${(q.page - 1) * q.size}`,
        ),
        queryRows<{ n: number | string }>(db, sql`select count(*)::int as n from battery_products p where ${where}`),
      ]);
      return {
        infos: rows.map((r) => ({
          id: Number(r.id),
          name: String(r.name),
          manufacturer: String(r.manufacturer),
          model: String(r.model),
          batteryType: typeRef(r),
          remark: r.remark === null || r.remark === undefined ? null : String(r.remark),
          firmware: count(r.firmware),
          createdAt: new Date(r.created_at as string | Date).toISOString(),
        })),
        total: count(counts[0]?.n),
      };
    },

    async productById(id: number): Promise<BatteryProductRecord | undefined> {
      const [row] = await queryRows<Raw>(
        db,
        sql`select id, name, manufacturer, model, battery_type_id from battery_products where id = ${id}`,
      );
      return row
        ? {
            id: Number(row.id),
            name: String(row.name),
            manufacturer: String(row.manufacturer),
            model: String(row.model),
            batteryTypeId: Number(row.battery_type_id),
          }
        : undefined;
    },

    async productNameTaken(name: string, exceptId = 0): Promise<boolean> {
      const [row] = await queryRows<{ taken: boolean }>(
        db,
        sql`select exists(select 1 from battery_products where name = ${name} and id <> ${exceptId}) as taken`,
      );
      return Boolean(row?.taken);
    },

    async productFirmwareCount(id: number): Promise<number> {
      const [row] = await queryRows<Raw>(db, sql`select count(*)::int as n from firmware where battery_product_id = ${id}`);
      return count(row?.n);
    },

    async insertProduct(f: BatteryProductFields): Promise<number> {
      const [row] = await queryRows<{ id: number }>(
        db,
        sql`insert into battery_products (name, manufacturer, model, battery_type_id, remark)
            values (${f.name}, ${f.manufacturer}, ${f.model}, ${f.batteryTypeId}, ${f.remark ?? null}) returning id`,
      );
      if (!row) throw new Error('battery product not inserted');
      return Number(row.id);
    },

    /**
     * Updates a product and carries its name, manufacturer and battery type over to its images, in one
     * transaction: an image's product text and type always match its product.
     */
    async updateProduct(id: number, f: BatteryProductFields): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(sql`update battery_products set name = ${f.name}, manufacturer = ${f.manufacturer}, model = ${f.model},
            battery_type_id = ${f.batteryTypeId}, remark = ${f.remark ?? null} where id = ${id}`);
        await tx.execute(sql`update firmware set product = ${f.name}, manufacturer = ${f.manufacturer}, battery_type_id = ${f.batteryTypeId}
            where battery_product_id = ${id}`);
      });
    },

    async removeProduct(id: number): Promise<void> {
      await db.execute(sql`delete from battery_products where id = ${id}`);
    },

    // ---- images ----

    /** Battery images, newest first; filters by type (a primary covers its secondary types), product, keyword, state. */
    async firmwarePage(q: BatteryFirmwareListQuery): Promise<{ ids: number[]; total: number }> {
      const parts: SQL[] = [sql`f.type = 'battery'`];
      if (q.keyword)
        parts.push(sql`(f.name ilike ${like(q.keyword)} or f.product ilike ${like(q.keyword)} or f.manufacturer ilike ${like(q.keyword)})`);
      if (q.batteryTypeId) parts.push(underType(sql`f.battery_type_id`, q.batteryTypeId));
      if (q.batteryProductId) parts.push(sql`f.battery_product_id = ${q.batteryProductId}`);
      if (q.enabled !== undefined) parts.push(sql`f.enabled = ${q.enabled}`);
      const where = sql.join(parts, sql` and `);
      const [rows, counts] = await Promise.all([
        queryRows<{ id: number }>(
          db,
          sql`select f.id from firmware f where ${where} order by f.created_at desc, f.id desc limit ${q.size} offset ${(q.page - 1) * q.size}`,
        ),
        queryRows<{ n: number | string }>(db, sql`select count(*)::int as n from firmware f where ${where}`),
      ]);
      return { ids: rows.map((r) => Number(r.id)), total: count(counts[0]?.n) };
    },

    /** The type (with its primary) and product of battery images, by image id. */
    async firmwareLinks(
      ids: readonly number[],
    ): Promise<Map<number, { batteryType: BatteryTypeRef; batteryProduct: BatteryProductRecord }>> {
      // Guard against an empty id list: `in ()` is invalid SQL.
      if (ids.length === 0) return new Map();
      const rows = await queryRows<Raw>(
        db,
        sql`select f.id as f_id, t.id as t_id, t.name as t_name, t.parent_id as t_parent_id, pt.name as p_name,
              p.id, p.name, p.manufacturer, p.model, p.battery_type_id
            from firmware f
            join battery_types t on t.id = f.battery_type_id
            join battery_types pt on pt.id = t.parent_id
            join battery_products p on p.id = f.battery_product_id
            where f.id in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})`,
      );
      return new Map(
        rows.map((r) => [
          Number(r.f_id),
          {
            batteryType: typeRef(r),
            batteryProduct: {
              id: Number(r.id),
              name: String(r.name),
              manufacturer: String(r.manufacturer),
              model: String(r.model),
              batteryTypeId: Number(r.battery_type_id),
            },
          },
        ]),
      );
    },
  };
}

export type BatteryFirmwareRepository = ReturnType<typeof createBatteryFirmwareRepository>;
