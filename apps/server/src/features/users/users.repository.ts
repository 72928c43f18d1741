import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { companies, roles, users } from '../../db/schema.js';

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
      return row;
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
