import type { FirmwareFields, FirmwareListQuery, FirmwareRow, FirmwareType } from '@sunward/contracts/firmware';
import type { FirmwareRelease, FirmwareReleaseQuery } from '@sunward/contracts/firmware-releases';
import { type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.js';

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

type Raw = Record<string, unknown>;

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const textOrNull = (v: unknown) => (v === null || v === undefined ? null : String(v));
const idOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const typeOf = (v: unknown): FirmwareType => (v === 'gateway' ? 'gateway' : v === 'battery' ? 'battery' : 'inverter');

function toRecord(r: Raw): FirmwareRecord {
  return {
    id: Number(r.id),
    name: String(r.name),
    manufacturer: String(r.manufacturer),
    product: String(r.product),
    itemNumber: textOrNull(r.item_number),
    hwVersion: textOrNull(r.hw_version),
    swVersion: String(r.sw_version),
    swCompatible: textOrNull(r.sw_compatible),
    type: typeOf(r.type),
    mode: r.mode === 'local' ? 'local' : 'remote',
    fileName: String(r.file_name),
    size: Number(r.size),
    md5: String(r.md5),
    sha256: String(r.sha256),
    signature: String(r.signature),
    enabled: Boolean(r.enabled),
    changeLog: textOrNull(r.change_log),
    creator: textOrNull(r.creator),
    createdAt: new Date(r.created_at as string | Date).toISOString(),
    storageKey: String(r.storage_key),
    batteryTypeId: idOrNull(r.battery_type_id),
    batteryProductId: idOrNull(r.battery_product_id),
  };
}

const SELECT = sql`select f.*, u.account as creator from firmware f left join users u on u.id = f.creator_id`;

/** All SQL of the firmware library. */
export function createFirmwareRepository(db: Database) {
  return {
    /** Enabled, remotely installable images of a type (the upgrade pickers), newest first. */
    async remoteOptions(type: FirmwareType) {
      return queryRows<{ id: number; name: string; product: string; sw_version: string }>(
        db,
        sql`select f.id, f.name, f.product, f.sw_version from firmware f
            where f.type = ${type} and f.enabled and f.mode = 'remote' order by f.created_at desc, f.id desc limit 100`,
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
        queryRows<Raw>(
          db,
          sql`${SELECT} where ${where} order by f.created_at desc, f.id desc limit ${q.size} offset ${(q.page - 1) * q.size}`,
        ),
        queryRows<{ n: number | string }>(db, sql`select count(*)::int as n from firmware f where ${where}`),
      ]);
      return { infos: rows.map(toRecord), total: Number(counts[0]?.n ?? 0) };
    },

    async byId(id: number): Promise<FirmwareRecord | undefined> {
      const [row] = await queryRows<Raw>(db, sql`${SELECT} where f.id = ${id}`);
      return row ? toRecord(row) : undefined;
    },

    async byIds(ids: readonly number[]): Promise<FirmwareRecord[]> {
      // Guard against an empty id list: `in ()` is invalid SQL.
      if (ids.length === 0) return [];
      const rows = await queryRows<Raw>(
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
      const [row] = await queryRows<{ name_taken: boolean; version_taken: boolean }>(
        db,
        sql`select
              exists(select 1 from firmware where name = ${check.name ?? null} and id <> ${except}) as name_taken,
              exists(select 1 from firmware where type = ${check.type ?? null} and sw_version = ${check.swVersion ?? null} and id <> ${except}) as version_taken`,
      );
      return { name: Boolean(row?.name_taken), version: Boolean(row?.version_taken) };
    },

    async insert(f: NewFirmware): Promise<number> {
      const [row] = await queryRows<{ id: number }>(
        db,
        sql`insert into firmware (name, manufacturer, product, item_number, hw_version, sw_version, sw_compatible, type, mode,
              file_name, size, md5, sha256, signature, storage_key, change_log, creator_id, battery_type_id, battery_product_id)
            values (${f.name}, ${f.manufacturer}, ${f.product}, ${f.itemNumber ?? null}, ${f.hwVersion ?? null}, ${f.swVersion},
              ${f.swCompatible ?? null}, ${f.type}, ${f.mode}, ${f.fileName}, ${f.size}, ${f.md5}, ${f.sha256}, ${f.signature},
              ${f.storageKey}, ${f.changeLog ?? null}, ${f.creatorId}, ${f.batteryTypeId ?? null}, ${f.batteryProductId ?? null})
            returning id`,
      );
      if (!row) throw new Error('firmware not inserted');
      return Number(row.id);
    },

    async update(id: number, f: FirmwareRecordFields): Promise<boolean> {
      const rows = await queryRows<{ id: number }>(
        db,
        sql`update firmware set name = ${f.name}, manufacturer = ${f.manufacturer}, product = ${f.product},
              item_number = ${f.itemNumber ?? null}, hw_version = ${f.hwVersion ?? null}, sw_version = ${f.swVersion},
              sw_compatible = ${f.swCompatible ?? null}, type = ${f.type}, mode = ${f.mode}, change_log = ${f.changeLog ?? null},
              battery_type_id = ${f.batteryTypeId ?? null}, battery_product_id = ${f.batteryProductId ?? null}
            where id = ${id} returning id`,
      );
      return rows.length > 0;
    },

    async setEnabled(id: number, enabled: boolean): Promise<boolean> {
      const rows = await queryRows<{ id: number }>(db, sql`update firmware set enabled = ${enabled} where id = ${id} returning id`);
      return rows.length > 0;
    },

    /** Enabled records for the public release log, newest first, and every product that has one. */
    async releases(q: FirmwareReleaseQuery): Promise<{ releases: FirmwareRelease[]; total: number; products: string[] }> {
      const where = q.product ? sql`enabled and product = ${q.product}` : sql`enabled`;
      const [rows, counts, products] = await Promise.all([
        queryRows<Raw>(
          db,
          sql`select id, name, type, product, manufacturer, sw_version, hw_version, change_log, created_at from firmware
              where ${where} order by created_at desc, id desc limit ${q.size} offset ${(q.page - 1) * q.size}`,
        ),
        queryRows<{ n: number | string }>(db, sql`select count(*)::int as n from firmware where ${where}`),
        queryRows<{ product: string }>(db, sql`select distinct product from firmware where enabled order by product`),
      ]);
      return {
        releases: rows.map((r) => ({
          id: Number(r.id),
          name: String(r.name),
          type: typeOf(r.type),
          product: String(r.product),
          manufacturer: String(r.manufacturer),
          swVersion: String(r.sw_version),
          hwVersion: textOrNull(r.hw_version),
          changeLog: textOrNull(r.change_log),
          releasedAt: new Date(r.created_at as string | Date).toISOString(),
        })),
        total: Number(counts[0]?.n ?? 0),
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
