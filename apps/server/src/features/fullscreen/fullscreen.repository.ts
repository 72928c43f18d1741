import type { DisplayLinkScope } from '@sunward/contracts/fullscreen';
import { asc, ilike, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, sqlRow } from '../../db/rows.js';
import { companies, displayLinks, plants, users } from '../../db/schema.js';
import { type CredentialCreator, credentialQueries } from '../../lib/scoped-credentials.js';

export interface DisplayLinkRecord {
  id: number;
  name: string;
  createdBy: number;
  createdByAccount: string;
  scope: DisplayLinkScope;
  companyId: number | null;
  plantIds: number[];
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** The creator as the display link acts for them at each use (their role and company now, not at creation). */
export type DisplayLinkCreator = CredentialCreator;

const LINK_COLUMNS = {
  id: displayLinks.id,
  name: displayLinks.name,
  createdBy: displayLinks.createdBy,
  createdByAccount: users.account,
  scope: displayLinks.scope,
  companyId: displayLinks.companyId,
  plantIds: displayLinks.plantIds,
  createdAt: displayLinks.createdAt,
  expiresAt: displayLinks.expiresAt,
  revokedAt: displayLinks.revokedAt,
  lastUsedAt: displayLinks.lastUsedAt,
};

const asRecord = (r: Omit<DisplayLinkRecord, 'scope'> & { scope: string }): DisplayLinkRecord => ({
  ...r,
  scope: r.scope === 'company' ? 'company' : 'plants',
});

/** Display links and the fleet's month and year sums (issue 20): the only SQL of the fullscreen feature. */
export function createFullscreenRepository(db: Database) {
  const links = credentialQueries(db, {
    table: displayLinks,
    secretHash: displayLinks.tokenHash,
    fields: LINK_COLUMNS,
    toRecord: asRecord,
  });
  return {
    async insert(link: {
      name: string;
      tokenHash: string;
      createdBy: number;
      scope: DisplayLinkScope;
      companyId: number | null;
      plantIds: number[];
      expiresAt: Date;
    }): Promise<number> {
      const [row] = await db.insert(displayLinks).values(link).returning({ id: displayLinks.id });
      if (!row) throw new Error('display link not stored');
      return row.id;
    },

    activeCount: links.activeCount,
    /** Links the caller made; a company administrator also sees the company-scoped links of their company. */
    list: links.list,
    byId: links.byId,
    byTokenHash: links.bySecretHash,
    revoke: links.revoke,
    touch: links.touch,
    creator: links.creator,

    /**
     * Generation of a fleet this month and this year, one query over the daily rollup: each plant from the 1st of
     * its own local month and of its local year up to its local today (`todays`, plant id → YYYY-MM-DD, as the plant
     * overview computes it), so the sums equal the plant overviews' month and year added up.
     */
    async periodSums(todays: ReadonlyMap<number, string>): Promise<{ monthWh: number; yearWh: number }> {
      if (todays.size === 0) return { monthWh: 0, yearWh: 0 };
      const scope = JSON.stringify([...todays].map(([plant_id, today]) => ({ plant_id, today })));
      const row = await sqlRow(
        db,
        { month: computed.number, year: computed.number },
        sql`select coalesce(sum(d.energy_wh) filter (where d.day >= date_trunc('month', s.today)::date), 0)::float8 as month,
                   coalesce(sum(d.energy_wh), 0)::float8 as year
              from jsonb_to_recordset(${scope}::jsonb) as s(plant_id integer, today date)
              join plant_energy_daily d
                on d.plant_id = s.plant_id and d.day >= date_trunc('year', s.today)::date and d.day <= s.today`,
      );
      return { monthWh: row?.month ?? 0, yearWh: row?.year ?? 0 };
    },

    /** Companies by a keyword on the name, first `limit` by name (a platform administrator's picker). */
    async companies(keyword: string | undefined, limit: number): Promise<{ id: number; name: string }[]> {
      const like = keyword ? `%${keyword.replace(/[\\%_]/g, '\\$&')}%` : undefined;
      return db
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(like ? ilike(companies.name, like) : undefined)
        .orderBy(asc(companies.name), asc(companies.id))
        .limit(limit);
    },

    async companyNames(ids: readonly number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(inArray(companies.id, [...ids]));
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    async plantNames(ids: readonly number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: plants.id, name: plants.name })
        .from(plants)
        .where(inArray(plants.id, [...ids]));
      return new Map(rows.map((r) => [r.id, r.name]));
    },
  };
}

export type FullscreenRepository = ReturnType<typeof createFullscreenRepository>;
