import { Code } from '@sunward/contracts/codes';
import type { PlantAccessLevel } from '@sunward/contracts/plants';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows } from '../../db/rows.js';
import { plants } from '../../db/schema.js';
import { inCompanySubtree } from '../../lib/company-tree.js';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';

const RANK: Record<PlantAccessLevel, number> = { view: 1, operate: 2, manage: 3 };

/**
 * Who may do what with a plant; every plant call asks here, so the tenant boundary is one function.
 * - The platform administrator manages every plant.
 * - The owner (creator) and, for a company plant, the users of that company manage it; the users of a
 *   company above it in the channel hierarchy (issue 24: maker, distributor, installer) operate it.
 * - A maintainer it is shared with may operate it (devices, commands); a guest only views it, and so does
 *   a customer of the company the plant is assigned to (issue 7).
 * Anything else is answered as if the plant did not exist (code 700), so ids of other tenants leak nothing.
 */
export function createPlantAccess(db: Database) {
  /** The caller's level for each plant id given (absent: no access). */
  async function levels(auth: AuthContext, plantIds: readonly number[]): Promise<Map<number, PlantAccessLevel>> {
    const result = new Map<number, PlantAccessLevel>();
    if (plantIds.length === 0) return result;
    const rows = await sqlRows(
      db,
      {
        id: plants.id,
        owner_id: plants.ownerId,
        company_id: plants.companyId,
        share_role: nullable(computed.text),
        in_subtree: computed.boolean,
      },
      sql`select p.id, p.owner_id, p.company_id, ${shareRoleColumn(auth)} as share_role, ${subtreeColumn(auth, sql`p.company_id`)} as in_subtree
          from plants p left join plant_shares s on s.plant_id = p.id and s.user_id = ${auth.userId}
          where p.id = any(${sql.param([...plantIds])}::int[])`,
    );
    for (const row of rows) {
      const level = levelOf(auth, row.owner_id, row.company_id, row.share_role, row.in_subtree);
      if (level) result.set(row.id, level);
    }
    return result;
  }

  return {
    levels,

    /** undefined means every plant (platform administrator). */
    async visiblePlantIds(auth: AuthContext): Promise<Set<number> | undefined> {
      if (auth.roleKey === 'platform_admin') return undefined;
      const rows = await sqlRows(db, { id: plants.id }, sql`select id from plants where ${visibleCondition(auth)}`);
      return new Set(rows.map((r) => r.id));
    },

    /**
     * The plant's access level for the caller, or ApiError 700 when the plant does not exist or is
     * not theirs, or 2 when they see it but need more (a guest trying to edit).
     */
    async require(auth: AuthContext, plantId: number, needed: PlantAccessLevel): Promise<PlantAccessLevel> {
      const level = (await levels(auth, [plantId])).get(plantId);
      if (!level) throw new ApiError(Code.PLANT_NOT_FOUND);
      if (RANK[level] < RANK[needed]) throw new ApiError(Code.NO_PERMISSION);
      return level;
    },
  };
}

export function levelOf(
  auth: AuthContext,
  ownerId: number | null,
  companyId: number | null,
  shareRole: string | null,
  /** The plant's company is in the caller's company's subtree (subtreeColumn). */
  inSubtree = false,
): PlantAccessLevel | undefined {
  if (auth.roleKey === 'platform_admin') return 'manage';
  if (ownerId === auth.userId) return 'manage';
  if (companyId !== null && companyId === auth.companyId) return 'manage';
  if (inSubtree || shareRole === 'maintainer') return 'operate';
  if (shareRole === 'guest') return 'view';
  return undefined;
}

/** SQL condition on `plants` (unaliased or aliased `p`... callers use it on the table named plants). */
export function visibleCondition(auth: AuthContext) {
  if (auth.roleKey === 'platform_admin') return sql`true`;
  const company = inCompanySubtree(sql`plants.company_id`, auth.companyId);
  return sql`(plants.owner_id = ${auth.userId} or ${company} or exists (select 1 from plant_shares s where s.plant_id = plants.id and s.user_id = ${auth.userId})
    or ${assignedToCustomer(sql`plants.id`, auth)})`;
}

/** SQL boolean: the company (a column) is the caller's or below it in the channel hierarchy (issue 24). */
export function subtreeColumn(auth: AuthContext, company: SQL): SQL {
  return sql`coalesce(${inCompanySubtree(company, auth.companyId)}, false)`;
}

/**
 * Whether the plant (an id column) is assigned to the caller as a customer of its company (issue 7).
 * The assignment only counts while the plant still belongs to the company that made it.
 */
export function assignedToCustomer(plantId: SQL, auth: AuthContext): SQL {
  return sql`exists (select 1 from company_customer_plants cp join company_customers cc on cc.id = cp.customer_id
    join plants cpp on cpp.id = cp.plant_id
    where cp.plant_id = ${plantId} and cc.user_id = ${auth.userId} and cpp.company_id = cc.company_id)`;
}

/** The share role column for `plants p` joined with `plant_shares s`: a customer's assigned plant reads as a guest's. */
export function shareRoleColumn(auth: AuthContext): SQL {
  return sql`coalesce(s.role, case when ${assignedToCustomer(sql`p.id`, auth)} then 'guest' end)`;
}

export type PlantAccess = ReturnType<typeof createPlantAccess>;
