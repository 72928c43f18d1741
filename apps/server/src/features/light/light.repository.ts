import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { lightBridges, lightOauthStates, lights, plants } from '../../db/schema.js';

export interface BridgeRecord {
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: Date | null;
  connectedAt: Date | null;
  revokedAt: Date | null;
  lastError: string | null;
}

export interface LightRecord {
  id: number;
  companyId: number;
  bridgeLightId: string;
  name: string;
  plantId: number | null;
  plantName: string | null;
  on: boolean;
  brightness: number;
  colorTemperature: number;
  reachable: boolean;
}

export interface ReportedBulb {
  bridgeLightId: string;
  name: string;
  on: boolean;
  brightness: number;
  colorTemperature: number;
  reachable: boolean;
}

const lightColumns = {
  id: lights.id,
  companyId: lights.companyId,
  bridgeLightId: lights.bridgeLightId,
  name: lights.name,
  plantId: lights.plantId,
  plantName: plants.name,
  on: lights.on,
  brightness: lights.brightness,
  colorTemperature: lights.colorTemperature,
  reachable: lights.reachable,
};

/** All SQL of the smart bulbs. */
export function createLightRepository(db: Database) {
  return {
    async savePending(stateHash: string, companyId: number, userId: number, verifier: string): Promise<void> {
      // Pending authorisations older than 10 minutes are of no use: dropped as new ones start.
      await db.delete(lightOauthStates).where(lt(lightOauthStates.createdAt, new Date(Date.now() - 600_000)));
      await db.insert(lightOauthStates).values({ stateHash, companyId, userId, verifier });
    },

    /** The pending authorisation, removed as it is read (a state works once). */
    async takePending(stateHash: string): Promise<{ companyId: number; userId: number; verifier: string; createdAt: Date } | undefined> {
      const [row] = await db.delete(lightOauthStates).where(eq(lightOauthStates.stateHash, stateHash)).returning();
      return row;
    },

    async bridge(companyId: number): Promise<BridgeRecord | undefined> {
      const [row] = await db.select().from(lightBridges).where(eq(lightBridges.companyId, companyId));
      return row;
    },

    async saveTokens(
      companyId: number,
      userId: number | null,
      tokens: { access: string; refresh: string | null; expiresAt: Date | null },
    ): Promise<void> {
      const values = {
        accessToken: tokens.access,
        refreshToken: tokens.refresh,
        expiresAt: tokens.expiresAt,
        revokedAt: null,
        lastError: null,
      };
      await db
        .insert(lightBridges)
        .values({ companyId, ...values, connectedBy: userId, connectedAt: new Date() })
        .onConflictDoUpdate({
          target: lightBridges.companyId,
          set: userId === null ? values : { ...values, connectedBy: userId, connectedAt: new Date() },
        });
    },

    async setError(companyId: number, error: string | null): Promise<void> {
      await db.update(lightBridges).set({ lastError: error }).where(eq(lightBridges.companyId, companyId));
    },

    /** The authorisation is cancelled: tokens wiped, the bulbs stay (with their bindings) for a later connection. */
    async revoke(companyId: number): Promise<void> {
      await db
        .update(lightBridges)
        .set({ accessToken: null, refreshToken: null, expiresAt: null, revokedAt: new Date(), lastError: null })
        .where(eq(lightBridges.companyId, companyId));
    },

    /** The bridge's bulbs upserted by their bridge id (names and states as reported; bindings kept). */
    async syncBulbs(companyId: number, bulbs: readonly ReportedBulb[]): Promise<void> {
      for (const b of bulbs) {
        await db
          .insert(lights)
          .values({ companyId, ...b })
          .onConflictDoUpdate({
            target: [lights.companyId, lights.bridgeLightId],
            set: {
              name: b.name,
              on: b.on,
              brightness: b.brightness,
              colorTemperature: b.colorTemperature,
              reachable: b.reachable,
              updatedAt: new Date(),
            },
          });
      }
    },

    async list(companyId: number, plantId?: number): Promise<LightRecord[]> {
      return db
        .select(lightColumns)
        .from(lights)
        .leftJoin(plants, eq(plants.id, lights.plantId))
        .where(plantId === undefined ? eq(lights.companyId, companyId) : and(eq(lights.companyId, companyId), eq(lights.plantId, plantId)))
        .orderBy(asc(lights.name), asc(lights.id));
    },

    /** A plant's bulbs, whichever company connected them (the rule engine and plant/{id}/light). */
    async ofPlant(plantId: number): Promise<LightRecord[]> {
      return db
        .select(lightColumns)
        .from(lights)
        .leftJoin(plants, eq(plants.id, lights.plantId))
        .where(eq(lights.plantId, plantId))
        .orderBy(asc(lights.name));
    },

    async byId(id: number): Promise<LightRecord | undefined> {
      const [row] = await db.select(lightColumns).from(lights).leftJoin(plants, eq(plants.id, lights.plantId)).where(eq(lights.id, id));
      return row;
    },

    async bind(id: number, plantId: number | null): Promise<void> {
      await db.update(lights).set({ plantId, updatedAt: new Date() }).where(eq(lights.id, id));
    },

    async saveState(id: number, state: { on?: boolean; brightness?: number; colorTemperature?: number }): Promise<void> {
      await db
        .update(lights)
        .set({ ...state, updatedAt: sql`now()` })
        .where(eq(lights.id, id));
    },
  };
}

export type LightRepository = ReturnType<typeof createLightRepository>;
