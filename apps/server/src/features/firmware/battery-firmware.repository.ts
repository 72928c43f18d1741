import type {
  BatteryFirmwareListQuery,
  BatteryProductFields,
  BatteryProductListQuery,
  BatteryProductRow,
  BatteryTypeNode,
  BatteryTypeRef,
} from '@sunward/contracts/battery-firmware';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, type RowOf, sqlRows } from '../../db/rows.js';
import { batteryProducts, batteryTypes, firmware } from '../../db/schema.js';

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

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A battery type's columns. */
const TYPE = { id: batteryTypes.id, name: batteryTypes.name, parent_id: batteryTypes.parentId };

function toType(r: RowOf<typeof TYPE>): BatteryTypeRecord {
  return { id: r.id, name: r.name, parentId: r.parent_id };
}

/** A secondary type and its primary, as columns aliased t_id, t_name, t_parent_id (never null: a secondary's), p_name. */
const TYPE_REF = { t_id: batteryTypes.id, t_name: batteryTypes.name, t_parent_id: computed.number, p_name: batteryTypes.name };

function typeRef(r: RowOf<typeof TYPE_REF>): BatteryTypeRef {
  return { id: r.t_id, name: r.t_name, parentId: r.t_parent_id, parentName: r.p_name };
}

/** A battery product's columns. */
const PRODUCT = {
  id: batteryProducts.id,
  name: batteryProducts.name,
  manufacturer: batteryProducts.manufacturer,
  model: batteryProducts.model,
  battery_type_id: batteryProducts.batteryTypeId,
};

