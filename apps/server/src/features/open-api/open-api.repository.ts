import type { ApiKeyAccess, ApiKeyScope, WebhookDeliveryState, WebhookEvent } from '@sunward/contracts/open-api';
import { and, asc, count, desc, eq, gt, inArray, isNull, lte } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { apiKeys, deviceCommands, devices, plants, users, webhookDeliveries, webhooks } from '../../db/schema.js';
import { type CredentialCreator, credentialQueries } from '../../lib/scoped-credentials.js';

export interface ApiKeyRecord {
  id: number;
  name: string;
  prefix: string;
  createdBy: number;
  createdByAccount: string;
  companyId: number | null;
  scope: ApiKeyScope;
  plantIds: number[];
  access: ApiKeyAccess;
  quotaPerMinute: number;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** The creator as a key acts for them at each use (their role and company now, not at creation). */
export type KeyCreator = CredentialCreator;

export interface WebhookRecord {
  id: number;
  companyId: number;
  url: string;
  secret: string;
  events: WebhookEvent[];
  createdAt: Date;
}

export interface DeliveryRecord {
  id: number;
  webhookId: number;
  eventId: string;
  eventType: WebhookEvent;
  payload: unknown;
  status: WebhookDeliveryState;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  createdAt: Date;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
}

const KEY_COLUMNS = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  createdBy: apiKeys.createdBy,
  createdByAccount: users.account,
  companyId: apiKeys.companyId,
  scope: apiKeys.scope,
  plantIds: apiKeys.plantIds,
  access: apiKeys.access,
  quotaPerMinute: apiKeys.quotaPerMinute,
  createdAt: apiKeys.createdAt,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
};

const asKey = (r: Omit<ApiKeyRecord, 'scope' | 'access'> & { scope: string; access: string }): ApiKeyRecord => ({
  ...r,
  scope: r.scope === 'all' ? 'all' : 'plants',
  access: r.access === 'operator' ? 'operator' : 'read',
});

const WEBHOOK_COLUMNS = {
  id: webhooks.id,
  companyId: webhooks.companyId,
  url: webhooks.url,
  secret: webhooks.secret,
  events: webhooks.events,
  createdAt: webhooks.createdAt,
};

const DELIVERY_COLUMNS = {
  id: webhookDeliveries.id,
  webhookId: webhookDeliveries.webhookId,
  eventId: webhookDeliveries.eventId,
  eventType: webhookDeliveries.eventType,
  payload: webhookDeliveries.payload,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  responseStatus: webhookDeliveries.responseStatus,
  error: webhookDeliveries.error,
  createdAt: webhookDeliveries.createdAt,
  lastAttemptAt: webhookDeliveries.lastAttemptAt,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  deliveredAt: webhookDeliveries.deliveredAt,
};

const asDelivery = (r: Omit<DeliveryRecord, 'eventType' | 'status'> & { eventType: string; status: string }): DeliveryRecord => ({
  ...r,
  eventType: r.eventType as WebhookEvent,
  status: r.status as WebhookDeliveryState,
});

