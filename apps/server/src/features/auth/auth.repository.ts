import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { roles, sessions, sessionTokens, users } from '../../db/schema.js';

export interface CredentialRow {
  id: number;
  passwordHash: string;
  disabledAt: Date | null;
}

export interface AuthenticatedRow {
  userId: number;
  sessionId: string;
  account: string;
  roleId: number;
  roleKey: string;
  companyId: number | null;
  readOnly: boolean;
  /** The company requires two-factor sign-in and this member has not set it up yet. */
  mustEnrolTwoFactor: boolean;
}

export interface IssuedToken {
  hash: string;
  kind: 'access' | 'refresh';
  expiresAt: Date;
}

/** All SQL of sign-in, sessions and tokens. */
export function createAuthRepository(db: Database) {
  return {
    async findCredentials(account: string): Promise<CredentialRow | undefined> {
      const [row] = await db
        .select({ id: users.id, passwordHash: users.passwordHash, disabledAt: users.disabledAt })
        .from(users)
        .where(eq(users.account, account));
      return row;
    },

    /** Starts a session with its first token pair, in one transaction. */
    async createSession(input: { sessionId: string; userId: number; ip: string; userAgent: string | undefined; tokens: IssuedToken[] }) {
      await db.transaction(async (tx) => {
        await tx.insert(sessions).values({ id: input.sessionId, userId: input.userId, ip: input.ip, userAgent: input.userAgent ?? null });
        await tx
          .insert(sessionTokens)
          .values(input.tokens.map((t) => ({ tokenHash: t.hash, sessionId: input.sessionId, kind: t.kind, expiresAt: t.expiresAt })));
      });
    },

    async findRefreshToken(hash: string) {
      const [row] = await db
        .select({
          sessionId: sessionTokens.sessionId,
          expiresAt: sessionTokens.expiresAt,
          retiredAt: sessionTokens.retiredAt,
          revokedAt: sessions.revokedAt,
          userId: sessions.userId,
          disabledAt: users.disabledAt,
        })
        .from(sessionTokens)
        .innerJoin(sessions, eq(sessions.id, sessionTokens.sessionId))
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessionTokens.tokenHash, hash), eq(sessionTokens.kind, 'refresh')));
      return row;
    },

    /**
     * Retires a refresh token and stores its successors atomically. Returns false when the token was
     * retired in the meantime (a concurrent exchange), which the caller treats as reuse.
     */
    async rotateRefreshToken(oldHash: string, sessionId: string, now: Date, tokens: IssuedToken[]): Promise<boolean> {
      return db.transaction(async (tx) => {
        const retired = await tx
          .update(sessionTokens)
          .set({ retiredAt: now })
          .where(and(eq(sessionTokens.tokenHash, oldHash), isNull(sessionTokens.retiredAt)))
          .returning({ hash: sessionTokens.tokenHash });
        if (retired.length === 0) return false;
        await tx.insert(sessionTokens).values(tokens.map((t) => ({ tokenHash: t.hash, sessionId, kind: t.kind, expiresAt: t.expiresAt })));
        return true;
      });
    },

    /** More tokens for a live session (the refresh grace's sibling pair). */
    async addSessionTokens(sessionId: string, tokens: IssuedToken[]): Promise<void> {
      await db.insert(sessionTokens).values(tokens.map((t) => ({ tokenHash: t.hash, sessionId, kind: t.kind, expiresAt: t.expiresAt })));
    },

    async findSessionOfToken(hash: string): Promise<string | undefined> {
      const [row] = await db.select({ sessionId: sessionTokens.sessionId }).from(sessionTokens).where(eq(sessionTokens.tokenHash, hash));
      return row?.sessionId;
    },

    async revokeSession(sessionId: string, reason: string, now: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: now, revokeReason: reason })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },

    async revokeAllSessionsOfUser(userId: number, reason: string, now: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: now, revokeReason: reason })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    },

    /** The signed-in caller behind an access token, if the token, its session and its user are all live. */
    async findByAccessToken(hash: string, now: Date): Promise<AuthenticatedRow | undefined> {
      const [row] = await db
        .select({
          userId: users.id,
          sessionId: sessions.id,
          account: users.account,
          roleId: users.roleId,
          roleKey: roles.key,
          companyId: users.companyId,
          readOnly: users.readOnly,
          mustEnrolTwoFactor: sql<boolean>`(${users.totpEnabledAt} is null and exists (select 1 from companies c where c.id = ${users.companyId} and c.require_two_factor))`,
        })
        .from(sessionTokens)
        .innerJoin(sessions, eq(sessions.id, sessionTokens.sessionId))
        .innerJoin(users, eq(users.id, sessions.userId))
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(
          and(
            eq(sessionTokens.tokenHash, hash),
            eq(sessionTokens.kind, 'access'),
            gt(sessionTokens.expiresAt, now),
            isNull(sessions.revokedAt),
            isNull(users.disabledAt),
          ),
        );
      return row;
    },

    /** Housekeeping: expired tokens and long-dead sessions need not be kept. */
    async deleteExpired(now: Date): Promise<void> {
      await db.delete(sessionTokens).where(lt(sessionTokens.expiresAt, now));
      await db
        .delete(sessions)
        .where(
          or(
            lt(sessions.revokedAt, sql`${now}::timestamptz - interval '30 days'`),
            sql`not exists (select 1 from ${sessionTokens} where ${sessionTokens.sessionId} = ${sessions.id})`,
          ),
        );
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
