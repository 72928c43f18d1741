import { and, count, eq, gt, lte } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { oidcBindingTickets, oidcFlows, userIdentities, users } from '../../db/schema.js';

export interface FlowRecord {
  provider: string;
  purpose: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  browserKeyHash: string;
}

export interface TicketRecord {
  provider: string;
  subject: string;
  email: string | null;
  name: string | null;
}

export interface IdentityRecord {
  userId: number;
  provider: string;
  subject: string;
  email: string | null;
  name: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** All SQL of third-party sign-in: started flows, binding tickets and bound identities. */
export function createThirdPartyRepository(db: Database) {
  return {
    /** Housekeeping on every start: flows and tickets past their expiry are of no use to anyone. */
    async deleteExpired(now: Date): Promise<void> {
      await db.delete(oidcFlows).where(lte(oidcFlows.expiresAt, now));
      await db.delete(oidcBindingTickets).where(lte(oidcBindingTickets.expiresAt, now));
    },

    async countLiveFlowsFrom(ip: string, now: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(oidcFlows)
        .where(and(eq(oidcFlows.ip, ip), gt(oidcFlows.expiresAt, now)));
      return Number(row?.n ?? 0);
    },

    async insertFlow(flow: FlowRecord & { stateHash: string; ip: string; expiresAt: Date }): Promise<void> {
      await db.insert(oidcFlows).values(flow);
    },

    /** Single use: the flow is deleted as it is read, so a replayed state finds nothing. */
    async takeFlow(stateHash: string, now: Date): Promise<FlowRecord | undefined> {
      const [row] = await db.delete(oidcFlows).where(eq(oidcFlows.stateHash, stateHash)).returning({
        provider: oidcFlows.provider,
        purpose: oidcFlows.purpose,
        nonce: oidcFlows.nonce,
        codeVerifier: oidcFlows.codeVerifier,
        redirectUri: oidcFlows.redirectUri,
        browserKeyHash: oidcFlows.browserKeyHash,
        expiresAt: oidcFlows.expiresAt,
      });
      if (!row || row.expiresAt.getTime() <= now.getTime()) return undefined;
      return row;
    },

    async insertTicket(ticket: TicketRecord & { ticketHash: string; expiresAt: Date }): Promise<void> {
      await db.insert(oidcBindingTickets).values(ticket);
    },

    async findTicket(ticketHash: string, now: Date): Promise<TicketRecord | undefined> {
      const [row] = await db
        .select({
          provider: oidcBindingTickets.provider,
          subject: oidcBindingTickets.subject,
          email: oidcBindingTickets.email,
          name: oidcBindingTickets.name,
        })
        .from(oidcBindingTickets)
        .where(and(eq(oidcBindingTickets.ticketHash, ticketHash), gt(oidcBindingTickets.expiresAt, now)));
      return row;
    },

    async findIdentity(provider: string, subject: string): Promise<(IdentityRecord & { disabledAt: Date | null }) | undefined> {
      const [row] = await db
        .select({
          userId: userIdentities.userId,
          provider: userIdentities.provider,
          subject: userIdentities.subject,
          email: userIdentities.email,
          name: userIdentities.name,
          createdAt: userIdentities.createdAt,
          lastUsedAt: userIdentities.lastUsedAt,
          disabledAt: users.disabledAt,
        })
        .from(userIdentities)
        .innerJoin(users, eq(users.id, userIdentities.userId))
        .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)));
      return row;
    },

    async identitiesOf(userId: number): Promise<IdentityRecord[]> {
      return db
        .select({
          userId: userIdentities.userId,
          provider: userIdentities.provider,
          subject: userIdentities.subject,
          email: userIdentities.email,
          name: userIdentities.name,
          createdAt: userIdentities.createdAt,
          lastUsedAt: userIdentities.lastUsedAt,
        })
        .from(userIdentities)
        .where(eq(userIdentities.userId, userId))
        .orderBy(userIdentities.provider);
    },

    /** The provider's latest e-mail and name, and when the identity last signed in. */
    async touchIdentity(provider: string, subject: string, claims: { email: string | null; name: string | null }, now: Date) {
      await db
        .update(userIdentities)
        .set({ email: claims.email, name: claims.name, lastUsedAt: now })
        .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)));
    },

    /**
     * Uses the ticket and binds its identity in one transaction. 'ticket': used or expired meanwhile;
     * 'taken': the identity, or this user's slot for the provider, was bound meanwhile (the unique indexes decide).
     */
    async bindWithTicket(ticketHash: string, userId: number, now: Date): Promise<'bound' | 'ticket' | 'taken'> {
      return db.transaction(async (tx) => {
        const [ticket] = await tx
          .delete(oidcBindingTickets)
          .where(and(eq(oidcBindingTickets.ticketHash, ticketHash), gt(oidcBindingTickets.expiresAt, now)))
          .returning({
            provider: oidcBindingTickets.provider,
            subject: oidcBindingTickets.subject,
            email: oidcBindingTickets.email,
            name: oidcBindingTickets.name,
          });
        if (!ticket) return 'ticket';
        const inserted = await tx
          .insert(userIdentities)
          .values({ userId, ...ticket, lastUsedAt: now })
          .onConflictDoNothing()
          .returning({ id: userIdentities.id });
        return inserted.length > 0 ? 'bound' : 'taken';
      });
    },

    async deleteTicket(ticketHash: string): Promise<void> {
      await db.delete(oidcBindingTickets).where(eq(oidcBindingTickets.ticketHash, ticketHash));
    },

    async unbind(userId: number, provider: string): Promise<boolean> {
      const removed = await db
        .delete(userIdentities)
        .where(and(eq(userIdentities.userId, userId), eq(userIdentities.provider, provider)))
        .returning({ id: userIdentities.id });
      return removed.length > 0;
    },
  };
}

export type ThirdPartyRepository = ReturnType<typeof createThirdPartyRepository>;
