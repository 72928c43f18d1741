import type { SmartApp } from '@sunward/contracts/smart-home';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { companyApps, lightBridges } from '../../db/schema.js';

export interface AppRecord {
  app: string;
  enabled: boolean;
  changedAt: Date;
}

/** All SQL of the application centre. */
export function createSmartAppsRepository(db: Database) {
  return {
    async list(companyId: number): Promise<AppRecord[]> {
      return db
        .select({ app: companyApps.app, enabled: companyApps.enabled, changedAt: companyApps.changedAt })
        .from(companyApps)
        .where(eq(companyApps.companyId, companyId));
    },

    async set(companyId: number, app: SmartApp, enabled: boolean, userId: number): Promise<void> {
      await db
        .insert(companyApps)
        .values({ companyId, app, enabled, changedBy: userId })
        .onConflictDoUpdate({
          target: [companyApps.companyId, companyApps.app],
          set: { enabled, changedBy: userId, changedAt: new Date() },
        });
    },

    /** The bulb bridge's authorisation columns (undefined: never connected). */
    async bridge(companyId: number): Promise<{ connected: boolean; revoked: boolean; failed: boolean } | undefined> {
      const [row] = await db
        .select({ accessToken: lightBridges.accessToken, revokedAt: lightBridges.revokedAt, lastError: lightBridges.lastError })
        .from(lightBridges)
        .where(eq(lightBridges.companyId, companyId));
      if (!row) return undefined;
      return { connected: row.accessToken !== null, revoked: row.revokedAt !== null, failed: row.lastError === 'refused' };
    },
  };
}

export type SmartAppsRepository = ReturnType<typeof createSmartAppsRepository>;
