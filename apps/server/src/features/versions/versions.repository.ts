import type { VersionRow } from '@sunward/contracts/versions';
import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client.js';

type Raw = Record<string, unknown>;

function toRow(r: Raw): VersionRow {
  return {
    id: Number(r.id),
    version: String(r.version),
    zhContent: String(r.zh_content),
    enContent: String(r.en_content),
    publisher: r.publisher === null || r.publisher === undefined ? null : String(r.publisher),
    releaseTime: new Date(r.release_time as string | Date).toISOString(),
  };
}

const SELECT = sql`select v.*, u.account as publisher from system_versions v left join users u on u.id = v.publisher_id`;

/** All SQL of the system versions (release notes). */
export function createVersionsRepository(db: Database) {
  return {
    /** Every version number: few enough (one per release) to compare in code, part by part. */
    async numbers(): Promise<{ id: number; version: string }[]> {
      const rows = await queryRows<Raw>(db, sql`select id, version from system_versions`);
      return rows.map((r) => ({ id: Number(r.id), version: String(r.version) }));
    },

    async all(): Promise<VersionRow[]> {
      return (await queryRows<Raw>(db, sql`${SELECT}`)).map(toRow);
    },

    async byId(id: number): Promise<VersionRow | undefined> {
      const [row] = await queryRows<Raw>(db, sql`${SELECT} where v.id = ${id}`);
      return row ? toRow(row) : undefined;
    },

    async byNumber(version: string): Promise<VersionRow | undefined> {
      const [row] = await queryRows<Raw>(db, sql`${SELECT} where v.version = ${version}`);
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
        const existing = await queryRows<{ version: string }>(tx, sql`select version from system_versions`);
        admit(existing.map((r) => String(r.version)));
        const [row] = await queryRows<{ id: number }>(
          tx,
          sql`insert into system_versions (version, zh_content, en_content, publisher_id)
              values (${version.version}, ${version.zhContent}, ${version.enContent}, ${version.publisherId}) returning id`,
        );
        if (!row) throw new Error('version not inserted');
        return Number(row.id);
      });
    },

    async updateContent(id: number, content: { zhContent: string; enContent: string }): Promise<boolean> {
      const rows = await queryRows<{ id: number }>(
        db,
        sql`update system_versions set zh_content = ${content.zhContent}, en_content = ${content.enContent} where id = ${id} returning id`,
      );
      return rows.length > 0;
    },

    async remove(id: number): Promise<boolean> {
      const rows = await queryRows<{ id: number }>(db, sql`delete from system_versions where id = ${id} returning id`);
      return rows.length > 0;
    },
  };
}

export type VersionsRepository = ReturnType<typeof createVersionsRepository>;
