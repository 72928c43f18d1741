import type { ProtocolContent } from '@sunward/contracts/protocols';
import { and, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows } from '../../db/rows.js';
import {
  deviceProtocolSwitches,
  deviceRealtime,
  devices,
  protocolScripts,
  protocols,
  protocolVersions,
  readings,
  users,
} from '../../db/schema.js';
import { LATEST_VALUES } from '../../ingest/telemetry-query.repository.js';
import type { AuthContext } from '../../plugins/auth.js';
import { deviceVisibleCondition } from '../devices/device-access.js';

/** What a version row's JSON holds: the content and the storage order of its numeric points. */
export interface StoredDefinition extends ProtocolContent {
  storageOrder: string[];
}

export interface ProtocolRecord {
  id: number;
  identifier: string;
  code: string;
  name: string;
  manufacturer: string;
  family: string;
  enabled: boolean;
  builtIn: boolean;
  currentVersion: number;
  creator: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface VersionRecord {
  version: number;
  protocolVersion: string;
  configurationVersion: string;
  definition: StoredDefinition;
  note: string | null;
  creator: string | null;
  createdAt: Date;
}

export interface ScriptRecord {
  id: number;
  protocolId: number;
  configurationVersion: string;
  language: string;
  source: string;
  creator: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewVersion {
  protocolVersion: string;
  configurationVersion: string;
  definition: StoredDefinition;
  note: string | null;
  createdBy: number | null;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** All SQL of protocols and their versions (spec 02 §3 Protocol, issue 19). */
export function createProtocolsRepository(db: Database) {
  /** A protocol's own columns; with its creator's account for lists and details. */
  const ownColumns = {
    id: protocols.id,
    identifier: protocols.identifier,
    code: protocols.code,
    name: protocols.name,
    manufacturer: protocols.manufacturer,
    family: protocols.family,
    enabled: protocols.enabled,
    builtIn: protocols.builtIn,
    currentVersion: protocols.currentVersion,
    createdAt: protocols.createdAt,
    updatedAt: protocols.updatedAt,
  };
  const protocolColumns = { ...ownColumns, creator: users.account };

  function listWhere(query: { keyword?: string; family?: string; enabled?: boolean }): SQL | undefined {
    const keyword = query.keyword ? `%${escapeLike(query.keyword)}%` : undefined;
    return and(
      keyword
        ? or(
            ilike(protocols.name, keyword),
            ilike(protocols.code, keyword),
            ilike(protocols.identifier, keyword),
            ilike(protocols.manufacturer, keyword),
          )
        : undefined,
      query.family ? eq(protocols.family, query.family) : undefined,
      query.enabled === undefined ? undefined : eq(protocols.enabled, query.enabled),
    );
  }

  return {
    async page(query: {
      keyword?: string;
      family?: string;
      enabled?: boolean;
      page: number;
      size: number;
    }): Promise<{ rows: (ProtocolRecord & VersionRecord & { devices: number })[]; total: number }> {
      const where = listWhere(query);
      const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(protocols).where(where);
      const rows = await db
        .select({
          ...protocolColumns,
          version: protocolVersions.version,
          protocolVersion: protocolVersions.protocolVersion,
          configurationVersion: protocolVersions.configurationVersion,
          definition: protocolVersions.definition,
          note: protocolVersions.note,
          devices: sql<number>`(select count(*)::int from ${devices} d where d.protocol_id = ${protocols.identifier})`,
        })
        .from(protocols)
        .innerJoin(
          protocolVersions,
          and(eq(protocolVersions.protocolId, protocols.id), eq(protocolVersions.version, protocols.currentVersion)),
        )
        .leftJoin(users, eq(users.id, protocols.createdBy))
        .where(where)
        .orderBy(desc(protocols.updatedAt), protocols.id)
        .limit(query.size)
        .offset((query.page - 1) * query.size);
      return {
        rows: rows.map((r) => ({ ...r, definition: r.definition as StoredDefinition })),
        total: count?.total ?? 0,
      };
    },

    async byId(id: number): Promise<(ProtocolRecord & { devices: number }) | undefined> {
      const [row] = await db
        .select({
          ...protocolColumns,
          devices: sql<number>`(select count(*)::int from ${devices} d where d.protocol_id = ${protocols.identifier})`,
        })
        .from(protocols)
        .leftJoin(users, eq(users.id, protocols.createdBy))
        .where(eq(protocols.id, id));
      return row;
    },

    async versions(protocolId: number): Promise<VersionRecord[]> {
      const rows = await db
        .select({
          version: protocolVersions.version,
          protocolVersion: protocolVersions.protocolVersion,
          configurationVersion: protocolVersions.configurationVersion,
          definition: protocolVersions.definition,
          note: protocolVersions.note,
          creator: users.account,
          createdAt: protocolVersions.createdAt,
        })
        .from(protocolVersions)
        .leftJoin(users, eq(users.id, protocolVersions.createdBy))
        .where(eq(protocolVersions.protocolId, protocolId))
        .orderBy(desc(protocolVersions.version));
      return rows.map((r) => ({ ...r, definition: r.definition as StoredDefinition }));
    },

    /** Identifier, enabled flag, version and definition of every protocol's current version (the decoder's maps). */
    async current(): Promise<
      {
        identifier: string;
        family: string;
        manufacturer: string;
        enabled: boolean;
        version: number;
        protocolVersion: string;
        definition: StoredDefinition;
      }[]
    > {
      const rows = await db
        .select({
          identifier: protocols.identifier,
          family: protocols.family,
          manufacturer: protocols.manufacturer,
          enabled: protocols.enabled,
          version: protocolVersions.version,
          protocolVersion: protocolVersions.protocolVersion,
          definition: protocolVersions.definition,
        })
        .from(protocols)
        .innerJoin(
          protocolVersions,
          and(eq(protocolVersions.protocolId, protocols.id), eq(protocolVersions.version, protocols.currentVersion)),
        );
      return rows.map((r) => ({ ...r, definition: r.definition as StoredDefinition }));
    },

    /** A stamp that changes whenever any protocol does (other server processes poll it). */
    async stamp(): Promise<string> {
      const [row] = await db
        .select({ stamp: sql<string>`coalesce(max(${protocols.updatedAt})::text, '') || ':' || count(*)::text` })
        .from(protocols);
      return row?.stamp ?? '';
    },

    async identifiers(): Promise<Set<string>> {
      return new Set((await db.select({ identifier: protocols.identifier }).from(protocols)).map((r) => r.identifier));
    },

    async findClash(identifier: string, code: string, exceptId?: number): Promise<'identifier' | 'code' | null> {
      const rows = await db
        .select({ id: protocols.id, identifier: protocols.identifier, code: protocols.code })
        .from(protocols)
        .where(or(eq(protocols.identifier, identifier), sql`lower(${protocols.code}) = lower(${code})`));
      for (const r of rows) {
        if (r.id === exceptId) continue;
        if (r.identifier === identifier) return 'identifier';
        return 'code';
      }
      return null;
    },

    /** A protocol with its first version, in one transaction. */
    async create(
      fields: { identifier: string; code: string; name: string; manufacturer: string; family: string; builtIn: boolean },
      first: NewVersion,
    ): Promise<number> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(protocols)
          .values({ ...fields, currentVersion: 1, createdBy: first.createdBy })
          .returning({ id: protocols.id });
        if (!row) throw new Error('protocol not inserted');
        await tx.insert(protocolVersions).values({ protocolId: row.id, version: 1, ...first });
        await tx.update(devices).set({ protocolVersion: 1 }).where(eq(devices.protocolId, fields.identifier));
        return row.id;
      });
    },

