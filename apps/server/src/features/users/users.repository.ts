import { DEFAULT_THEME_COLOR } from '@sunward/contracts/limits';
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { companies, roles, users } from '../../db/schema.js';
import { companyLineage } from '../../lib/company-tree.js';

/**
 * Branding delegation in the channel hierarchy (issue 24): walking down from the root, a company keeps
 * the brand it inherited unless its parent lets children brand themselves (child_branding) and it has set
 * its own (a logo, an icon or a colour other than the default).
 */
async function inheritedBrand(db: Database, companyId: number) {
  const lineage = await companyLineage(db, companyId);
  const rows = await db
    .select({
      id: companies.id,
      logoUrl: companies.logoUrl,
      iconUrl: companies.iconUrl,
      themeColor: companies.themeColor,
      childBranding: companies.childBranding,
    })
    .from(companies)
    .where(inArray(companies.id, lineage));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const chain = lineage.flatMap((id) => byId.get(id) ?? []);
  let brand = chain[0];
  for (const [i, company] of chain.entries()) {
    const parent = chain[i - 1];
    const own = company.logoUrl !== null || company.iconUrl !== null || company.themeColor.toUpperCase() !== DEFAULT_THEME_COLOR;
    if (parent?.childBranding && own) brand = company;
  }
  return brand ? { logoUrl: brand.logoUrl, iconUrl: brand.iconUrl, themeColor: brand.themeColor } : {};
}

export function createUsersRepository(db: Database) {
  return {
    async findProfile(userId: number) {
      const [row] = await db
        .select({
          id: users.id,
          account: users.account,
          nickname: users.nickname,
          avatar: users.avatar,
          readOnly: users.readOnly,
          language: users.language,
          roleKey: roles.key,
          companyId: companies.id,
          companyName: companies.name,
          logoUrl: companies.logoUrl,
          iconUrl: companies.iconUrl,
          themeColor: companies.themeColor,
          // Issue 7: staff of a company that requires two-factor sign-in enrol right after signing in.
          companyRequiresTwoFactor: companies.requireTwoFactor,
          totpEnabledAt: users.totpEnabledAt,
        })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.id, userId));
      if (!row || row.companyId === null) return row;
      return { ...row, ...(await inheritedBrand(db, row.companyId)) };
    },

    async existsWithRole(roleId: number): Promise<boolean> {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.roleId, roleId)).limit(1);
      return row !== undefined;
    },

    async create(input: {
      account: string;
      passwordHash: string;
      nickname: string;
      roleId: number;
      companyId?: number | null;
      language?: string;
    }) {
      const [row] = await db
        .insert(users)
        .values({ ...input, companyId: input.companyId ?? null })
        .returning({ id: users.id });
      if (!row) throw new Error('user insert returned nothing');
      return row.id;
    },

    async setDisabled(userId: number, disabledAt: Date | null): Promise<void> {
      await db.update(users).set({ disabledAt, updatedAt: new Date() }).where(eq(users.id, userId));
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
