import type { CompanyEdit, CompanyLogo } from '@sunward/contracts/company';
import { and, asc, count, eq, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows } from '../../db/rows.js';
import { companies, companyAgents, rolePermissions, roles, users } from '../../db/schema.js';

export interface AccountRecord {
  id: number;
  account: string;
  nickname: string;
  companyId: number | null;
  roleId: number;
  roleKey: string;
  passwordHash: string;
}

export interface RoleRecord {
  id: number;
  companyId: number | null;
  key: string;
  name: string;
  builtIn: boolean;
}

/** SQL of the company area: companies, their staff (users with company_id), custom roles and agents. */
export function createCompanyRepository(db: Database) {
  const accountColumns = {
    id: users.id,
    account: users.account,
    nickname: users.nickname,
    companyId: users.companyId,
    roleId: users.roleId,
    roleKey: roles.key,
    passwordHash: users.passwordHash,
  };

  return {
    async company(companyId: number) {
      const [row] = await db.select().from(companies).where(eq(companies.id, companyId));
      return row;
    },

    /** Whether the optional column companies.require_two_factor exists (added by the two-factor work). */
    async requireTwoFactor(companyId: number): Promise<boolean | null> {
      const [column] = await sqlRows(
        db,
        { n: computed.number },
        sql`select 1 as n from information_schema.columns where table_name = 'companies' and column_name = 'require_two_factor'`,
      );
      if (!column) return null;
      const [row] = await sqlRows(
        db,
        { v: nullable(companies.requireTwoFactor) },
        sql`select require_two_factor as v from companies where id = ${companyId}`,
      );
      return row?.v ?? false;
    },

    async setRequireTwoFactor(companyId: number, value: boolean): Promise<void> {
      await db.execute(sql`update companies set require_two_factor = ${value} where id = ${companyId}`);
    },

    async nameTaken(name: string, exceptId?: number): Promise<boolean> {
      const where = exceptId === undefined ? sql`lower(name) = lower(${name})` : sql`lower(name) = lower(${name}) and id <> ${exceptId}`;
      const rows = await sqlRows(db, { id: companies.id }, sql`select id from companies where ${where} limit 1`);
      return rows.length > 0;
    },

    async admin(companyId: number) {
      const [row] = await db
        .select({ id: users.id, account: users.account, nickname: users.nickname })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(and(eq(users.companyId, companyId), eq(roles.key, 'company_admin'), isNull(roles.companyId)))
        .orderBy(asc(users.id))
        .limit(1);
      return row;
    },

    async staffCount(companyId: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(users).where(eq(users.companyId, companyId));
      return Number(row?.n ?? 0);
    },

    async update(companyId: number, fields: CompanyEdit): Promise<void> {
      await db
        .update(companies)
        .set({
          name: fields.name,
          contactName: fields.contactName ?? null,
          email: fields.email ?? null,
          phone: fields.phone ?? null,
          address: fields.address ?? null,
        })
        .where(eq(companies.id, companyId));
    },

    async setTheme(companyId: number, themeColor: string): Promise<void> {
      await db.update(companies).set({ themeColor }).where(eq(companies.id, companyId));
    },

    async setLogo(companyId: number, logo: CompanyLogo): Promise<void> {
      await db.update(companies).set({ logoUrl: logo.logoUrl, iconUrl: logo.iconUrl }).where(eq(companies.id, companyId));
    },

    /** createCompany: the company and its administrator's move into it, in one transaction. */
    async create(fields: CompanyEdit, adminUserId: number, adminRoleId: number): Promise<number> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(companies)
          .values({
            name: fields.name,
            contactName: fields.contactName ?? null,
            email: fields.email ?? null,
            phone: fields.phone ?? null,
            address: fields.address ?? null,
          })
          .returning({ id: companies.id });
        if (!row) throw new Error('company insert returned nothing');
        await tx.update(users).set({ companyId: row.id, roleId: adminRoleId, updatedAt: new Date() }).where(eq(users.id, adminUserId));
        return row.id;
      });
    },

    async accountByName(account: string): Promise<AccountRecord | undefined> {
      const [row] = await db
        .select(accountColumns)
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(eq(users.account, account.trim().toLowerCase()));
      return row;
    },

    async accountById(userId: number): Promise<AccountRecord | undefined> {
      const [row] = await db.select(accountColumns).from(users).innerJoin(roles, eq(roles.id, users.roleId)).where(eq(users.id, userId));
      return row;
    },

    /** transferAdministrator: the member becomes administrator and the administrator a staff member. */
    async transferAdmin(fromUserId: number, toUserId: number, adminRoleId: number, staffRoleId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const now = new Date();
        await tx.update(users).set({ roleId: adminRoleId, updatedAt: now }).where(eq(users.id, toUserId));
        await tx.update(users).set({ roleId: staffRoleId, updatedAt: now }).where(eq(users.id, fromUserId));
      });
    },

    // ---- Staff ----

    async staffPage(companyId: number, query: { page: number; size: number; keyword?: string; roleId?: number }) {
      const parts: SQL[] = [eq(users.companyId, companyId)];
      if (query.keyword) {
        const like = `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const match = or(ilike(users.account, like), ilike(users.nickname, like));
        if (match) parts.push(match);
      }
      if (query.roleId !== undefined) parts.push(eq(users.roleId, query.roleId));
      const where = and(...parts);
      const [total] = await db.select({ n: count() }).from(users).where(where);
      const rows = await db
        .select({
          id: users.id,
          account: users.account,
          nickname: users.nickname,
          email: users.email,
          phone: users.phone,
          roleId: users.roleId,
          roleName: roles.name,
          roleKey: roles.key,
          builtIn: roles.builtIn,
          disabledAt: users.disabledAt,
          createdAt: users.createdAt,
        })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(where)
        .orderBy(asc(users.id))
        .limit(query.size)
        .offset((query.page - 1) * query.size);
      return { total: Number(total?.n ?? 0), rows: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
    },

    async staffMember(companyId: number, userId: number) {
      const page = await db
        .select({
          id: users.id,
          account: users.account,
          nickname: users.nickname,
          email: users.email,
          phone: users.phone,
          roleId: users.roleId,
          roleName: roles.name,
          roleKey: roles.key,
          builtIn: roles.builtIn,
          disabledAt: users.disabledAt,
          createdAt: users.createdAt,
        })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
      const row = page[0];
      return row ? { ...row, createdAt: row.createdAt.toISOString() } : undefined;
    },

    async createStaff(input: {
      companyId: number;
      account: string;
      passwordHash: string;
      nickname: string;
      email: string | null;
      phone: string | null;
      roleId: number;
    }): Promise<number | undefined> {
      const rows = await db
        .insert(users)
        .values({ ...input, account: input.account.trim().toLowerCase() })
        .onConflictDoNothing({ target: users.account })
        .returning({ id: users.id });
      return rows[0]?.id;
    },

    async updateStaff(userId: number, fields: { nickname: string; email: string | null; phone: string | null; roleId: number }) {
      await db
        .update(users)
        .set({ ...fields, updatedAt: new Date() })
        .where(eq(users.id, userId));
    },

    /** removeStaffMember: their plants pass to the company's administrator, then the account is deleted. */
    async removeStaff(companyId: number, userId: number, adminId: number): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(sql`update plants set owner_id = ${adminId} where owner_id = ${userId} and company_id = ${companyId}`);
        await tx.execute(sql`update plants set owner_id = null where owner_id = ${userId}`);
        await tx.delete(users).where(and(eq(users.id, userId), eq(users.companyId, companyId)));
      });
    },

    // ---- Roles ----

    async builtInRoleId(key: string): Promise<number | undefined> {
      const [row] = await db
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.key, key), isNull(roles.companyId)));
      return row?.id;
    },

    async role(roleId: number): Promise<RoleRecord | undefined> {
      const [row] = await db
        .select({ id: roles.id, companyId: roles.companyId, key: roles.key, name: roles.name, builtIn: roles.builtIn })
        .from(roles)
        .where(eq(roles.id, roleId));
      return row;
    },

    /** The company's roles: the two built-in company roles first, then its custom roles. */
    async roles(companyId: number) {
      const rows = await sqlRows(
        db,
        {
          id: roles.id,
          key: roles.key,
          name: roles.name,
          remark: roles.remark,
          built_in: roles.builtIn,
          company_id: roles.companyId,
          members: computed.number,
        },
        sql`select r.id, r.key, r.name, r.remark, r.built_in, r.company_id,
              (select count(*) from users u where u.role_id = r.id and u.company_id = ${companyId}) as members
            from roles r
            where r.company_id = ${companyId} or (r.company_id is null and r.key in ('company_admin', 'company_staff'))
            order by r.company_id nulls first, r.id`,
      );
      const ids = rows.map((r) => r.id);
      const grants =
        ids.length === 0
          ? []
          : await db
              .select({ roleId: rolePermissions.roleId, key: rolePermissions.permissionKey })
              .from(rolePermissions)
              .where(inArray(rolePermissions.roleId, ids));
      return rows.map((r) => ({
        id: r.id,
        key: r.key,
        name: r.name,
        remark: r.remark,
        builtIn: r.company_id === null,
        permissions: grants.filter((g) => g.roleId === r.id).map((g) => g.key),
        memberCount: r.members,
      }));
    },

    async customRoleCount(companyId: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(roles).where(eq(roles.companyId, companyId));
      return Number(row?.n ?? 0);
    },

    async roleNameTaken(companyId: number, name: string, exceptId?: number): Promise<boolean> {
      const parts: SQL[] = [eq(roles.companyId, companyId), sql`lower(${roles.name}) = lower(${name})`];
      if (exceptId !== undefined) parts.push(ne(roles.id, exceptId));
      const rows = await db
        .select({ id: roles.id })
        .from(roles)
        .where(and(...parts))
        .limit(1);
      return rows.length > 0;
    },

    /** createRole: the role and its grants in one transaction; undefined when the name was taken meanwhile. */
    async createRole(companyId: number, input: { name: string; remark: string | null; permissions: readonly string[] }) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(roles)
          .values({ companyId, key: 'custom', name: input.name, remark: input.remark, builtIn: false })
          .onConflictDoNothing()
          .returning({ id: roles.id });
        if (!row) return undefined;
        if (input.permissions.length > 0)
          await tx.insert(rolePermissions).values(input.permissions.map((permissionKey) => ({ roleId: row.id, permissionKey })));
        return row.id;
      });
    },

    /** updateRole: name, remark and grants replaced together, so members never see half a change. */
    async updateRole(roleId: number, input: { name: string; remark: string | null; permissions: readonly string[] }) {
      await db.transaction(async (tx) => {
        await tx.update(roles).set({ name: input.name, remark: input.remark }).where(eq(roles.id, roleId));
        await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
        if (input.permissions.length > 0)
          await tx.insert(rolePermissions).values(input.permissions.map((permissionKey) => ({ roleId, permissionKey })));
      });
    },

    async roleMemberCount(roleId: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(users).where(eq(users.roleId, roleId));
      return Number(row?.n ?? 0);
    },

    async deleteRole(roleId: number): Promise<void> {
      await db.delete(roles).where(eq(roles.id, roleId));
    },

    // ---- Agents ----

    async agents(companyId: number) {
      const rows = await sqlRows(
        db,
        {
          id: companyAgents.id,
          user_id: companyAgents.agentUserId,
          account: users.account,
          nickname: users.nickname,
          company_name: nullable(companies.name),
          created_at: companyAgents.createdAt,
        },
        sql`select a.id, a.agent_user_id as user_id, u.account, u.nickname, c.name as company_name, a.created_at
            from company_agents a join users u on u.id = a.agent_user_id left join companies c on c.id = u.company_id
            where a.company_id = ${companyId} order by a.id`,
      );
      return rows.map((r) => ({
        id: r.id,
        userId: r.user_id,
        account: r.account,
        nickname: r.nickname,
        companyName: r.company_name,
        createdAt: r.created_at.toISOString(),
      }));
    },

    /** The companies whose agent this user is. */
    async principals(userId: number) {
      const rows = await sqlRows(
        db,
        { company_id: companyAgents.companyId, company_name: companies.name, created_at: companyAgents.createdAt },
        sql`select a.company_id, c.name as company_name, a.created_at from company_agents a join companies c on c.id = a.company_id
            where a.agent_user_id = ${userId} order by a.id`,
      );
      return rows.map((r) => ({ companyId: r.company_id, companyName: r.company_name, since: r.created_at.toISOString() }));
    },

    async agentOf(userId: number): Promise<number | undefined> {
      const [row] = await db
        .select({ companyId: companyAgents.companyId })
        .from(companyAgents)
        .where(eq(companyAgents.agentUserId, userId));
      return row?.companyId;
    },

    async removeAgent(companyId: number, id: number): Promise<boolean> {
      const rows = await db
        .delete(companyAgents)
        .where(and(eq(companyAgents.id, id), eq(companyAgents.companyId, companyId)))
        .returning({ id: companyAgents.id });
      return rows.length > 0;
    },
  };
}

export type CompanyRepository = ReturnType<typeof createCompanyRepository>;