/** API keys, webhooks and their deliveries (issue 25): the only SQL of the open-api feature. */
export function createOpenApiRepository(db: Database) {
  const keys = credentialQueries(db, { table: apiKeys, secretHash: apiKeys.secretHash, fields: KEY_COLUMNS, toRecord: asKey });
  return {
    async insertKey(key: {
      name: string;
      prefix: string;
      secretHash: string;
      createdBy: number;
      companyId: number | null;
      scope: ApiKeyScope;
      plantIds: number[];
      access: ApiKeyAccess;
      quotaPerMinute: number;
      expiresAt: Date;
    }): Promise<number> {
      const [row] = await db.insert(apiKeys).values(key).returning({ id: apiKeys.id });
      if (!row) throw new Error('API key not stored');
      return row.id;
    },

    activeKeyCount: keys.activeCount,
    /** Keys the caller made; a company administrator also sees the keys of their company's members. */
    listKeys: keys.list,
    keyById: keys.byId,
    keyBySecretHash: keys.bySecretHash,

    async quotaByPrefix(prefix: string): Promise<number | undefined> {
      const [row] = await db.select({ quota: apiKeys.quotaPerMinute }).from(apiKeys).where(eq(apiKeys.prefix, prefix));
      return row?.quota;
    },

    revokeKey: keys.revoke,
    touchKey: keys.touch,
    creator: keys.creator,

    async plantNames(ids: readonly number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: plants.id, name: plants.name })
        .from(plants)
        .where(inArray(plants.id, [...ids]));
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    /** A device's family and plant by SN (the open API finds the console's device kind from it). */
    async deviceBySn(sn: string): Promise<{ id: number; sn: string; family: string; plantId: number | null } | undefined> {
      const [row] = await db
        .select({ id: devices.id, sn: devices.sn, family: devices.family, plantId: devices.plantId })
        .from(devices)
        .where(eq(devices.sn, sn));
      return row;
    },

    /** The company a plant belongs to (webhooks are per company), and the SN of a device. */
    async plantCompanies(plantIds: readonly number[]): Promise<Map<number, number>> {
      if (plantIds.length === 0) return new Map();
      const rows = await db
        .select({ id: plants.id, companyId: plants.companyId })
        .from(plants)
        .where(inArray(plants.id, [...plantIds]));
      return new Map(rows.flatMap((r) => (r.companyId === null ? [] : [[r.id, r.companyId] as const])));
    },

    async deviceSns(ids: readonly number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: devices.id, sn: devices.sn })
        .from(devices)
        .where(inArray(devices.id, [...ids]));
      return new Map(rows.map((r) => [r.id, r.sn]));
    },

    /** Commands finished after a moment (command.finished webhooks), oldest first. */
    async commandsFinishedSince(since: Date, limit: number) {
      return db
        .select({
          id: deviceCommands.id,
          companyId: deviceCommands.companyId,
          plantId: deviceCommands.plantId,
          deviceSn: deviceCommands.deviceSn,
          op: deviceCommands.op,
          status: deviceCommands.status,
          account: deviceCommands.account,
          finishedAt: deviceCommands.finishedAt,
        })
        .from(deviceCommands)
        .where(gt(deviceCommands.finishedAt, since))
        .orderBy(asc(deviceCommands.finishedAt), asc(deviceCommands.id))
        .limit(limit);
    },

    async insertWebhook(hook: {
      companyId: number;
      createdBy: number;
      url: string;
      secret: string;
      events: WebhookEvent[];
    }): Promise<number> {
      const [row] = await db.insert(webhooks).values(hook).returning({ id: webhooks.id });
      if (!row) throw new Error('webhook not stored');
      return row.id;
    },

    async webhookCount(companyId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(webhooks)
        .where(and(eq(webhooks.companyId, companyId), isNull(webhooks.deletedAt)));
      return row?.n ?? 0;
    },

    async webhooksOf(companyId: number): Promise<(WebhookRecord & { counts: Record<WebhookDeliveryState, number> })[]> {
      const hooks = await db
        .select(WEBHOOK_COLUMNS)
        .from(webhooks)
        .where(and(eq(webhooks.companyId, companyId), isNull(webhooks.deletedAt)))
        .orderBy(desc(webhooks.createdAt), desc(webhooks.id));
      const ids = hooks.map((h) => h.id);
      const counts =
        ids.length === 0
          ? []
          : await db
              .select({ webhookId: webhookDeliveries.webhookId, status: webhookDeliveries.status, n: count() })
              .from(webhookDeliveries)
              .where(inArray(webhookDeliveries.webhookId, ids))
              .groupBy(webhookDeliveries.webhookId, webhookDeliveries.status);
      return hooks.map((h) => {
        const of = (status: string) => counts.find((c) => c.webhookId === h.id && c.status === status)?.n ?? 0;
        return {
          ...h,
          events: h.events as WebhookEvent[],
          counts: { pending: of('pending'), delivered: of('delivered'), failed: of('failed') },
        };
      });
    },

    /** Live webhooks of these companies (to fan an event out). */
    async webhooksFor(companyIds: readonly number[]): Promise<WebhookRecord[]> {
      if (companyIds.length === 0) return [];
      const rows = await db
        .select(WEBHOOK_COLUMNS)
        .from(webhooks)
        .where(and(inArray(webhooks.companyId, [...companyIds]), isNull(webhooks.deletedAt)));
      return rows.map((r) => ({ ...r, events: r.events as WebhookEvent[] }));
    },

    async deleteWebhook(id: number, companyId: number, at: Date): Promise<boolean> {
      const rows = await db
        .update(webhooks)
        .set({ deletedAt: at })
        .where(and(eq(webhooks.id, id), eq(webhooks.companyId, companyId), isNull(webhooks.deletedAt)))
        .returning({ id: webhooks.id });
      return rows.length > 0;
    },

    async webhookOfCompany(id: number, companyId: number): Promise<WebhookRecord | undefined> {
      const [row] = await db
        .select(WEBHOOK_COLUMNS)
        .from(webhooks)
        .where(and(eq(webhooks.id, id), eq(webhooks.companyId, companyId), isNull(webhooks.deletedAt)));
      return row ? { ...row, events: row.events as WebhookEvent[] } : undefined;
    },

    async enqueue(rows: { webhookId: number; eventId: string; eventType: WebhookEvent; payload: unknown }[]): Promise<void> {
      if (rows.length === 0) return;
      await db.insert(webhookDeliveries).values(rows.map((r) => ({ ...r, status: 'pending' })));
    },

    /** Deliveries due now, oldest first, with their webhook's URL and secret. */
    async due(now: Date, limit: number): Promise<(DeliveryRecord & { url: string; secret: string })[]> {
      const rows = await db
        .select({ ...DELIVERY_COLUMNS, url: webhooks.url, secret: webhooks.secret })
        .from(webhookDeliveries)
        .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
        .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now), isNull(webhooks.deletedAt)))
        .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
        .limit(limit);
      return rows.map((r) => ({ ...asDelivery(r), url: r.url, secret: r.secret }));
    },

    async attempted(
      id: number,
      outcome: {
        status: WebhookDeliveryState;
        attempts: number;
        at: Date;
        responseStatus: number | null;
        error: string | null;
        nextAttemptAt: Date;
      },
    ): Promise<void> {
      await db
        .update(webhookDeliveries)
        .set({
          status: outcome.status,
          attempts: outcome.attempts,
          lastAttemptAt: outcome.at,
          responseStatus: outcome.responseStatus,
          error: outcome.error,
          nextAttemptAt: outcome.nextAttemptAt,
          deliveredAt: outcome.status === 'delivered' ? outcome.at : null,
        })
        .where(eq(webhookDeliveries.id, id));
    },

    async deliveries(webhookId: number, limit: number): Promise<DeliveryRecord[]> {
      const rows = await db
        .select(DELIVERY_COLUMNS)
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, webhookId))
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(limit);
      return rows.map(asDelivery);
    },
  };
}

export type OpenApiRepository = ReturnType<typeof createOpenApiRepository>;
