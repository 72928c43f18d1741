import { and, asc, count, eq, ilike, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { companies, companyApps, companyCustomers, videoChannels, videoDevices, videoGrants, videoSpaces } from '../../db/schema.js';

export interface SpaceRecord {
  id: number;
  companyId: number;
  name: string;
  customerId: number | null;
  customerName: string | null;
  storageGb: number;
  active: boolean;
  deviceCount: number;
  createdAt: Date;
}

export interface DeviceRecord {
  id: number;
  spaceId: number;
  companyId: number;
  name: string;
  sipId: string;
  passwordSealed: string;
  enabled: boolean;
  online: boolean;
  spaceActive: boolean;
  remoteAddress: string | null;
  manufacturer: string | null;
  model: string | null;
  registeredAt: Date | null;
  expiresAt: Date | null;
  lastKeepaliveAt: Date | null;
  createdAt: Date;
  channelCount: number;
}

export interface ChannelRecord {
  gbId: string;
  name: string;
  status: string;
  manufacturer: string | null;
  model: string | null;
  updatedAt: Date;
}

/** Refusals a locked write finds (the service turns them into codes; nothing was written). */
export type SpaceInsertOutcome = { ok: true; id: number } | { ok: false; reason: 'spaces_max' | 'customer_has_space' };
export type DeviceInsertOutcome = { ok: true; id: number } | { ok: false; reason: 'devices_max' | 'sip_id_exists' | 'space_gone' };

const spaceColumns = {
  id: videoSpaces.id,
  companyId: videoSpaces.companyId,
  name: videoSpaces.name,
  customerId: videoSpaces.customerId,
  customerName: companyCustomers.name,
  storageGb: videoSpaces.storageGb,
  active: videoSpaces.active,
  deviceCount: sql<number>`(select count(*) from ${videoDevices} where ${videoDevices.spaceId} = ${videoSpaces.id})::int`.mapWith(Number),
  createdAt: videoSpaces.createdAt,
};

const deviceColumns = {
  id: videoDevices.id,
  spaceId: videoDevices.spaceId,
  companyId: videoDevices.companyId,
  name: videoDevices.name,
  sipId: videoDevices.sipId,
  passwordSealed: videoDevices.passwordSealed,
  enabled: videoDevices.enabled,
  online: videoDevices.online,
  spaceActive: videoSpaces.active,
  remoteAddress: videoDevices.remoteAddress,
  manufacturer: videoDevices.manufacturer,
  model: videoDevices.model,
  registeredAt: videoDevices.registeredAt,
  expiresAt: videoDevices.expiresAt,
  lastKeepaliveAt: videoDevices.lastKeepaliveAt,
  createdAt: videoDevices.createdAt,
  channelCount: sql<number>`(select count(*) from ${videoChannels} where ${videoChannels.deviceId} = ${videoDevices.id})::int`.mapWith(
    Number,
  ),
};

/**
 * Whose spaces a read reaches: a company's own accounts reach all the company's spaces; a customer (an account of
 * no company, linked to companies in company_customers) reaches only the space assigned to them, and only while
 * that company enabled the camera app with the platform administrator's grant (the app gate's rule).
 */
export type VideoScope = { kind: 'company'; companyId: number } | { kind: 'customer'; userId: number };

/** The spaces a scope reaches, as a condition on video_spaces (joined in every read). */
function spacesOf(scope: VideoScope) {
  if (scope.kind === 'company') return eq(videoSpaces.companyId, scope.companyId);
  return sql`${videoSpaces.customerId} in (select ${companyCustomers.id} from ${companyCustomers} where ${companyCustomers.userId} = ${scope.userId}
    and exists (select 1 from ${companyApps} where ${companyApps.companyId} = ${companyCustomers.companyId} and ${companyApps.app} = 'camera' and ${companyApps.enabled})
    and exists (select 1 from ${videoGrants} where ${videoGrants.companyId} = ${companyCustomers.companyId}))`;
}

/** All SQL of video surveillance (issue 23). Every read by id is scoped (VideoScope): another's is "not found". */
export function createVideoRepository(db: Database) {
  return {
    /** The companies an account is a customer of (the camera app's gate asks each whether it enabled the app). */
    async servingCompanies(userId: number): Promise<number[]> {
      const rows = await db
        .select({ companyId: companyCustomers.companyId })
        .from(companyCustomers)
        .where(eq(companyCustomers.userId, userId));
      return rows.map((r) => r.companyId);
    },
    async isGranted(companyId: number): Promise<boolean> {
      const [row] = await db.select({ id: videoGrants.companyId }).from(videoGrants).where(eq(videoGrants.companyId, companyId));
      return row !== undefined;
    },
    async setGrant(companyId: number, granted: boolean, userId: number): Promise<void> {
      if (granted) await db.insert(videoGrants).values({ companyId, grantedBy: userId }).onConflictDoNothing();
      else await db.delete(videoGrants).where(eq(videoGrants.companyId, companyId));
    },
    async companyIdByName(name: string): Promise<number | undefined> {
      const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.name, name));
      return row?.id;
    },
    /** The demo company's grant and camera app (demo-cameras.ts), each once. */
    async provisionDemoGrant(companyId: number): Promise<void> {
      await db.insert(videoGrants).values({ companyId }).onConflictDoNothing();
      await db.insert(companyApps).values({ companyId, app: 'camera', enabled: true }).onConflictDoNothing();
    },
    async companyName(companyId: number): Promise<string | undefined> {
      const [row] = await db.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId));
      return row?.name;
    },
    /** Every company with its grant (the platform administrator's list). */
    async grants(page: number, size: number, name: string | undefined) {
      const where = name ? ilike(companies.name, `%${name.replace(/[%_\\]/g, '\\$&')}%`) : undefined;
      const rows = await db
        .select({ companyId: companies.id, companyName: companies.name, grantedAt: videoGrants.grantedAt })
        .from(companies)
        .leftJoin(videoGrants, eq(videoGrants.companyId, companies.id))
        .where(where)
        .orderBy(asc(companies.name))
        .limit(size)
        .offset((page - 1) * size);
      const [total] = await db.select({ n: count() }).from(companies).where(where);
      return { rows, total: total?.n ?? 0 };
    },

    async customerOf(companyId: number, customerId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: companyCustomers.id })
        .from(companyCustomers)
        .where(and(eq(companyCustomers.id, customerId), eq(companyCustomers.companyId, companyId)));
      return row !== undefined;
    },

    async spaces(scope: VideoScope, page: number, size: number, name: string | undefined): Promise<{ rows: SpaceRecord[]; total: number }> {
      const where = and(spacesOf(scope), name ? ilike(videoSpaces.name, `%${name.replace(/[%_\\]/g, '\\$&')}%`) : undefined);
      const rows = await db
        .select(spaceColumns)
        .from(videoSpaces)
        .leftJoin(companyCustomers, eq(companyCustomers.id, videoSpaces.customerId))
        .where(where)
        .orderBy(asc(videoSpaces.id))
        .limit(size)
        .offset((page - 1) * size);
      const [total] = await db.select({ n: count() }).from(videoSpaces).where(where);
      return { rows, total: total?.n ?? 0 };
    },
    async space(scope: VideoScope, id: number): Promise<SpaceRecord | undefined> {
      const [row] = await db
        .select(spaceColumns)
        .from(videoSpaces)
        .leftJoin(companyCustomers, eq(companyCustomers.id, videoSpaces.customerId))
        .where(and(eq(videoSpaces.id, id), spacesOf(scope)));
      return row;
    },
    /**
     * Creates a space under the company's row lock, so two parallel creations cannot both pass the limit of
     * `max` spaces or give one customer two spaces (the unique index backs the latter).
     */
    async insertSpace(
      input: { companyId: number; name: string; customerId: number | null; storageGb: number },
      max: number,
    ): Promise<SpaceInsertOutcome> {
      return db.transaction(async (tx) => {
        await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, input.companyId)).for('update');
        const [n] = await tx.select({ n: count() }).from(videoSpaces).where(eq(videoSpaces.companyId, input.companyId));
        if ((n?.n ?? 0) >= max) return { ok: false, reason: 'spaces_max' } as const;
        if (input.customerId !== null) {
          const [taken] = await tx.select({ id: videoSpaces.id }).from(videoSpaces).where(eq(videoSpaces.customerId, input.customerId));
          if (taken) return { ok: false, reason: 'customer_has_space' } as const;
        }
        const [row] = await tx.insert(videoSpaces).values(input).returning({ id: videoSpaces.id });
        if (!row) throw new Error('insert returned nothing');
        return { ok: true, id: row.id } as const;
      });
    },
    async updateSpace(companyId: number, id: number, values: { name?: string; storageGb?: number; active?: boolean }): Promise<boolean> {
      const rows = await db
        .update(videoSpaces)
        .set(values)
        .where(and(eq(videoSpaces.id, id), eq(videoSpaces.companyId, companyId)))
        .returning({ id: videoSpaces.id });
      return rows.length > 0;
    },
    async deleteSpace(companyId: number, id: number): Promise<boolean> {
      const rows = await db
        .delete(videoSpaces)
        .where(and(eq(videoSpaces.id, id), eq(videoSpaces.companyId, companyId)))
        .returning({ id: videoSpaces.id });
      return rows.length > 0;
    },
    /** The SIP IDs of a space's cameras (deactivating it ends their registrations and streams). */
    async spaceSipIds(spaceId: number): Promise<string[]> {
      const rows = await db.select({ sipId: videoDevices.sipId }).from(videoDevices).where(eq(videoDevices.spaceId, spaceId));
      return rows.map((r) => r.sipId);
    },

    async devices(scope: VideoScope, spaceId: number, page: number, size: number): Promise<{ rows: DeviceRecord[]; total: number }> {
      const where = and(spacesOf(scope), eq(videoDevices.spaceId, spaceId));
      const rows = await db
        .select(deviceColumns)
        .from(videoDevices)
        .innerJoin(videoSpaces, eq(videoSpaces.id, videoDevices.spaceId))
        .where(where)
        .orderBy(asc(videoDevices.id))
        .limit(size)
        .offset((page - 1) * size);
      const [total] = await db
        .select({ n: count() })
        .from(videoDevices)
        .innerJoin(videoSpaces, eq(videoSpaces.id, videoDevices.spaceId))
        .where(where);
      return { rows, total: total?.n ?? 0 };
    },
    async device(scope: VideoScope, id: number): Promise<DeviceRecord | undefined> {
      const [row] = await db
        .select(deviceColumns)
        .from(videoDevices)
        .innerJoin(videoSpaces, eq(videoSpaces.id, videoDevices.spaceId))
        .where(and(eq(videoDevices.id, id), spacesOf(scope)));
      return row;
    },
    async deviceBySipId(sipId: string): Promise<DeviceRecord | undefined> {
      const [row] = await db
        .select(deviceColumns)
        .from(videoDevices)
        .innerJoin(videoSpaces, eq(videoSpaces.id, videoDevices.spaceId))
        .where(eq(videoDevices.sipId, sipId));
      return row;
    },
    /** Adds a camera under the space's row lock (at most `max` per space); a taken SIP ID is refused, nothing written. */
    async insertDevice(
      input: { spaceId: number; companyId: number; name: string; sipId: string; passwordSealed: string },
      max: number,
    ): Promise<DeviceInsertOutcome> {
      return db.transaction(async (tx) => {
        const locked = await tx
          .select({ id: videoSpaces.id })
          .from(videoSpaces)
          .where(and(eq(videoSpaces.id, input.spaceId), eq(videoSpaces.companyId, input.companyId)))
          .for('update');
        if (locked.length === 0) return { ok: false, reason: 'space_gone' } as const;
        const [n] = await tx.select({ n: count() }).from(videoDevices).where(eq(videoDevices.spaceId, input.spaceId));
        if ((n?.n ?? 0) >= max) return { ok: false, reason: 'devices_max' } as const;
        const [taken] = await tx.select({ id: videoDevices.id }).from(videoDevices).where(eq(videoDevices.sipId, input.sipId));
        if (taken) return { ok: false, reason: 'sip_id_exists' } as const;
        const [row] = await tx.insert(videoDevices).values(input).onConflictDoNothing().returning({ id: videoDevices.id });
        if (!row) return { ok: false, reason: 'sip_id_exists' } as const;
        return { ok: true, id: row.id } as const;
      });
    },
    async updateDevice(
      companyId: number,
      id: number,
      values: { name?: string; passwordSealed?: string; enabled?: boolean; online?: boolean },
    ): Promise<boolean> {
      const rows = await db
        .update(videoDevices)
        .set(values)
        .where(and(eq(videoDevices.id, id), eq(videoDevices.companyId, companyId)))
        .returning({ id: videoDevices.id });
      return rows.length > 0;
    },
    async deleteDevice(companyId: number, id: number): Promise<boolean> {
      const rows = await db
        .delete(videoDevices)
        .where(and(eq(videoDevices.id, id), eq(videoDevices.companyId, companyId)))
        .returning({ id: videoDevices.id });
      return rows.length > 0;
    },

    async registered(sipId: string, remote: string, at: Date, expiresAt: Date): Promise<void> {
      await db
        .update(videoDevices)
        .set({ online: true, remoteAddress: remote, registeredAt: at, expiresAt, lastKeepaliveAt: at })
        .where(eq(videoDevices.sipId, sipId));
    },
    async unregistered(sipId: string): Promise<void> {
      await db.update(videoDevices).set({ online: false, expiresAt: null }).where(eq(videoDevices.sipId, sipId));
    },
    /**
     * A keepalive of a registered, enabled camera whose registration has not run out; false when none. The address
     * requests go to stays the registration's (a keepalive may come from another port than the camera listens on).
     */
    async keepalive(sipId: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(videoDevices)
        .set({ online: true, lastKeepaliveAt: at })
        .where(
          and(
            eq(videoDevices.sipId, sipId),
            eq(videoDevices.enabled, true),
            sql`${videoDevices.expiresAt} > ${at.toISOString()}::timestamptz`,
            sql`exists (select 1 from ${videoSpaces} where ${videoSpaces.id} = ${videoDevices.spaceId} and ${videoSpaces.active})`,
          ),
        )
        .returning({ id: videoDevices.id });
      return rows.length > 0;
    },
    /** The sweep: cameras whose registration ran out or whose keepalives stopped go inactive; their SIP IDs. */
    async sweepInactive(at: Date, keepaliveBefore: Date): Promise<string[]> {
      const rows = await db
        .update(videoDevices)
        .set({ online: false })
        .where(
          and(
            eq(videoDevices.online, true),
            sql`(${videoDevices.expiresAt} is null or ${videoDevices.expiresAt} <= ${at.toISOString()}::timestamptz or ${lt(videoDevices.lastKeepaliveAt, keepaliveBefore)})`,
          ),
        )
        .returning({ sipId: videoDevices.sipId });
      return rows.map((r) => r.sipId);
    },
    async setOffline(sipIds: string[]): Promise<void> {
      if (sipIds.length === 0) return;
      await db.update(videoDevices).set({ online: false }).where(inArray(videoDevices.sipId, sipIds));
    },

    async channels(deviceId: number): Promise<ChannelRecord[]> {
      return db
        .select({
          gbId: videoChannels.gbId,
          name: videoChannels.name,
          status: videoChannels.status,
          manufacturer: videoChannels.manufacturer,
          model: videoChannels.model,
          updatedAt: videoChannels.updatedAt,
        })
        .from(videoChannels)
        .where(eq(videoChannels.deviceId, deviceId))
        .orderBy(asc(videoChannels.gbId));
    },
    /** A catalog answer replaces the camera's channels in one transaction. */
    async replaceChannels(
      sipId: string,
      items: ReadonlyArray<{ gbId: string; name: string; status: string; manufacturer: string | null; model: string | null }>,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const [device] = await tx.select({ id: videoDevices.id }).from(videoDevices).where(eq(videoDevices.sipId, sipId));
        if (!device) return;
        const ids = items.map((i) => i.gbId);
        await tx
          .delete(videoChannels)
          .where(and(eq(videoChannels.deviceId, device.id), ids.length > 0 ? notInArray(videoChannels.gbId, ids) : undefined));
        if (items.length === 0) return;
        const at = new Date();
        await tx
          .insert(videoChannels)
          .values(items.map((i) => ({ ...i, deviceId: device.id, updatedAt: at })))
          .onConflictDoUpdate({
            target: [videoChannels.deviceId, videoChannels.gbId],
            set: {
              name: sql`excluded.name`,
              status: sql`excluded.status`,
              manufacturer: sql`excluded.manufacturer`,
              model: sql`excluded.model`,
              updatedAt: sql`excluded.updated_at`,
            },
          });
        const first = items[0];
        if (first)
          await tx
            .update(videoDevices)
            .set({ manufacturer: first.manufacturer, model: first.model })
            .where(and(eq(videoDevices.id, device.id), sql`${videoDevices.manufacturer} is null`));
      });
    },
  };
}

export type VideoRepository = ReturnType<typeof createVideoRepository>;
