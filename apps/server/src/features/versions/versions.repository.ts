import type { VersionRow } from '@sunward/contracts/versions';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { systemVersions, users } from '../../db/schema.js';

/** A stored version and its publisher's account, as the console shows it. */
function toRow(r: typeof systemVersions.$inferSelect & { publisher: string | null }): VersionRow {
  return {
    id: r.id,
    version: r.version,
    zhContent: r.zhContent,
    enContent: r.enContent,
    publisher: r.publisher,
    releaseTime: r.releaseTime.toISOString(),
  };
}

/** All SQL of the system versions (release notes); rows are typed from the drizzle schema. */
export function createVersionsRepository(db: Database) {
  const select = (where?: SQL) =>
    db
      .select({
        id: systemVersions.id,
        version: systemVersions.version,
        zhContent: systemVersions.zhContent,
        enContent: systemVersions.enContent,
        publisherId: systemVersions.publisherId,
        releaseTime: systemVersions.releaseTime,
        publisher: users.account,
      })
      .from(systemVersions)
      .leftJoin(users, eq(users.id, systemVersions.publisherId))
      .where(where);

  return {
    /** Every version number: few enough (one per release) to compare in code, part by part. */
    async numbers(): Promise<{ id: number; version: string }[]> {
      return db.select({ id: systemVersions.id, version: systemVersions.version }).from(systemVersions);
    },

    async all(): Promise<VersionRow[]> {
      return (await select()).map(toRow);
    },

    async byId(id: number): Promise<VersionRow | undefined> {
      const [row] = await select(eq(systemVersions.id, id));
      return row ? toRow(row) : undefined;
    },

    async byNumber(version: string): Promise<VersionRow | undefined> {
      const [row] = await select(eq(systemVersions.version, version));
      return row ? toRow(row) : undefined;
    },

    /**
     * Inserts a version after `admit` has seen every existing number, holding a lock on the table so two
     * administrators cannot both slip a number in that only one of them could have checked.
     */
    async insertChecked(
      version: { version: string; zhContent: string; enContent: string; publisherId: number },
      admit: (existing: string[]) => void,
    ): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`lock table system_versions in share row exclusive mode`);
        const existing = await tx.select({ version: systemVersions.version }).from(systemVersions);
        admit(existing.map((r) => r.version));
        const [row] = await tx.insert(systemVersions).values(version).returning({ id: systemVersions.id });
        if (!row) throw new Error('version not inserted');
        return row.id;
      });
    },

    async updateContent(id: number, content: { zhContent: string; enContent: string }): Promise<boolean> {
      const rows = await db
        .update(systemVersions)
        .set({ zhContent: content.zhContent, enContent: content.enContent })
        .where(eq(systemVersions.id, id))
        .returning({ id: systemVersions.id });
      return rows.length > 0;
    },

    async remove(id: number): Promise<boolean> {
      const rows = await db.delete(systemVersions).where(eq(systemVersions.id, id)).returning({ id: systemVersions.id });
      return rows.length > 0;
    },
  };
}

export type VersionsRepository = ReturnType<typeof createVersionsRepository>;
