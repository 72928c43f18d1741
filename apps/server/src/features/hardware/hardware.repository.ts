import { and, asc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { devices, hardwareModels, users } from '../../db/schema.js';

export interface HardwareRecord {
  id: number;
  manufacturer: string;
  model: string;
  kind: string;
  protocolIdentifier: string | null;
  firmwareCompatible: string | null;
  builtIn: boolean;
  devices: number;
  creator: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface HardwareFields {
  manufacturer: string;
  model: string;
  kind: string;
  protocolIdentifier: string | null;
  firmwareCompatible: string | null;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** All SQL of the hardware list (issue 19). */
export function createHardwareRepository(db: Database) {
  // Devices whose nameplate names this manufacturer (brand) and model, case-insensitive.
  const deviceCount = sql<number>`(select count(*)::int from ${devices} d
    where lower(d.brand) = lower(${hardwareModels.manufacturer}) and lower(d.model) = lower(${hardwareModels.model}))`;
  const columns = {
    id: hardwareModels.id,
    manufacturer: hardwareModels.manufacturer,
    model: hardwareModels.model,
    kind: hardwareModels.kind,
    protocolIdentifier: hardwareModels.protocolIdentifier,
    firmwareCompatible: hardwareModels.firmwareCompatible,
    builtIn: hardwareModels.builtIn,
    devices: deviceCount,
    creator: users.account,
    createdAt: hardwareModels.createdAt,
    updatedAt: hardwareModels.updatedAt,
  };

  function where(query: { keyword?: string; kind?: string }): SQL | undefined {
    const keyword = query.keyword ? `%${escapeLike(query.keyword)}%` : undefined;
    return and(
      keyword
        ? or(
            ilike(hardwareModels.manufacturer, keyword),
            ilike(hardwareModels.model, keyword),
            ilike(hardwareModels.protocolIdentifier, keyword),
          )
        : undefined,
      query.kind ? eq(hardwareModels.kind, query.kind) : undefined,
    );
  }

  return {
    async page(query: { keyword?: string; kind?: string; page: number; size: number }): Promise<{ rows: HardwareRecord[]; total: number }> {
      const filter = where(query);
      const rows = await db
        .select(columns)
        .from(hardwareModels)
        .leftJoin(users, eq(users.id, hardwareModels.createdBy))
        .where(filter)
        .orderBy(asc(sql`lower(${hardwareModels.manufacturer})`), asc(sql`lower(${hardwareModels.model})`), asc(hardwareModels.id))
        .limit(query.size)
        .offset((query.page - 1) * query.size);
      const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(hardwareModels).where(filter);
      return { rows, total: count?.n ?? 0 };
    },

    async byId(id: number): Promise<HardwareRecord | undefined> {
      const [row] = await db
        .select(columns)
        .from(hardwareModels)
        .leftJoin(users, eq(users.id, hardwareModels.createdBy))
        .where(eq(hardwareModels.id, id));
      return row;
    },

    async hasBuiltIn(): Promise<boolean> {
      const [row] = await db.select({ id: hardwareModels.id }).from(hardwareModels).where(eq(hardwareModels.builtIn, true)).limit(1);
      return row !== undefined;
    },

    /** Every model, for the products list (brands and their models). */
    async all(): Promise<{ id: number; manufacturer: string; model: string; kind: string }[]> {
      return db
        .select({
          id: hardwareModels.id,
          manufacturer: hardwareModels.manufacturer,
          model: hardwareModels.model,
          kind: hardwareModels.kind,
        })
        .from(hardwareModels)
        .orderBy(asc(sql`lower(${hardwareModels.manufacturer})`), asc(sql`lower(${hardwareModels.model})`));
    },

    /** Inserts a model; null when the manufacturer and model are taken (the unique index decides). */
    async insert(fields: HardwareFields & { builtIn: boolean; createdBy: number | null }): Promise<number | null> {
      const [row] = await db.insert(hardwareModels).values(fields).onConflictDoNothing().returning({ id: hardwareModels.id });
      return row?.id ?? null;
    },

    /** 'missing', 'taken' (another model has the name) or 'updated'. */
    async update(id: number, fields: HardwareFields): Promise<'missing' | 'taken' | 'updated'> {
      const [clash] = await db
        .select({ id: hardwareModels.id })
        .from(hardwareModels)
        .where(
          and(
            sql`lower(${hardwareModels.manufacturer}) = lower(${fields.manufacturer})`,
            sql`lower(${hardwareModels.model}) = lower(${fields.model})`,
            sql`${hardwareModels.id} <> ${id}`,
          ),
        );
      if (clash) return 'taken';
      const rows = await db
        .update(hardwareModels)
        .set({ ...fields, updatedAt: new Date() })
        .where(eq(hardwareModels.id, id))
        .returning({ id: hardwareModels.id });
      return rows.length > 0 ? 'updated' : 'missing';
    },

    async remove(id: number): Promise<boolean> {
      return (await db.delete(hardwareModels).where(eq(hardwareModels.id, id)).returning({ id: hardwareModels.id })).length > 0;
    },
  };
}

export type HardwareRepository = ReturnType<typeof createHardwareRepository>;
