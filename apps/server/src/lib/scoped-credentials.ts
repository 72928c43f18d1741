import { and, count, desc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource, SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { Database } from '../db/client.js';
import { roles, users } from '../db/schema.js';

/**
 * A revocable, scoped credential that acts for the user who made it: API keys (features/open-api) and display
 * links (features/fullscreen). Each is stored as the hash of its secret, made by a user (and, for company scopes,
 * for their company), expires, may be revoked, and records its last use. This module holds the queries both
 * kinds share; each feature keeps its own columns, shapes and rules.
 */
export interface CredentialTable extends PgTable {
  id: PgColumn;
  createdBy: PgColumn;
  companyId: PgColumn;
  createdAt: PgColumn;
  expiresAt: PgColumn;
  revokedAt: PgColumn;
  lastUsedAt: PgColumn;
}

/** The creator as a credential acts for them at each use (their role, company and account state now, not at creation). */
export interface CredentialCreator {
  userId: number;
  account: string;
  roleId: number;
  roleKey: string;
  companyId: number | null;
  readOnly: boolean;
  disabled: boolean;
}

/**
 * The shared queries over one credential table: `fields` are the columns a record is read with (the creator's
 * account joined from users), `toRecord` shapes a row, `secretHash` is the column holding the secret's hash.
 */
export function credentialQueries<T extends CredentialTable, F extends SelectedFields, R>(
  db: Database,
  spec: { table: T; secretHash: PgColumn; fields: F; toRecord: (row: SelectResultFields<F>) => R },
) {
  const { table, fields, toRecord } = spec;

  async function records(where: SQL | undefined, ordered = false): Promise<R[]> {
    const query = db
      .select(fields as SelectedFields)
      .from(table as PgTable)
      .innerJoin(users, eq(users.id, table.createdBy))
      .where(where);
    const rows = ordered ? await query.orderBy(desc(table.createdAt), desc(table.id)) : await query;
    // Selected through the generic shape (drizzle cannot resolve a generic selection's joins); an inner join makes
    // each row exactly `fields` as their columns type them.
    return (rows as unknown as SelectResultFields<F>[]).map(toRecord);
  }

  async function mark(id: number, values: { revokedAt: Date } | { lastUsedAt: Date }, where?: SQL): Promise<void> {
    await db
      .update(table)
      .set(values as PgUpdateSetSource<T>)
      .where(and(eq(table.id, id), where));
  }

  return {
    /** Credentials of this user that are neither revoked nor expired at `now`. */
    async activeCount(userId: number, now: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(table as PgTable)
        .where(and(eq(table.createdBy, userId), isNull(table.revokedAt), gt(table.expiresAt, now)));
      return row?.n ?? 0;
    },

    /** Those the user made, newest first; with a company, also those made for that company. */
    list(userId: number, companyId: number | null): Promise<R[]> {
      const mine = eq(table.createdBy, userId);
      return records(companyId === null ? mine : sql`(${mine} or ${table.companyId} = ${companyId})`, true);
    },

    async byId(id: number): Promise<R | undefined> {
      return (await records(eq(table.id, id)))[0];
    },

    async bySecretHash(hash: string): Promise<R | undefined> {
      return (await records(eq(spec.secretHash, hash)))[0];
    },

    /** Revokes once (a revoked credential keeps its first revocation time). */
    revoke(id: number, at: Date): Promise<void> {
      return mark(id, { revokedAt: at }, isNull(table.revokedAt));
    },

    touch(id: number, at: Date): Promise<void> {
      return mark(id, { lastUsedAt: at });
    },

    creator: (userId: number) => accountNow(db, userId),
  };
}

/**
 * An account as something acting for it sees it at each use: its role, company and state now. Credentials read
 * their creator with it, and smart rules the account they act for (features/smart-rules).
 */
export async function accountNow(db: Database, userId: number): Promise<CredentialCreator | undefined> {
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
}
