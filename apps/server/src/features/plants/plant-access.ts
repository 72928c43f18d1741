import { eq, or } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { plants } from '../../db/schema.js';
import type { AuthContext } from '../../plugins/auth.js';

/**
 * Which plants a caller may see: the platform administrator all; others their company's plants and
 * the plants they own. Issue 4 adds shared plants (guests, maintainers) and issue 7 customers/agents.
 */
export function createPlantAccess(db: Database) {
  return {
    /** undefined means every plant. */
    async visiblePlantIds(auth: AuthContext): Promise<Set<number> | undefined> {
      if (auth.roleKey === 'platform_admin') return undefined;
      const conditions = [eq(plants.ownerId, auth.userId)];
      if (auth.companyId !== null) conditions.push(eq(plants.companyId, auth.companyId));
      const rows = await db
        .select({ id: plants.id })
        .from(plants)
        .where(or(...conditions));
      return new Set(rows.map((r) => r.id));
    },
  };
}

export type PlantAccess = ReturnType<typeof createPlantAccess>;
