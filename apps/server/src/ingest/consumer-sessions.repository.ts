import { and, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { mqttConsumerSessions as sessions } from '../db/schema.js';

/**
 * SQL of the consumer-session registry (consumer-sessions.ts): each server process names its persistent sessions
 * on the external broker and beats; a session whose process stopped beating is claimed by one other process.
 */
export function createConsumerSessionsRepository(db: Database) {
  const fresh = { heartbeatAt: sql`now()`, adoptedBy: null, adoptedAt: null };
  const olderThan = (ms: number) => sql`now() - make_interval(secs => ${ms / 1000})`;
  return {
    /** This process holds these sessions now (a restart under the same MQTT_CONSUMER_ID takes them back). */
    async announce(clientIds: readonly string[], owner: string): Promise<void> {
      if (clientIds.length === 0) return;
      await db
        .insert(sessions)
        .values(clientIds.map((clientId) => ({ clientId, owner })))
        .onConflictDoUpdate({ target: sessions.clientId, set: { owner, ...fresh } });
    },
    /** This process is alive: its sessions are its own again, even if another process had begun adopting them. */
    async beat(owner: string): Promise<number> {
      const beaten = await db.update(sessions).set(fresh).where(eq(sessions.owner, owner)).returning({ id: sessions.clientId });
      return beaten.length;
    },
    /**
     * Claims sessions of other processes that have not beaten for `staleMs` and that no live adoption holds (an
     * adoption older than `adoptionMs` is claimed again): one UPDATE, so each session is claimed by one process.
     */
    async claimStale(owner: string, staleMs: number, adoptionMs: number): Promise<string[]> {
      const claimed = await db
        .update(sessions)
        .set({ adoptedBy: owner, adoptedAt: sql`now()` })
        .where(
          and(
            ne(sessions.owner, owner),
            lt(sessions.heartbeatAt, olderThan(staleMs)),
            or(isNull(sessions.adoptedBy), lt(sessions.adoptedAt, olderThan(adoptionMs))),
          ),
        )
        .returning({ clientId: sessions.clientId });
      return claimed.map((r) => r.clientId);
    },
    /** An adoption still draining keeps its claim (else another process would take the session over midway). */
    async renewAdoption(clientIds: readonly string[], owner: string): Promise<void> {
      if (clientIds.length === 0) return;
      await db
        .update(sessions)
        .set({ adoptedAt: sql`now()` })
        .where(and(inArray(sessions.clientId, [...clientIds]), eq(sessions.adoptedBy, owner)));
    },
    /** The adopted session is ended: forget it, unless its process came back meanwhile (its beat cleared adopted_by). */
    async adopted(clientId: string, owner: string): Promise<void> {
      await db.delete(sessions).where(and(eq(sessions.clientId, clientId), eq(sessions.adoptedBy, owner)));
    },
    /** A graceful stop ended this process's sessions. */
    async release(owner: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.owner, owner));
    },
  };
}

export type ConsumerSessionsRepository = ReturnType<typeof createConsumerSessionsRepository>;
