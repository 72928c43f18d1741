import type { FirmwareFields, FirmwareListQuery, FirmwareRow, FirmwareType } from '@sunward/contracts/firmware';
import type { FirmwareRelease, FirmwareReleaseQuery } from '@sunward/contracts/firmware-releases';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows, type TableRow, tableRows } from '../../db/rows.js';
import { companies, firmware, hardwareModels, users } from '../../db/schema.js';
import { companySubtree, inCompanySubtree } from '../../lib/company-tree.js';

/** A record as stored: the row the console sees plus where its image is kept and, for a battery image, its type and product. */
export interface FirmwareRecord extends FirmwareRow {
  storageKey: string;
  batteryTypeId: number | null;
  batteryProductId: number | null;
}

/** A record's metadata of any type: the main library's fields, or a battery image's with its type and product. */
export interface FirmwareRecordFields extends Omit<FirmwareFields, 'type'> {
  type: FirmwareType;
  batteryTypeId?: number | null;
  batteryProductId?: number | null;
}

export interface NewFirmware extends FirmwareRecordFields {
  fileName: string;
  size: number;
  md5: string;
  sha256: string;
  signature: string;
  storageKey: string;
  creatorId: number;
}

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const typeOf = (v: unknown): FirmwareType => (v === 'gateway' ? 'gateway' : v === 'battery' ? 'battery' : 'inverter');

function toRecord(r: TableRow<typeof firmware> & { creator: string | null; company_name: string | null }): FirmwareRecord {
  return {
    id: r.id,
    name: r.name,
    manufacturer: r.manufacturer,
    product: r.product,
    itemNumber: r.itemNumber,
    hwVersion: r.hwVersion,
    swVersion: r.swVersion,
    swCompatible: r.swCompatible,
    type: typeOf(r.type),
    mode: r.mode === 'local' ? 'local' : 'remote',
    fileName: r.fileName,
    size: r.size,
    md5: r.md5,
    sha256: r.sha256,
    signature: r.signature,
    enabled: r.enabled,
    changeLog: r.changeLog,
    creator: r.creator,
    createdAt: r.createdAt.toISOString(),
    companyId: r.companyId,
    companyName: r.company_name,
    storageKey: r.storageKey,
    batteryTypeId: r.batteryTypeId,
    batteryProductId: r.batteryProductId,
  };
}

const SELECT = sql`select f.*, u.account as creator, c.name as company_name from firmware f
  left join users u on u.id = f.creator_id left join companies c on c.id = f.company_id`;

/** Records with their creator's account, typed from the schema. */
const stored = (db: Database, query: SQL) =>
  tableRows(db, firmware, query, { creator: nullable(users.account), company_name: nullable(companies.name) });

/** All SQL of the firmware library. */

/**
 * SQL condition on `f`: the image is offered to a caller of `companyId` (undefined: the platform administrator,
 * every image). An image authorised for a company (issue 24, channel hierarchy) is offered only within that
 * company's subtree; an image with no company to everyone.
 */
function offeredWithin(companyId?: number | null): SQL {
  return companyId === undefined
    ? sql`true`
    : sql`(f.company_id is null or ${inCompanySubtree(sql`${companyId}::int`, sql`f.company_id`)})`;
}