    /**
     * A new version that becomes current, unless another was added since `baseVersion` (null then). Locks
     * the protocol row so two editors cannot both add the same number. Devices on it record the version.
     */
    async addVersion(
      id: number,
      fields: { code: string; name: string; manufacturer: string; family: string },
      version: NewVersion,
      baseVersion: number | undefined,
    ): Promise<number | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ current: protocols.currentVersion, identifier: protocols.identifier })
          .from(protocols)
          .where(eq(protocols.id, id))
          .for('update');
        if (!row) return null;
        if (baseVersion !== undefined && baseVersion !== row.current) return null;
        const [top] = await tx
          .select({ max: sql<number>`coalesce(max(${protocolVersions.version}), 0)::int` })
          .from(protocolVersions)
          .where(eq(protocolVersions.protocolId, id));
        const next = (top?.max ?? 0) + 1;
        await tx.insert(protocolVersions).values({ protocolId: id, version: next, ...version });
        await tx
          .update(protocols)
          .set({ ...fields, currentVersion: next, updatedAt: new Date() })
          .where(eq(protocols.id, id));
        await tx.update(devices).set({ protocolVersion: next }).where(eq(devices.protocolId, row.identifier));
        return next;
      });
    },

    async setEnabled(id: number, enabled: boolean): Promise<boolean> {
      const rows = await db
        .update(protocols)
        .set({ enabled, updatedAt: new Date() })
        .where(eq(protocols.id, id))
        .returning({ id: protocols.id });
      return rows.length > 0;
    },

    /** Deletes the protocol when no device uses it (checked in the same statement): 'in_use' otherwise. */
    async remove(id: number): Promise<'deleted' | 'in_use' | 'missing'> {
      return db.transaction(async (tx) => {
        const [row] = await tx.select({ identifier: protocols.identifier }).from(protocols).where(eq(protocols.id, id)).for('update');
        if (!row) return 'missing';
        const [used] = await tx.select({ n: sql<number>`count(*)::int` }).from(devices).where(eq(devices.protocolId, row.identifier));
        if ((used?.n ?? 0) > 0) return 'in_use';
        await tx.delete(protocols).where(eq(protocols.id, id));
        return 'deleted';
      });
    },

    /** A protocol's scripts, by configuration version. */
    async scripts(protocolId: number): Promise<ScriptRecord[]> {
      return db
        .select({
          id: protocolScripts.id,
          protocolId: protocolScripts.protocolId,
          configurationVersion: protocolScripts.configurationVersion,
          language: protocolScripts.language,
          source: protocolScripts.source,
          creator: users.account,
          createdAt: protocolScripts.createdAt,
          updatedAt: protocolScripts.updatedAt,
        })
        .from(protocolScripts)
        .leftJoin(users, eq(users.id, protocolScripts.createdBy))
        .where(eq(protocolScripts.protocolId, protocolId))
        .orderBy(protocolScripts.configurationVersion);
    },

    /**
     * Adds a script; null when the configuration version already has one (the unique index decides, so two
     * administrators adding at once cannot both succeed). Touches the protocol so other processes reload.
     */
    async addScript(
      protocolId: number,
      script: { configurationVersion: string; language: string; source: string; createdBy: number | null },
    ): Promise<number | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(protocolScripts)
          .values({ protocolId, ...script })
          .onConflictDoNothing()
          .returning({ id: protocolScripts.id });
        if (!row) return null;
        await tx.update(protocols).set({ updatedAt: new Date() }).where(eq(protocols.id, protocolId));
        return row.id;
      });
    },

    async updateScript(protocolId: number, scriptId: number, source: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(protocolScripts)
          .set({ source, updatedAt: new Date() })
          .where(and(eq(protocolScripts.id, scriptId), eq(protocolScripts.protocolId, protocolId)))
          .returning({ id: protocolScripts.id });
        if (rows.length === 0) return false;
        await tx.update(protocols).set({ updatedAt: new Date() }).where(eq(protocols.id, protocolId));
        return true;
      });
    },

    async removeScript(protocolId: number, scriptId: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .delete(protocolScripts)
          .where(and(eq(protocolScripts.id, scriptId), eq(protocolScripts.protocolId, protocolId)))
          .returning({ id: protocolScripts.id });
        if (rows.length === 0) return false;
        await tx.update(protocols).set({ updatedAt: new Date() }).where(eq(protocols.id, protocolId));
        return true;
      });
    },

    /** The script of each protocol's current configuration version (what the decoder runs), by identifier. */
    async currentScripts(): Promise<Map<string, string>> {
      const rows = await db
        .select({ identifier: protocols.identifier, source: protocolScripts.source })
        .from(protocols)
        .innerJoin(
          protocolVersions,
          and(eq(protocolVersions.protocolId, protocols.id), eq(protocolVersions.version, protocols.currentVersion)),
        )
        .innerJoin(
          protocolScripts,
          and(
            eq(protocolScripts.protocolId, protocols.id),
            eq(protocolScripts.configurationVersion, protocolVersions.configurationVersion),
          ),
        );
      return new Map(rows.map((r) => [r.identifier, r.source]));
    },

    /** Every version of every built-in protocol, with the protocol's fields (the seed compares the shipped maps). */
    async builtInVersions(): Promise<
      {
        id: number;
        identifier: string;
        code: string;
        name: string;
        manufacturer: string;
        family: string;
        currentVersion: number;
        version: number;
        protocolVersion: string;
        configurationVersion: string;
        definition: StoredDefinition;
      }[]
    > {
      const rows = await db
        .select({
          id: protocols.id,
          identifier: protocols.identifier,
          code: protocols.code,
          name: protocols.name,
          manufacturer: protocols.manufacturer,
          family: protocols.family,
          currentVersion: protocols.currentVersion,
          version: protocolVersions.version,
          protocolVersion: protocolVersions.protocolVersion,
          configurationVersion: protocolVersions.configurationVersion,
          definition: protocolVersions.definition,
        })
        .from(protocols)
        .innerJoin(protocolVersions, eq(protocolVersions.protocolId, protocols.id))
        .where(eq(protocols.builtIn, true))
        .orderBy(protocols.id, protocolVersions.version);
      return rows.map((r) => ({ ...r, definition: r.definition as StoredDefinition }));
    },

    /**
     * A device the caller sees, with its protocol's stored version decoding it (the recorded one, else the
     * current) and its latest reading's values in that protocol's storage order (null before any reading).
     */
    async switchDevice(
      auth: AuthContext,
      sn: string,
    ): Promise<
      | {
          id: number;
          sn: string;
          plantId: number | null;
          family: string;
          protocolId: string;
          version: number | null;
          readingAt: Date | null;
          values: number[] | null;
        }
      | undefined
    > {
      const [row] = await sqlRows(
        db,
        {
          id: devices.id,
          sn: devices.sn,
          plant_id: devices.plantId,
          family: devices.family,
          protocol_id: devices.protocolId,
          protocol_version: devices.protocolVersion,
          ts: nullable(deviceRealtime.ts),
          values: nullable(readings.values),
        },
        sql`select d.id, d.sn, d.plant_id, d.family, d.protocol_id, d.protocol_version, r.ts,
                   case when r.device_id is null then null else ${LATEST_VALUES} end as values
            from devices d left join device_realtime r on r.device_id = d.id
            where lower(d.sn) = lower(${sn}) and ${deviceVisibleCondition(auth)}`,
      );
      if (!row) return undefined;
      return {
        id: row.id,
        sn: row.sn,
        plantId: row.plant_id,
        family: row.family,
        protocolId: row.protocol_id,
        version: row.protocol_version,
        readingAt: row.ts,
        values: row.values,
      };
    },

    /** A protocol by its identifier or id, with one stored version (the current one unless `version` names another). */
    async protocolVersion(
      by: { identifier: string } | { id: number },
      version?: number | null,
    ): Promise<(Omit<ProtocolRecord, 'creator'> & { version: number; protocolVersion: string; definition: StoredDefinition }) | undefined> {
      const [row] = await db
        .select({
          ...ownColumns,
          version: protocolVersions.version,
          protocolVersion: protocolVersions.protocolVersion,
          definition: protocolVersions.definition,
        })
        .from(protocols)
        .innerJoin(
          protocolVersions,
          and(
            eq(protocolVersions.protocolId, protocols.id),
            version ? eq(protocolVersions.version, version) : eq(protocolVersions.version, protocols.currentVersion),
          ),
        )
        .where('identifier' in by ? eq(protocols.identifier, by.identifier) : eq(protocols.id, by.id));
      return row && { ...row, definition: row.definition as StoredDefinition };
    },

    /**
     * Moves a device to another protocol's current version, only while it is still on `fromIdentifier` and the
     * protocol is enabled (both checked in the statement); the new version, or null when nothing changed.
     */
    /**
     * Moves a device to another protocol's current version and carries its history over, in one transaction:
     * the raw readings are kept as they were (readings_before_switch), then the readings, 5-minute and hourly
     * averages are rewritten into the new storage order (`mapping`: 1-based old index per new point, null for a
     * point the old protocol lacks, stored NaN). Null when the device or protocol changed since they were read.
     */
    async moveDevice(input: {
      deviceId: number;
      userId: number | null;
      from: { identifier: string; version: number; order: readonly string[] };
      to: { id: number; identifier: string; version: number; order: readonly string[] };
      mapping: readonly (number | null)[];
    }): Promise<{ identifier: string; version: number; readings: number } | null> {
      const { deviceId, from, to } = input;
      // Each new slot from its old one; a missing or absent old value (an array written before the point
      // existed) stays NaN, as an absent point is stored.
      const slots = input.mapping.map((i) => (i === null ? sql`'NaN'::float8` : sql`coalesce(values[${sql.raw(String(i))}], 'NaN')`));
      const rewritten = slots.length === 0 ? sql`'{}'::float8[]` : sql`array[${sql.join(slots, sql`, `)}]::float8[]`;
      return db.transaction(async (tx) => {
        const [row] = await sqlRows(
          tx,
          { protocol_id: devices.protocolId, protocol_version: devices.protocolVersion },
          sql`update devices d set protocol_id = p.identifier, protocol_version = p.current_version
              from protocols p
              where d.id = ${deviceId} and d.protocol_id = ${from.identifier} and p.id = ${to.id} and p.enabled
                and p.current_version = ${to.version}
              returning d.protocol_id, d.protocol_version`,
        );
        if (row?.protocol_version == null) return null;
        const [record] = await tx
          .insert(deviceProtocolSwitches)
          .values({
            deviceId,
            userId: input.userId,
            fromProtocol: from.identifier,
            fromVersion: from.version,
            fromOrder: [...from.order],
            toProtocol: to.identifier,
            toVersion: to.version,
            toOrder: [...to.order],
            readings: 0,
          })
          .returning({ id: deviceProtocolSwitches.id });
        if (!record) return null;
        await tx.execute(
          sql`insert into readings_before_switch (switch_id, ts, values)
              select ${record.id}, ts, values from readings where device_id = ${deviceId}`,
        );
        const [count] = await sqlRows(
          tx,
          { n: computed.number },
          sql`with moved as (update readings set values = ${rewritten} where device_id = ${deviceId} returning 1)
              select count(*)::int as n from moved`,
        );
        const readingsCarried = count?.n ?? 0;
        await tx.execute(sql`update readings_5m set values = ${rewritten} where device_id = ${deviceId}`);
        await tx.execute(sql`update readings_hourly set values = ${rewritten} where device_id = ${deviceId}`);
        await tx.update(deviceProtocolSwitches).set({ readings: readingsCarried }).where(eq(deviceProtocolSwitches.id, record.id));
        return { identifier: row.protocol_id, version: row.protocol_version, readings: readingsCarried };
      });
    },

    /** The protocol's device that reported last, with that reading's values (storage order); undefined when none has. */
    async latestDeviceOf(identifier: string): Promise<{ sn: string; readingAt: Date; values: number[] } | undefined> {
      const [row] = await sqlRows(
        db,
        { sn: devices.sn, ts: deviceRealtime.ts, values: readings.values },
        sql`select d.sn, r.ts, ${LATEST_VALUES} as values
            from devices d join device_realtime r on r.device_id = d.id
            where d.protocol_id = ${identifier}
            order by r.ts desc limit 1`,
      );
      return row && { sn: row.sn, readingAt: row.ts, values: row.values };
    },

    /** Devices without a recorded decoding version get their protocol's current one (after seeding). */
    async recordDeviceVersions(): Promise<void> {
      await db.execute(sql`
        update devices d set protocol_version = p.current_version
        from protocols p where p.identifier = d.protocol_id and d.protocol_version is null`);
    },
  };
}

export type ProtocolsRepository = ReturnType<typeof createProtocolsRepository>;
