import type { CustomerRow, CustomerType } from '@sunward/contracts/customers';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, type RowOf, sqlRows } from '../../db/rows.js';
import { companyCustomerPlants, companyCustomers, customerTypes, plants, users } from '../../db/schema.js';

/** The columns SELECT answers, typed from the schema; plants is the JSON list of the customer's plants. */
const CUSTOMER = {
  id: companyCustomers.id,
  company_id: companyCustomers.companyId,
  user_id: companyCustomers.userId,
  account: users.account,
  name: companyCustomers.name,
  type_id: companyCustomers.typeId,
  type_name: nullable(customerTypes.name),
  remark: companyCustomers.remark,
  created_at: companyCustomers.createdAt,
  plants: computed.json<{ id: number; name: string }[]>(),
};

function present(r: RowOf<typeof CUSTOMER>): CustomerRow {
  return {
    customerId: r.id,
    companyId: r.company_id,
    masterId: r.user_id,
    account: r.account,
    name: r.name,
    typeId: r.type_id,
    typeName: r.type_name,
    remark: r.remark,
    plants: r.plants.map((p) => ({ id: Number(p.id), name: p.name })),
    createdAt: r.created_at.toISOString(),
  };
}

const SELECT = sql`select c.id, c.company_id, c.user_id, u.account, c.name, c.type_id, t.name as type_name, c.remark, c.created_at,
    coalesce((select json_agg(json_build_object('id', p.id, 'name', p.name) order by p.id) from company_customer_plants cp
      join plants p on p.id = cp.plant_id where cp.customer_id = c.id and p.company_id = c.company_id), '[]'::json) as plants
  from company_customers c join users u on u.id = c.user_id left join customer_types t on t.id = c.type_id`;

