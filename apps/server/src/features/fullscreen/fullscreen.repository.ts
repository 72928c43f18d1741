import type { DisplayLinkScope } from '@sunward/contracts/fullscreen';
import { and, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { displayLinks, plants, roles, users } from '../../db/schema.js';

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
export interface DisplayLinkCreator {
  userId: number;
  account: string;
  roleId: number;
  roleKey: string;
  companyId: number | null;
  readOnly: boolean;
  disabled: boolean;
}

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

/** Display links (issue 20): the only SQL of the fullscreen feature. */
export function createFullscreenRepository(db: Database) {
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

    async activeCount(userId: number, now: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(displayLinks)
        .where(and(eq(displayLinks.createdBy, userId), isNull(displayLinks.revokedAt), gt(displayLinks.expiresAt, now)));
      return row?.n ?? 0;
    },

    /** Links the caller made; a company administrator also sees the company-scoped links of their company. */
    async list(userId: number, companyId: number | null): Promise<DisplayLinkRecord[]> {
      const mine = eq(displayLinks.createdBy, userId);
      const rows = await db
        .select(LINK_COLUMNS)
        .from(displayLinks)
        .innerJoin(users, eq(users.id, displayLinks.createdBy))
        .where(companyId === null ? mine : sql`(${mine} or ${displayLinks.companyId} = ${companyId})`)
        .orderBy(desc(displayLinks.createdAt), desc(displayLinks.id));
      return rows.map(asRecord);
    },

    async byId(id: number): Promise<DisplayLinkRecord | undefined> {
      const [row] = await db
        .select(LINK_COLUMNS)
        .from(displayLinks)
        .innerJoin(users, eq(users.id, displayLinks.createdBy))
        .where(eq(displayLinks.id, id));
      return row ? asRecord(row) : undefined;
    },

    async byTokenHash(hash: string): Promise<DisplayLinkRecord | undefined> {
      const [row] = await db
        .select(LINK_COLUMNS)
        .from(displayLinks)
        .innerJoin(users, eq(users.id, displayLinks.createdBy))
        .where(eq(displayLinks.tokenHash, hash));
      return row ? asRecord(row) : undefined;
    },

    async revoke(id: number, at: Date): Promise<void> {
      await db
        .update(displayLinks)
        .set({ revokedAt: at })
        .where(and(eq(displayLinks.id, id), isNull(displayLinks.revokedAt)));
    },

    async touch(id: number, at: Date): Promise<void> {
      await db.update(displayLinks).set({ lastUsedAt: at }).where(eq(displayLinks.id, id));
    },

    async creator(userId: number): Promise<DisplayLinkCreator | undefined> {
      const [row] = await db
        .select({
          userId: users.id,
          account: users.account,
          roleId: users.roleId,
          roleKey: roles.key,
          companyId: users.companyId,
          readOnly: users.readOnly,
          disabledAt: users.disabledAt,
        })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(eq(users.id, userId));
      if (!row) return undefined;
      const { disabledAt, ...rest } = row;
      return { ...rest, disabled: disabledAt !== null };
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