function toProduct(r: RowOf<typeof PRODUCT>): BatteryProductRecord {
  return { id: r.id, name: r.name, manufacturer: r.manufacturer, model: r.model, batteryTypeId: r.battery_type_id };
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
      const rows = await sqlRows(
        db,
        { ...TYPE, products: computed.number, firmware: computed.number },
        sql`select t.id, t.name, t.parent_id,
              (select count(*)::int from battery_products p where p.battery_type_id = t.id) as products,
              (select count(*)::int from firmware f where f.battery_type_id = t.id) as firmware
            from battery_types t order by lower(t.name), t.id`,
      );
      const primaries = rows.filter((r) => r.parent_id === null);
      return primaries.map((p) => ({
        id: p.id,
        name: p.name,
        children: rows
          .filter((c) => c.parent_id === p.id)
          .map((c) => ({
            id: c.id,
            name: c.name,
            parentId: p.id,
            products: c.products,
            firmware: c.firmware,
          })),
      }));
    },

    async typeById(id: number): Promise<BatteryTypeRecord | undefined> {
      const [row] = await sqlRows(db, TYPE, sql`select id, name, parent_id from battery_types where id = ${id}`);
      return row ? toType(row) : undefined;
    },

    /** Whether a sibling (same parent, or another primary when parentId is null) has this name. */
    async typeNameTaken(name: string, parentId: number | null, exceptId = 0): Promise<boolean> {
      const [row] = await sqlRows(
        db,
        { taken: computed.boolean },
        sql`select exists(select 1 from battery_types
              where name = ${name} and id <> ${exceptId} and ${parentId === null ? sql`parent_id is null` : sql`parent_id = ${parentId}`}) as taken`,
      );
      return row?.taken ?? false;
    },

    async typeUsage(id: number): Promise<{ children: number; products: number; firmware: number }> {
      const [row] = await sqlRows(
        db,
        { children: computed.number, products: computed.number, firmware: computed.number },
        sql`select (select count(*)::int from battery_types where parent_id = ${id}) as children,
                   (select count(*)::int from battery_products where battery_type_id = ${id}) as products,
                   (select count(*)::int from firmware where battery_type_id = ${id}) as firmware`,
      );
      return { children: row?.children ?? 0, products: row?.products ?? 0, firmware: row?.firmware ?? 0 };
    },

    async insertType(name: string, parentId: number | null): Promise<number> {
      const [row] = await sqlRows(
        db,
        { id: batteryTypes.id },
        sql`insert into battery_types (name, parent_id) values (${name}, ${parentId}) returning id`,
      );
      if (!row) throw new Error('battery type not inserted');
      return row.id;
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
        sqlRows(
          db,
          { ...PRODUCT, remark: batteryProducts.remark, created_at: batteryProducts.createdAt, ...TYPE_REF, firmware: computed.number },
          sql`select p.*, t.id as t_id, t.name as t_name, t.parent_id as t_parent_id, pt.name as p_name,
                (select count(*)::int from firmware f where f.battery_product_id = p.id) as firmware
              from battery_products p
              join battery_types t on t.id = p.battery_type_id
              join battery_types pt on pt.id = t.parent_id
              where ${where} order by p.created_at desc, p.id desc limit ${q.size} offset ${(q.page - 1) * q.size}`,
        ),
        sqlRows(db, { n: computed.number }, sql`select count(*)::int as n from battery_products p where ${where}`),
      ]);
      return {
        infos: rows.map((r) => ({
          id: r.id,
          name: r.name,
          manufacturer: r.manufacturer,
          model: r.model,
          batteryType: typeRef(r),
          remark: r.remark,
          firmware: r.firmware,
          createdAt: r.created_at.toISOString(),
        })),
        total: counts[0]?.n ?? 0,
      };
    },

    async productById(id: number): Promise<BatteryProductRecord | undefined> {
      const [row] = await sqlRows(
        db,
        PRODUCT,
        sql`select id, name, manufacturer, model, battery_type_id from battery_products where id = ${id}`,
      );
      return row ? toProduct(row) : undefined;
    },

    async productNameTaken(name: string, exceptId = 0): Promise<boolean> {
      const [row] = await sqlRows(
        db,
        { taken: computed.boolean },
        sql`select exists(select 1 from battery_products where name = ${name} and id <> ${exceptId}) as taken`,
      );
      return row?.taken ?? false;
    },

    async productFirmwareCount(id: number): Promise<number> {
      const [row] = await sqlRows(
        db,
        { n: computed.number },
        sql`select count(*)::int as n from firmware where battery_product_id = ${id}`,
      );
      return row?.n ?? 0;
    },

    async insertProduct(f: BatteryProductFields): Promise<number> {
      const [row] = await sqlRows(
        db,
        { id: batteryProducts.id },
        sql`insert into battery_products (name, manufacturer, model, battery_type_id, remark)
            values (${f.name}, ${f.manufacturer}, ${f.model}, ${f.batteryTypeId}, ${f.remark ?? null}) returning id`,
      );
      if (!row) throw new Error('battery product not inserted');
      return row.id;
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
        sqlRows(
          db,
          { id: firmware.id },
          sql`select f.id from firmware f where ${where} order by f.created_at desc, f.id desc limit ${q.size} offset ${(q.page - 1) * q.size}`,
        ),
        sqlRows(db, { n: computed.number }, sql`select count(*)::int as n from firmware f where ${where}`),
      ]);
      return { ids: rows.map((r) => r.id), total: counts[0]?.n ?? 0 };
    },

    /** The type (with its primary) and product of battery images, by image id. */
    async firmwareLinks(
      ids: readonly number[],
    ): Promise<Map<number, { batteryType: BatteryTypeRef; batteryProduct: BatteryProductRecord }>> {
      // Guard against an empty id list: `in ()` is invalid SQL.
      if (ids.length === 0) return new Map();
      const rows = await sqlRows(
        db,
        { f_id: firmware.id, ...TYPE_REF, ...PRODUCT },
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
      return new Map(rows.map((r) => [r.f_id, { batteryType: typeRef(r), batteryProduct: toProduct(r) }]));
    },
  };
}

export type BatteryFirmwareRepository = ReturnType<typeof createBatteryFirmwareRepository>;
