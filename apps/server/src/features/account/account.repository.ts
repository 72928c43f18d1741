import { and, count, desc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  companies,
  rateLimitCounters,
  recoveryCodes,
  roles,
  sessions,
  signInChallenges,
  users,
  verificationCodes,
} from '../../db/schema.js';

export interface ActiveCode {
  id: number;
  codeHash: string;
  attempts: number;
  expiresAt: Date;
}

/** All SQL of accounts: verification codes, rate limits, registration, profile, preferences and two-factor sign-in. */
export function createAccountRepository(db: Database) {
  return {
    // ---- rate limits -------------------------------------------------------------------------------------

    /**
     * Counts one request against `key` in a fixed window and returns the count including it. One
     * statement, so concurrent requests on several servers cannot both slip under the limit.
     */
    async hit(key: string, windowSeconds: number, now: Date): Promise<number> {
      const windowStart = new Date(Math.floor(now.getTime() / (windowSeconds * 1000)) * windowSeconds * 1000);
      const [row] = await db
        .insert(rateLimitCounters)
        .values({ key, windowStart, count: 1 })
        .onConflictDoUpdate({
          target: rateLimitCounters.key,
          set: {
            count: sql`case when ${rateLimitCounters.windowStart} = ${windowStart.toISOString()}::timestamptz then ${rateLimitCounters.count} + 1 else 1 end`,
            windowStart,
          },
        })
        .returning({ count: rateLimitCounters.count });
      return row?.count ?? 1;
    },

    // ---- verification codes ------------------------------------------------------------------------------

    async countCodesSince(by: { address?: string; ip?: string }, since: Date): Promise<number> {
      const where = by.address !== undefined ? eq(verificationCodes.address, by.address) : eq(verificationCodes.ip, by.ip ?? '');
      const [row] = await db
        .select({ n: count() })
        .from(verificationCodes)
        .where(and(where, gt(verificationCodes.createdAt, since)));
      return Number(row?.n ?? 0);
    },

    async latestCodeSentAt(address: string, purpose: string): Promise<Date | undefined> {
      const [row] = await db
        .select({ createdAt: verificationCodes.createdAt })
        .from(verificationCodes)
        .where(and(eq(verificationCodes.address, address), eq(verificationCodes.purpose, purpose)))
        .orderBy(desc(verificationCodes.createdAt))
        .limit(1);
      return row?.createdAt;
    },

    /** A new code replaces any earlier one for the same address and purpose: only the latest is valid. */
    async storeCode(input: { purpose: string; address: string; codeHash: string; ip: string; expiresAt: Date; now: Date }): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(verificationCodes)
          .set({ usedAt: input.now })
          .where(
            and(
              eq(verificationCodes.address, input.address),
              eq(verificationCodes.purpose, input.purpose),
              isNull(verificationCodes.usedAt),
            ),
          );
        await tx.insert(verificationCodes).values({
          purpose: input.purpose,
          address: input.address,
          codeHash: input.codeHash,
          ip: input.ip,
          expiresAt: input.expiresAt,
        });
      });
    },

    /** The latest unused code of an address and purpose (expired or not: the caller tells 6 from 5). */
    async activeCode(address: string, purpose: string): Promise<ActiveCode | undefined> {
      const [row] = await db
        .select({
          id: verificationCodes.id,
          codeHash: verificationCodes.codeHash,
          attempts: verificationCodes.attempts,
          expiresAt: verificationCodes.expiresAt,
        })
        .from(verificationCodes)
        .where(and(eq(verificationCodes.address, address), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.usedAt)))
        .orderBy(desc(verificationCodes.createdAt))
        .limit(1);
      return row;
    },

    async countWrongEntry(id: number): Promise<void> {
      await db
        .update(verificationCodes)
        .set({ attempts: sql`${verificationCodes.attempts} + 1` })
        .where(eq(verificationCodes.id, id));
    },

    /** Marks a code used; false when another request used it first (a code works once). */
    async consumeCode(id: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(verificationCodes)
        .set({ usedAt: now })
        .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.usedAt)))
        .returning({ id: verificationCodes.id });
      return rows.length === 1;
    },

    // ---- users -------------------------------------------------------------------------------------------

    /** Whether an address is taken: as an account, or as another user's e-mail or phone. */
    async addressTaken(address: string, exceptUserId?: number): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            or(eq(users.account, address), eq(users.email, address), eq(users.phone, address)),
            exceptUserId === undefined ? undefined : ne(users.id, exceptUserId),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    async findByAccount(account: string) {
      const [row] = await db
        .select({ id: users.id, account: users.account, email: users.email, phone: users.phone, language: users.language })
        .from(users)
        .where(eq(users.account, account));
      return row;
    },

    async builtInRoleId(key: string): Promise<number | undefined> {
      const [row] = await db
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.key, key), isNull(roles.companyId)));
      return row?.id;
    },

    async createUser(input: {
      account: string;
      passwordHash: string;
      nickname: string;
      roleId: number;
      email: string | null;
      phone: string | null;
      language: string;
    }): Promise<number> {
      const [row] = await db.insert(users).values(input).returning({ id: users.id });
      if (!row) throw new Error('user insert returned nothing');
      return row.id;
    },

    async findSecrets(userId: number) {
      const [row] = await db
        .select({
          passwordHash: users.passwordHash,
          totpSecret: users.totpSecret,
          totpPendingSecret: users.totpPendingSecret,
          totpLastStep: users.totpLastStep,
          account: users.account,
          companyRequiresTwoFactor: companies.requireTwoFactor,
        })
        .from(users)
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.id, userId));
      return row;
    },

    async setPassword(userId: number, passwordHash: string, now: Date): Promise<void> {
      await db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
    },

    async updateProfile(
      userId: number,
      fields: { nickname?: string; avatar?: string | null; email?: string | null; phone?: string | null },
      now: Date,
    ): Promise<void> {
      if (Object.keys(fields).length === 0) return;
      await db
        .update(users)
        .set({ ...fields, updatedAt: now })
        .where(eq(users.id, userId));
    },

    async readPreferences(userId: number): Promise<{ preferences: unknown; language: string } | undefined> {
      const [row] = await db.select({ preferences: users.preferences, language: users.language }).from(users).where(eq(users.id, userId));
      return row;
    },

    /** The language is also the user's `language` column, which e-mails and GET /api/v1/user use. */
    async writePreferences(userId: number, preferences: Record<string, unknown>, language: string, now: Date): Promise<void> {
      await db.update(users).set({ preferences, language, updatedAt: now }).where(eq(users.id, userId));
    },

    async accountInfo(userId: number) {
      const [row] = await db
        .select({
          id: users.id,
          account: users.account,
          nickname: users.nickname,
          avatar: users.avatar,
          email: users.email,
          phone: users.phone,
          role: roles.key,
          roleName: roles.name,
          builtIn: roles.builtIn,
          companyId: companies.id,
          companyName: companies.name,
          requireTwoFactor: companies.requireTwoFactor,
          createdAt: users.createdAt,
          totpEnabledAt: users.totpEnabledAt,
        })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.id, userId));
      return row;
    },

    /** The sign-in before the current one (the current session is the latest), and how many sessions are live. */
    async sessionFacts(userId: number, currentSessionId: string) {
      const [previous] = await db
        .select({ createdAt: sessions.createdAt, ip: sessions.ip })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), ne(sessions.id, currentSessionId)))
        .orderBy(desc(sessions.createdAt))
        .limit(1);
      const [live] = await db
        .select({ n: count() })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
      return { previous, active: Number(live?.n ?? 0) };
    },

    /** Signs out every session of the user but one (the caller's, after a password change). */
    async revokeOtherSessions(userId: number, keepSessionId: string, reason: string, now: Date): Promise<number> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: now, revokeReason: reason })
        .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return rows.length;
    },

    async revokeAllSessions(userId: number, reason: string, now: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: now, revokeReason: reason })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    },

    // ---- two-factor sign-in ------------------------------------------------------------------------------

    async setPendingSecret(userId: number, secret: string): Promise<void> {
      await db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, userId));
    },

    /** Turns two-factor sign-in on with its recovery codes, in one transaction. */
    async enableTotp(userId: number, secret: string, step: number, codeHashes: string[], now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ totpSecret: secret, totpEnabledAt: now, totpPendingSecret: null, totpLastStep: step, updatedAt: now })
          .where(eq(users.id, userId));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
      });
    },

    async disableTotp(userId: number, now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ totpSecret: null, totpEnabledAt: null, totpPendingSecret: null, totpLastStep: null, updatedAt: now })
          .where(eq(users.id, userId));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      });
    },

    async replaceRecoveryCodes(userId: number, codeHashes: string[]): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
      });
    },

    async recoveryCodesLeft(userId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return Number(row?.n ?? 0);
    },

    /** Spends a recovery code; false when it is unknown or already spent (one statement: no double spend). */
    async spendRecoveryCode(userId: number, codeHash: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(recoveryCodes)
        .set({ usedAt: now })
        .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
        .returning({ id: recoveryCodes.id });
      return rows.length === 1;
    },

    /** Records the accepted TOTP step; false when that step (or a later one) was already used: a replay. */
    async advanceTotpStep(userId: number, step: number): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), sql`${users.totpLastStep} < ${step}`)))
        .returning({ id: users.id });
      return rows.length === 1;
    },

    async createChallenge(input: { tokenHash: string; userId: number; ip: string; expiresAt: Date }): Promise<void> {
      await db.insert(signInChallenges).values(input);
    },

    async findChallenge(tokenHash: string, now: Date) {
      const [row] = await db
        .select({ userId: signInChallenges.userId, account: users.account })
        .from(signInChallenges)
        .innerJoin(users, eq(users.id, signInChallenges.userId))
        .where(and(eq(signInChallenges.tokenHash, tokenHash), gt(signInChallenges.expiresAt, now)));
      return row;
    },

    /** False when the challenge was used by a concurrent request. */
    async deleteChallenge(tokenHash: string): Promise<boolean> {
      const rows = await db
        .delete(signInChallenges)
        .where(eq(signInChallenges.tokenHash, tokenHash))
        .returning({ tokenHash: signInChallenges.tokenHash });
      return rows.length === 1;
    },

    async setCompanyRequiresTwoFactor(companyId: number, required: boolean): Promise<void> {
      await db.update(companies).set({ requireTwoFactor: required }).where(eq(companies.id, companyId));
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