/** SQL of a company's customers (accounts linked to the company, with their assigned plants) and customer types. */
export function createCustomersRepository(db: Database) {
  return {
    async page(companyId: number, query: { page: number; size: number; keyword?: string; typeId?: number }) {
      const parts: SQL[] = [sql`c.company_id = ${companyId}`];
      if (query.keyword) {
        const like = `%${query.keyword.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
        parts.push(sql`(u.account ilike ${like} or c.name ilike ${like})`);
      }
      // A primary label covers the customers of its secondary labels too.
      if (query.typeId !== undefined)
        parts.push(sql`(c.type_id = ${query.typeId} or c.type_id in (select id from customer_types where parent_id = ${query.typeId}))`);
      const where = sql.join(parts, sql` and `);
      const [total] = await sqlRows(
        db,
        { n: computed.number },
        sql`select count(*) as n from company_customers c join users u on u.id = c.user_id where ${where}`,
      );
      const rows = await sqlRows(
        db,
        CUSTOMER,
        sql`${SELECT} where ${where} order by c.id desc limit ${query.size} offset ${(query.page - 1) * query.size}`,
      );
      return { total: total?.n ?? 0, infos: rows.map(present) };
    },

    async options(companyId: number) {
      const rows = await sqlRows(
        db,
        { id: companyCustomers.id, user_id: companyCustomers.userId, account: users.account, name: companyCustomers.name },
        sql`select c.id, c.user_id, u.account, c.name from company_customers c join users u on u.id = c.user_id
            where c.company_id = ${companyId} order by c.name, c.id`,
      );
      return rows.map((r) => ({ customerId: r.id, masterId: r.user_id, account: r.account, name: r.name }));
    },

    async find(companyId: number, by: { customerId: number } | { userId: number }): Promise<CustomerRow | undefined> {
      const match = 'customerId' in by ? sql`c.id = ${by.customerId}` : sql`c.user_id = ${by.userId}`;
      const [row] = await sqlRows(db, CUSTOMER, sql`${SELECT} where c.company_id = ${companyId} and ${match}`);
      return row ? present(row) : undefined;
    },

    /** The ids among these that are plants of the company. */
    async companyPlantIds(companyId: number, plantIds: readonly number[]): Promise<Set<number>> {
      if (plantIds.length === 0) return new Set();
      const rows = await sqlRows(
        db,
        { id: plants.id },
        sql`select id from plants where company_id = ${companyId} and id = any(${sql.param([...plantIds])}::int[])`,
      );
      return new Set(rows.map((r) => r.id));
    },

    /**
     * addCustomer: a new account, its link to the company and the assigned plants, in one transaction;
     * undefined when the account was taken meanwhile. (An existing account is invited instead: invitations/.)
     */
    async create(input: {
      companyId: number;
      newAccount: { account: string; passwordHash: string; roleId: number };
      name: string;
      typeId: number | null;
      remark: string | null;
      plantIds: readonly number[];
    }): Promise<number | undefined> {
      return db.transaction(async (tx) => {
        const created = await tx
          .insert(users)
          .values({ ...input.newAccount, nickname: input.name })
          .onConflictDoNothing({ target: users.account })
          .returning({ id: users.id });
        const userId = created[0]?.id;
        if (userId === undefined) return undefined;
        const [row] = await tx
          .insert(companyCustomers)
          .values({ companyId: input.companyId, userId, name: input.name, typeId: input.typeId, remark: input.remark })
          .onConflictDoNothing()
          .returning({ id: companyCustomers.id });
        if (!row) return undefined;
        if (input.plantIds.length > 0)
          await tx.insert(companyCustomerPlants).values(input.plantIds.map((plantId) => ({ customerId: row.id, plantId })));
        return row.id;
      });
    },

    /** updateCustomer: fields and the assigned plants replaced together. */
    async update(customerId: number, input: { name: string; typeId: number | null; remark: string | null; plantIds: readonly number[] }) {
      await db.transaction(async (tx) => {
        await tx
          .update(companyCustomers)
          .set({ name: input.name, typeId: input.typeId, remark: input.remark })
          .where(eq(companyCustomers.id, customerId));
        await tx.delete(companyCustomerPlants).where(eq(companyCustomerPlants.customerId, customerId));
        if (input.plantIds.length > 0)
          await tx.insert(companyCustomerPlants).values(input.plantIds.map((plantId) => ({ customerId, plantId })));
      });
    },

    async remove(companyId: number, userId: number): Promise<boolean> {
      const rows = await db
        .delete(companyCustomers)
        .where(and(eq(companyCustomers.companyId, companyId), eq(companyCustomers.userId, userId)))
        .returning({ id: companyCustomers.id });
      return rows.length > 0;
    },

    // ---- Customer types ----

    async types(companyId: number): Promise<CustomerType[]> {
      const rows = await sqlRows(
        db,
        {
          id: customerTypes.id,
          name: customerTypes.name,
          remark: customerTypes.remark,
          parent_id: customerTypes.parentId,
          customers: computed.number,
        },
        sql`select t.id, t.name, t.remark, t.parent_id, (select count(*) from company_customers c where c.type_id = t.id) as customers
            from customer_types t where t.company_id = ${companyId} order by t.parent_id nulls first, t.name, t.id`,
      );
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        remark: r.remark,
        parentId: r.parent_id,
        customerCount: r.customers,
      }));
    },

    async type(companyId: number, id: number) {
      const [row] = await db
        .select()
        .from(customerTypes)
        .where(and(eq(customerTypes.companyId, companyId), eq(customerTypes.id, id)));
      return row;
    },

    async typeNameTaken(companyId: number, parentId: number | null, name: string, exceptId?: number): Promise<boolean> {
      const parent = parentId === null ? isNull(customerTypes.parentId) : eq(customerTypes.parentId, parentId);
      const parts: SQL[] = [eq(customerTypes.companyId, companyId), sql`lower(${customerTypes.name}) = lower(${name})`];
      if (parent) parts.push(parent);
      if (exceptId !== undefined) parts.push(sql`${customerTypes.id} <> ${exceptId}`);
      const rows = await db
        .select({ id: customerTypes.id })
        .from(customerTypes)
        .where(and(...parts))
        .limit(1);
      return rows.length > 0;
    },

    async childCount(id: number): Promise<number> {
      const rows = await db.select({ id: customerTypes.id }).from(customerTypes).where(eq(customerTypes.parentId, id));
      return rows.length;
    },

    async createType(companyId: number, input: { name: string; remark: string | null; parentId: number | null }) {
      const rows = await db
        .insert(customerTypes)
        .values({ companyId, ...input })
        .onConflictDoNothing()
        .returning({ id: customerTypes.id });
      return rows[0]?.id;
    },

    async updateType(id: number, input: { name: string; remark: string | null; parentId: number | null }): Promise<boolean> {
      try {
        await db.update(customerTypes).set(input).where(eq(customerTypes.id, id));
        return true;
      } catch {
        // The partial unique indexes caught a name taken meanwhile.
        return false;
      }
    },

    async deleteType(companyId: number, id: number): Promise<void> {
      await db.delete(customerTypes).where(and(eq(customerTypes.companyId, companyId), eq(customerTypes.id, id)));
    },
  };
}

export type CustomersRepository = ReturnType<typeof createCustomersRepository>;