export function createFirmwareRepository(db: Database) {
  return {
    /**
     * The firmware versions a device model can run, from the hardware list (manufacturer = the device's brand,
     * case-insensitive): null when the model is not listed or runs any version.
     */
    async modelFirmwareRange(brand: string, model: string): Promise<string | null> {
      const [row] = await db
        .select({ range: hardwareModels.firmwareCompatible })
        .from(hardwareModels)
        .where(sql`lower(${hardwareModels.manufacturer}) = lower(${brand}) and lower(${hardwareModels.model}) = lower(${model})`);
      return row?.range ?? null;
    },

    /**
     * Enabled, remotely installable images of a type (the upgrade pickers), newest first. `companyId`
     * (undefined: every image, the platform administrator): an image authorised for a company (issue 24,
     * channel hierarchy) is offered only within that company's subtree.
     */
    async remoteOptions(type: FirmwareType, companyId?: number | null) {
      const authorised = offeredWithin(companyId);
      return sqlRows(
        db,
        { id: firmware.id, name: firmware.name, product: firmware.product, sw_version: firmware.swVersion },
        sql`select f.id, f.name, f.product, f.sw_version from firmware f
            where f.type = ${type} and f.enabled and f.mode = 'remote' and ${authorised} order by f.created_at desc, f.id desc limit 100`,
      );
    },

    async page(q: FirmwareListQuery): Promise<{ infos: FirmwareRecord[]; total: number }> {
      const parts: SQL[] = [sql`true`];
      if (q.keyword)
        parts.push(sql`(f.name ilike ${like(q.keyword)} or f.product ilike ${like(q.keyword)} or f.manufacturer ilike ${like(q.keyword)})`);
      // The main library lists gateway and inverter images; battery images have their own list.
      parts.push(q.type ? sql`f.type = ${q.type}` : sql`f.type in ('gateway', 'inverter')`);
      if (q.enabled !== undefined) parts.push(sql`f.enabled = ${q.enabled}`);
      const where = sql.join(parts, sql` and `);
      const [rows, counts] = await Promise.all([
        stored(db, sql`${SELECT} where ${where} order by f.created_at desc, f.id desc limit ${q.size} offset ${(q.page - 1) * q.size}`),
        sqlRows(db, { n: computed.number }, sql`select count(*)::int as n from firmware f where ${where}`),
      ]);
      return { infos: rows.map(toRecord), total: counts[0]?.n ?? 0 };
    },

    /** Whether the image is offered to a caller of `companyId` (undefined: the platform administrator, every image). */
    async offeredTo(id: number, companyId?: number | null): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { id: firmware.id },
        sql`select f.id from firmware f where f.id = ${id} and ${offeredWithin(companyId)}`,
      );
      return rows.length > 0;
    },

    async byId(id: number): Promise<FirmwareRecord | undefined> {
      const [row] = await stored(db, sql`${SELECT} where f.id = ${id}`);
      return row ? toRecord(row) : undefined;
    },

    async byIds(ids: readonly number[]): Promise<FirmwareRecord[]> {
      // Guard against an empty id list: `in ()` is invalid SQL.
      if (ids.length === 0) return [];
      const rows = await stored(
        db,
        sql`${SELECT} where f.id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
      return rows.map(toRecord);
    },

    /** Whether a name or a (type, software version) pair is taken by a record other than `exceptId`. */
    async taken(check: {
      name?: string;
      type?: string;
      swVersion?: string;
      exceptId?: number;
    }): Promise<{ name: boolean; version: boolean }> {
      const except = check.exceptId ?? 0;
      const [row] = await sqlRows(
        db,
        { name_taken: computed.boolean, version_taken: computed.boolean },
        sql`select
              exists(select 1 from firmware where name = ${check.name ?? null} and id <> ${except}) as name_taken,
              exists(select 1 from firmware where type = ${check.type ?? null} and sw_version = ${check.swVersion ?? null} and id <> ${except}) as version_taken`,
      );
      return { name: row?.name_taken ?? false, version: row?.version_taken ?? false };
    },

    async insert(f: NewFirmware): Promise<number> {
      const [row] = await sqlRows(
        db,
        { id: firmware.id },
        sql`insert into firmware (name, manufacturer, product, item_number, hw_version, sw_version, sw_compatible, type, mode,
              file_name, size, md5, sha256, signature, storage_key, change_log, creator_id, battery_type_id, battery_product_id, company_id)
            values (${f.name}, ${f.manufacturer}, ${f.product}, ${f.itemNumber ?? null}, ${f.hwVersion ?? null}, ${f.swVersion},
              ${f.swCompatible ?? null}, ${f.type}, ${f.mode}, ${f.fileName}, ${f.size}, ${f.md5}, ${f.sha256}, ${f.signature},
              ${f.storageKey}, ${f.changeLog ?? null}, ${f.creatorId}, ${f.batteryTypeId ?? null}, ${f.batteryProductId ?? null}, ${f.companyId ?? null})
            returning id`,
      );
      if (!row) throw new Error('firmware not inserted');
      return Number(row.id);
    },

    async update(id: number, f: FirmwareRecordFields): Promise<boolean> {
      const rows = await sqlRows(
        db,
        { id: firmware.id },
        sql`update firmware set name = ${f.name}, manufacturer = ${f.manufacturer}, product = ${f.product},
              item_number = ${f.itemNumber ?? null}, hw_version = ${f.hwVersion ?? null}, sw_version = ${f.swVersion},
              sw_compatible = ${f.swCompatible ?? null}, type = ${f.type}, mode = ${f.mode}, change_log = ${f.changeLog ?? null},
              battery_type_id = ${f.batteryTypeId ?? null}, battery_product_id = ${f.batteryProductId ?? null},
              company_id = ${f.companyId === undefined ? sql`company_id` : f.companyId}
            where id = ${id} returning id`,
      );
      return rows.length > 0;
    },

    /** Whether a company exists (the company an image is authorised for must). */
    async companyExists(id: number): Promise<boolean> {
      const rows = await sqlRows(db, { id: companies.id }, sql`select id from companies where id = ${id}`);
      return rows.length > 0;
    },

    /** The ids of `root` and the companies below it (a company administrator's choice of authorised company). */
    companySubtree: (root: number | null) => companySubtree(db, root),

    async setEnabled(id: number, enabled: boolean): Promise<boolean> {
      const rows = await sqlRows(db, { id: firmware.id }, sql`update firmware set enabled = ${enabled} where id = ${id} returning id`);
      return rows.length > 0;
    },

    /** Enabled records for the public release log, newest first, and every product that has one. */
    async releases(q: FirmwareReleaseQuery): Promise<{ releases: FirmwareRelease[]; total: number; products: string[] }> {
      const where = q.product ? sql`enabled and product = ${q.product}` : sql`enabled`;
      const [rows, counts, products] = await Promise.all([
        sqlRows(
          db,
          {
            id: firmware.id,
            name: firmware.name,
            type: firmware.type,
            product: firmware.product,
            manufacturer: firmware.manufacturer,
            sw_version: firmware.swVersion,
            hw_version: firmware.hwVersion,
            change_log: firmware.changeLog,
            created_at: firmware.createdAt,
          },
          sql`select id, name, type, product, manufacturer, sw_version, hw_version, change_log, created_at from firmware
              where ${where} order by created_at desc, id desc limit ${q.size} offset ${(q.page - 1) * q.size}`,
        ),
        sqlRows(db, { n: computed.number }, sql`select count(*)::int as n from firmware where ${where}`),
        sqlRows(db, { product: firmware.product }, sql`select distinct product from firmware where enabled order by product`),
      ]);
      return {
        releases: rows.map((r) => ({
          id: r.id,
          name: r.name,
          type: typeOf(r.type),
          product: r.product,
          manufacturer: r.manufacturer,
          swVersion: r.sw_version,
          hwVersion: r.hw_version,
          changeLog: r.change_log,
          releasedAt: r.created_at.toISOString(),
        })),
        total: counts[0]?.n ?? 0,
        products: products.map((p) => p.product),
      };
    },

    async remove(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      await db.execute(
        sql`delete from firmware where id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    },
  };
}

export type FirmwareRepository = ReturnType<typeof createFirmwareRepository>;
