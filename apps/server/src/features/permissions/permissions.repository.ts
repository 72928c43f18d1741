import { isPermissionKey, PERMISSIONS, type PermissionKey } from '@sunward/contracts/permissions';
import { BUILT_IN_ROLES, ROLE_GRANTS } from '@sunward/contracts/roles';
import { and, asc, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { permissions, rolePermissions, roles } from '../../db/schema.js';

export interface PermissionRow {
  id: number;
  key: string;
  type: number;
  parentKey: string | null;
  sort: number;
}

export function createPermissionsRepository(db: Database) {
  return {
    /**
     * Brings the catalogue and the built-in roles' grants in line with packages/contracts. Runs at
     * every start in one transaction; custom company roles are left as their administrators set them.
     */
    async syncCatalogue(): Promise<void> {
      await db.transaction(async (tx) => {
        const known = new Set((await tx.select({ key: permissions.key }).from(permissions)).map((r) => r.key));
        for (const [sort, p] of PERMISSIONS.entries()) {
          await tx
            .insert(permissions)
            .values({ key: p.key, type: p.type, parentKey: p.parent, sort })
            .onConflictDoUpdate({ target: permissions.key, set: { type: p.type, parentKey: p.parent, sort } });
        }
        const keys = PERMISSIONS.map((p) => p.key as string);
        await tx.delete(permissions).where(notInArray(permissions.key, keys));
        // A key new to this database that takes over what older keys allowed goes to the custom roles holding
        // them, once (issue 15.2: meter, optimizer... edit and delete, which equip.view used to cover).
        if (known.size > 0)
          for (const p of PERMISSIONS) {
            if (known.has(p.key) || !('carriedFrom' in p) || !p.carriedFrom) continue;
            const holders = await tx
              .selectDistinct({ roleId: rolePermissions.roleId })
              .from(rolePermissions)
              .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
              .where(and(eq(roles.builtIn, false), inArray(rolePermissions.permissionKey, [...p.carriedFrom])));
            if (holders.length > 0)
              await tx
                .insert(rolePermissions)
                .values(holders.map((h) => ({ roleId: h.roleId, permissionKey: p.key })))
                .onConflictDoNothing();
          }
        for (const roleKey of BUILT_IN_ROLES) {
          const existing = await tx
            .select({ id: roles.id })
            .from(roles)
            .where(and(eq(roles.key, roleKey), isNull(roles.companyId)));
          const roleId =
            existing[0]?.id ??
            (await tx.insert(roles).values({ key: roleKey, name: roleKey, builtIn: true }).returning({ id: roles.id }))[0]?.id;
          if (roleId === undefined) throw new Error(`could not create role ${roleKey}`);
          await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
          await tx.insert(rolePermissions).values(ROLE_GRANTS[roleKey].map((permissionKey) => ({ roleId, permissionKey })));
        }
      });
    },

    async builtInRoleId(roleKey: string): Promise<number | undefined> {
      const [row] = await db
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.key, roleKey), isNull(roles.companyId)));
      return row?.id;
    },

    /** Read on every request, so a change of a role's grants applies to its members' next call. */
    async keysOfRole(roleId: number): Promise<Set<PermissionKey>> {
      const rows = await db.select({ key: rolePermissions.permissionKey }).from(rolePermissions).where(eq(rolePermissions.roleId, roleId));
      return new Set(rows.map((r) => r.key).filter(isPermissionKey));
    },

    async entriesByKeys(keys: readonly string[]): Promise<PermissionRow[]> {
      // Guard against an empty key list: `IN ()` is invalid SQL.
      if (keys.length === 0) return [];
      return db
        .select({
          id: permissions.id,
          key: permissions.key,
          type: permissions.type,
          parentKey: permissions.parentKey,
          sort: permissions.sort,
        })
        .from(permissions)
        .where(inArray(permissions.key, [...keys]))
        .orderBy(asc(permissions.sort));
    },
  };
}

export type PermissionsRepository = ReturnType<typeof createPermissionsRepository>;
