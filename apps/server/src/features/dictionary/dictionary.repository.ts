import type { DictTexts, DictType } from '@sunward/contracts/dictionary';
import { and, asc, count, eq, ilike, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { dictEntries } from '../../db/schema.js';

export interface DictRecord {
  id: number;
  type: DictType;
  code: string;
  sort: number;
  internationalised: boolean;
  texts: DictTexts;
  enabled: boolean;
  updatedAt: Date;
}

export interface DictSeed {
  code: string;
  sort: number;
  internationalised: boolean;
  texts: DictTexts;
}

const columns = {
  id: dictEntries.id,
  type: dictEntries.type,
  code: dictEntries.code,
  sort: dictEntries.sort,
  internationalised: dictEntries.internationalised,
  texts: dictEntries.texts,
  enabled: dictEntries.enabled,
  updatedAt: dictEntries.updatedAt,
};

const toRecord = (r: { type: string; texts: unknown } & Omit<DictRecord, 'type' | 'texts'>): DictRecord => ({
  ...r,
  type: r.type as DictType,
  texts: r.texts as DictTexts,
});

const UNIQUE_VIOLATION = '23505';

/** Whether an error is PostgreSQL's unique violation (direct or wrapped by drizzle). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === UNIQUE_VIOLATION || e?.cause?.code === UNIQUE_VIOLATION;
}

/** All SQL of the dictionary. */
export function createDictionaryRepository(db: Database) {
  return {
    /** Enabled entries of a type in their order (sort, then code). */
    async enabled(type: DictType): Promise<DictRecord[]> {
      const rows = await db
        .select(columns)
        .from(dictEntries)
        .where(and(eq(dictEntries.type, type), eq(dictEntries.enabled, true)))
        .orderBy(asc(dictEntries.sort), asc(dictEntries.code));
      return rows.map(toRecord);
    },

    async page(type: DictType, keyword: string | undefined, page: number, size: number): Promise<{ rows: DictRecord[]; total: number }> {
      const like = keyword ? `%${keyword.replace(/[\\%_]/g, '\\$&')}%` : undefined;
      const where = and(
        eq(dictEntries.type, type),
        like ? or(ilike(dictEntries.code, like), sql`${dictEntries.texts}::text ilike ${like}`) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select(columns)
          .from(dictEntries)
          .where(where)
          .orderBy(asc(dictEntries.sort), asc(dictEntries.code))
          .limit(size)
          .offset((page - 1) * size),
        db.select({ n: count() }).from(dictEntries).where(where),
      ]);
      return { rows: rows.map(toRecord), total: total?.n ?? 0 };
    },

    async byId(id: number): Promise<DictRecord | undefined> {
      const [row] = await db.select(columns).from(dictEntries).where(eq(dictEntries.id, id));
      return row ? toRecord(row) : undefined;
    },

    async has(type: DictType, code: string): Promise<boolean> {
      const [row] = await db
        .select({ id: dictEntries.id })
        .from(dictEntries)
        .where(and(eq(dictEntries.type, type), eq(dictEntries.code, code), eq(dictEntries.enabled, true)));
      return row !== undefined;
    },

    /** Inserts an entry; undefined when the code is taken within its type (the unique index decides). */
    async insert(type: DictType, entry: DictSeed): Promise<number | undefined> {
      try {
        const [row] = await db
          .insert(dictEntries)
          .values({ type, ...entry })
          .returning({ id: dictEntries.id });
        return row?.id;
      } catch (error) {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
    },

    async update(id: number, fields: { sort: number; internationalised: boolean; texts: DictTexts }): Promise<void> {
      await db
        .update(dictEntries)
        .set({ ...fields, updatedAt: new Date() })
        .where(eq(dictEntries.id, id));
    },

    async setEnabled(id: number, enabled: boolean): Promise<void> {
      await db.update(dictEntries).set({ enabled, updatedAt: new Date() }).where(eq(dictEntries.id, id));
    },

    /**
     * Fills a type that has never had an entry with its built-in entries, under a table lock so two
     * processes starting together seed once. Entries are disabled, never deleted, so an empty type is
     * one never seeded.
     */
    async seedIfEmpty(type: DictType, seeds: () => Promise<DictSeed[]>): Promise<void> {
      const [seen] = await db.select({ n: count() }).from(dictEntries).where(eq(dictEntries.type, type));
      if ((seen?.n ?? 0) > 0) return;
      // Computed before the transaction: the seeds may read the database (time zone names), which a
      // single-connection database (PGlite) would only answer after the transaction.
      const rows = await seeds();
      await db.transaction(async (tx) => {
        await tx.execute(sql`lock table dict_entries in share row exclusive mode`);
        const [present] = await tx.select({ n: count() }).from(dictEntries).where(eq(dictEntries.type, type));
        if ((present?.n ?? 0) > 0) return;
        for (let i = 0; i < rows.length; i += 500) {
          await tx
            .insert(dictEntries)
            .values(rows.slice(i, i + 500).map((r) => ({ type, ...r })))
            .onConflictDoNothing();
        }
      });
    },
  };
}

export type DictionaryRepository = ReturnType<typeof createDictionaryRepository>;
