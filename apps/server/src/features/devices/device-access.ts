import { Code, type ResponseCode } from '@sunward/contracts/codes';
import type { PlantAccessLevel } from '@sunward/contracts/plants';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows } from '../../db/rows.js';
import { plants as plantTable } from '../../db/schema.js';
import { companySubtree, inCompanySubtree } from '../../lib/company-tree.js';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { assignedToCustomer, levelOf, shareRoleColumn, subtreeColumn } from '../plants/plant-access.js';

/*
 * The tenant boundary for devices and gateways, beside plant-access.ts (which it follows):
 * - a device or gateway in a plant is seen at the caller's level for that plant;
 * - one not (yet) in a plant belongs to the company of its gateway: that company's users manage it, the
 *   users of the companies above it in the channel hierarchy (issue 24) operate it;
 * - the platform administrator manages everything.
 * Anything else is answered as if it did not exist, so serial numbers of other tenants leak nothing.
 */

const RANK: Record<PlantAccessLevel, number> = { view: 1, operate: 2, manage: 3 };

/** SQL condition on a plant id column and a company id column (of the gateway) for the caller. */
function visibleThrough(auth: AuthContext, plantId: SQL, gatewayCompanyId: SQL): SQL {
  if (auth.roleKey === 'platform_admin') return sql`true`;
  const company = inCompanySubtree(sql`p.company_id`, auth.companyId);
  const unbound =
    auth.companyId === null ? sql`false` : sql`(${plantId} is null and ${inCompanySubtree(gatewayCompanyId, auth.companyId)})`;
  return sql`(exists (select 1 from plants p where p.id = ${plantId} and (p.owner_id = ${auth.userId} or ${company}
      or exists (select 1 from plant_shares s where s.plant_id = p.id and s.user_id = ${auth.userId})
      or ${assignedToCustomer(sql`p.id`, auth)})) or ${unbound})`;
}

/** Condition on `devices d` (with its gateway reachable as d.gateway_id): the devices the caller sees. */
export function deviceVisibleCondition(auth: AuthContext): SQL {
  return visibleThrough(auth, sql`d.plant_id`, sql`(select g.company_id from gateways g where g.id = d.gateway_id)`);
}

/** Condition on `gateways g`: the gateways the caller sees. */
export function gatewayVisibleCondition(auth: AuthContext): SQL {
  return visibleThrough(auth, sql`g.plant_id`, sql`g.company_id`);
}

export interface AccessTarget {
  id: number;
  plantId: number | null;
  companyId: number | null;
}

/** The caller's level for a device or gateway, undefined when they may not see it. */
async function levelsFor(db: Database, auth: AuthContext, targets: readonly AccessTarget[]): Promise<Map<number, PlantAccessLevel>> {
  const result = new Map<number, PlantAccessLevel>();
  const plantIds = [...new Set(targets.flatMap((t) => (t.plantId === null ? [] : [t.plantId])))];
  const plants = new Map<number, PlantAccessLevel | undefined>();
  if (plantIds.length > 0) {
    const rows = await sqlRows(
      db,
      {
        id: plantTable.id,
        owner_id: plantTable.ownerId,
        company_id: plantTable.companyId,
        share_role: nullable(computed.text),
        in_subtree: computed.boolean,
      },
      sql`select p.id, p.owner_id, p.company_id, ${shareRoleColumn(auth)} as share_role, ${subtreeColumn(auth, sql`p.company_id`)} as in_subtree
          from plants p left join plant_shares s on s.plant_id = p.id and s.user_id = ${auth.userId}
          where p.id = any(${sql.param(plantIds)}::int[])`,
    );
    for (const r of rows) plants.set(r.id, levelOf(auth, r.owner_id, r.company_id, r.share_role, r.in_subtree));
  }
  const unbound = targets.some((t) => t.plantId === null && t.companyId !== null && t.companyId !== auth.companyId);
  const below = unbound ? await companySubtree(db, auth.companyId) : new Set<number>();
  for (const t of targets) {
    const level =
      auth.roleKey === 'platform_admin'
        ? 'manage'
        : t.plantId !== null
          ? plants.get(t.plantId)
          : t.companyId !== null && t.companyId === auth.companyId
            ? 'manage'
            : t.companyId !== null && below.has(t.companyId)
              ? 'operate'
              : undefined;
    if (level) result.set(t.id, level);
  }
  return result;
}

export function createDeviceAccess(db: Database) {
  return {
    levelsFor: (auth: AuthContext, targets: readonly AccessTarget[]) => levelsFor(db, auth, targets),

    /**
     * Checks one target: `notFound` (600 for inverters, 602 for other devices, 305 for gateways) when
     * the caller may not see it, 2 when they see it but need more (a guest renaming).
     */
    async require(
      auth: AuthContext,
      target: AccessTarget | undefined,
      needed: PlantAccessLevel,
      notFound: ResponseCode,
    ): Promise<PlantAccessLevel> {
      const level = target ? (await levelsFor(db, auth, [target])).get(target.id) : undefined;
      if (!level) throw new ApiError(notFound);
      if (RANK[level] < RANK[needed]) throw new ApiError(Code.NO_PERMISSION);
      return level;
    },
  };
}

export function rankOf(level: PlantAccessLevel): number {
  return RANK[level];
}

export type DeviceAccess = ReturnType<typeof createDeviceAccess>;
