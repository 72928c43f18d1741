import { z } from 'zod';
import { CommandBodySchema, ParamsWriteSchema } from './commands.js';

/**
 * The open plant API (issue 25): API keys that act for their creator on chosen plants (read-only or operator),
 * the versioned public surface /open/v1, per-key quotas published in RateLimit-* headers, and per-company
 * webhooks signed with HMAC-SHA256 (docs/open-api.md).
 */
export const API_KEY_SCOPES = ['all', 'plants'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_ACCESS = ['read', 'operator'] as const;
export type ApiKeyAccess = (typeof API_KEY_ACCESS)[number];

export const API_KEY_STATES = ['active', 'expired', 'revoked'] as const;
export type ApiKeyState = (typeof API_KEY_STATES)[number];

export const WEBHOOK_EVENTS = ['event.raised', 'event.cleared', 'device.offline', 'device.online', 'command.finished'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

export const OPEN_API_LIMITS = {
  nameMax: 60,
  plantsMax: 50,
  expiresDaysMin: 1,
  expiresDaysMax: 730,
  keysPerUserMax: 50,
  quotaMin: 1,
  quotaMax: 6000,
  quotaDefault: 120,
  webhooksPerCompanyMax: 10,
  urlMax: 500,
  /** Deliveries are tried this many times (1 s, 2 s, 4 s … between tries) before they are marked failed. */
  deliveryAttemptsMax: 8,
  /** A receiver should refuse a signature whose timestamp is further than this from its clock (replay protection). */
  signatureToleranceSeconds: 300,
  deliveriesShown: 50,
} as const;

/** Keys are sent as `Authorization: Bearer sw_<prefix>_<secret>`; the prefix names the key in lists. */
export const API_KEY_PATTERN = /^sw_([0-9a-f]{10})_[A-Za-z0-9_-]{43}$/;
/** The signature header of webhook deliveries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'sunward-signature';

export const ApiKeyCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(OPEN_API_LIMITS.nameMax),
    scope: z.enum(API_KEY_SCOPES),
    plantIds: z.array(z.number().int().positive()).max(OPEN_API_LIMITS.plantsMax).default([]),
    access: z.enum(API_KEY_ACCESS),
    expiresInDays: z.number().int().min(OPEN_API_LIMITS.expiresDaysMin).max(OPEN_API_LIMITS.expiresDaysMax),
    quotaPerMinute: z.number().int().min(OPEN_API_LIMITS.quotaMin).max(OPEN_API_LIMITS.quotaMax).default(OPEN_API_LIMITS.quotaDefault),
  })
  .superRefine((v, ctx) => {
    if (v.scope === 'plants' && v.plantIds.length === 0)
      ctx.addIssue({ code: 'custom', path: ['plantIds'], message: 'validation.required' });
  });
export type ApiKeyCreate = z.infer<typeof ApiKeyCreateSchema>;

export const ApiKeyRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** The visible part of the key (sw_<prefix>_…). */
  prefix: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  plantIds: z.array(z.number()),
  plantNames: z.array(z.string()),
  access: z.enum(API_KEY_ACCESS),
  quotaPerMinute: z.number(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  state: z.enum(API_KEY_STATES),
});
export type ApiKeyRow = z.infer<typeof ApiKeyRowSchema>;

/** The answer to a creation: the key is shown this once; the server keeps only its SHA-256. */
export const ApiKeyCreatedSchema = z.object({ key: ApiKeyRowSchema, secret: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

export const WebhookCreateSchema = z.object({
  url: z
    .string()
    .trim()
    .max(OPEN_API_LIMITS.urlMax)
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'https:' || u.protocol === 'http:';
      } catch {
        return false;
      }
    }, 'validation.invalidFormat'),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
});
export type WebhookCreate = z.infer<typeof WebhookCreateSchema>;

export const WebhookRowSchema = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  createdAt: z.string(),
  delivered: z.number(),
  pending: z.number(),
  failed: z.number(),
});
export type WebhookRow = z.infer<typeof WebhookRowSchema>;

/** The answer to a creation: the signing secret is shown this once. */
export const WebhookCreatedSchema = z.object({ webhook: WebhookRowSchema, secret: z.string() });
export type WebhookCreated = z.infer<typeof WebhookCreatedSchema>;

export const WebhookDeliverySchema = z.object({
  id: z.number(),
  eventId: z.string(),
  eventType: z.enum(WEBHOOK_EVENTS),
  status: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number(),
  responseStatus: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

/** What a webhook receives: one event, its id (the same on every retry: deduplicate on it) and when it happened. */
export const WebhookPayloadSchema = z.object({
  id: z.string(),
  type: z.enum(WEBHOOK_EVENTS),
  createdAt: z.string(),
  companyId: z.number(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;

/** A command's body on /open/v1: the console's, without the password (the operator key is the proof; audited alike). */
export const OpenCommandSchema = CommandBodySchema.omit({ password: true });
export const OpenParamsCommandSchema = ParamsWriteSchema.omit({ password: true });
