import { z } from 'zod';
import { IdParamSchema, IdSchema } from './ids.js';
import { InvitationMessageDataSchema } from './invitations.js';
import { LIMITS } from './limits.js';
import { EVENT_LEVELS } from './plant-energy.js';
import { isEmail } from './validators.js';

/*
 * The notification centre (issue 8, spec 01 §7 Notices and messages, spec 02 §2 notification panel):
 * in-app messages (messages, message/count, message/{id}/state, message/update/states), the e-mail alarm
 * settings (user/notify, user/notify/enable, user/notify/code) and SMS sending (msg/send).
 */

/** Spec 02 §3: a notification is a system announcement or an equipment alarm. */
export const MessageType = { SYSTEM: 1, ALARM: 2 } as const;
export type MessageTypeValue = (typeof MessageType)[keyof typeof MessageType];
export const MESSAGE_TYPES = [MessageType.SYSTEM, MessageType.ALARM] as const;

/** Spec 01 §4: messages are read or unread. */
export const MessageState = { UNREAD: 0, READ: 1 } as const;
export type MessageStateValue = (typeof MessageState)[keyof typeof MessageState];

export const MESSAGE_LIMITS = {
  pageSizeMax: 100,
  badgeMax: LIMITS.noticeBadgeMax,
  refreshMs: LIMITS.noticeCountRefreshMs,
  /** message/update/states with ids: at most this many at once (without ids it marks all). */
  idsMax: 500,
} as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
/** A period bound: an ISO date-time with an offset, or a UTC day (YYYY-MM-DD; `to` means its end). */
const bound = z
  .string()
  .trim()
  .refine((s) => (DAY.test(s) || DATE_TIME.test(s)) && !Number.isNaN(Date.parse(DAY.test(s) ? `${s}T00:00:00Z` : s)), {
    message: 'validation.invalidFormat',
  });

/** The instant a bound stands for; a day given as `to` means the end of that day. */
export function messageBoundInstant(value: string, side: 'from' | 'to'): Date {
  if (!DAY.test(value)) return new Date(value);
  const start = Date.parse(`${value}T00:00:00Z`);
  return new Date(side === 'from' ? start : start + 86_400_000);
}

export const MessageListQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(MESSAGE_LIMITS.pageSizeMax).default(20),
    type: z.coerce
      .number()
      .int()
      .refine((n) => (MESSAGE_TYPES as readonly number[]).includes(n), { message: 'validation.invalidValue' })
      .optional(),
    state: z.coerce
      .number()
      .int()
      .refine((n) => n === MessageState.UNREAD || n === MessageState.READ, { message: 'validation.invalidValue' })
      .optional(),
    from: bound.optional(),
    to: bound.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && messageBoundInstant(q.to, 'to') <= messageBoundInstant(q.from, 'from'))
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.invalidValue' });
  });
export type MessageListQuery = z.infer<typeof MessageListQuerySchema>;

/** What an equipment alarm is about, so the centre can link to the device and plant. */
export const AlarmDataSchema = z.object({
  plantId: z.number().nullable(),
  plantName: z.string().nullable(),
  deviceId: z.number(),
  deviceSn: z.string(),
  family: z.string(),
  code: z.number(),
  level: z.enum(EVENT_LEVELS),
  change: z.enum(['opened', 'cleared']),
  /** When the device reported the change (ISO). */
  at: z.string(),
  /** Changes of this device and code left out by the flapping throttle since the previous message. */
  suppressed: z.number().int().min(0),
});
export type AlarmData = z.infer<typeof AlarmDataSchema>;

export const MessageRowSchema = z.object({
  id: z.number(),
  type: z.number(),
  title: z.string(),
  content: z.string(),
  state: z.number(),
  /** Receive time (ISO, UTC). */
  createdAt: z.string(),
  alarm: AlarmDataSchema.nullable(),
  /** An invitation to answer (issue 15.4), so the centre can offer accept and decline. */
  invitation: InvitationMessageDataSchema.nullable(),
});
export type MessageRow = z.infer<typeof MessageRowSchema>;

export const MessagePageSchema = z.object({ infos: z.array(MessageRowSchema), total: z.number(), unread: z.number() });
export type MessagePage = z.infer<typeof MessagePageSchema>;

const stateField = z.union([z.literal(MessageState.UNREAD), z.literal(MessageState.READ)]);

/** message/{id}/state: read by default; 0 marks it unread again. */
export const MessageStateBodySchema = z.object({ state: z.coerce.number().pipe(stateField).default(MessageState.READ) }).default({
  state: MessageState.READ,
});

/** message/update/states: the listed ids, or every message of the caller when ids is absent (read all). */
export const MessageStatesBodySchema = z
  .object({
    ids: z.array(IdParamSchema).min(1).max(MESSAGE_LIMITS.idsMax).optional(),
    state: z.coerce.number().pipe(stateField).default(MessageState.READ),
  })
  .default({ state: MessageState.READ });

export const MessageStatesResultSchema = z.object({ updated: z.number(), unread: z.number() });
export type MessageStatesResult = z.infer<typeof MessageStatesResultSchema>;

// ---- E-mail alarm notification (user/notify) ----

export const NOTIFY_LIMITS = {
  emailMax: 100,
  plantsMax: 500,
  /** Digits of the code user/notify/code sends. */
  codeLength: 6,
  codeTtlMinutes: 10,
  /** A new code for the same user at most this often. */
  codeResendSeconds: 60,
  /** Wrong codes before the code is void (a new one must be requested). */
  codeAttemptsMax: 5,
} as const;

const levels = z
  .array(z.enum(EVENT_LEVELS))
  .max(EVENT_LEVELS.length)
  .transform((l) => [...new Set(l)]);

/** A plant with its own levels, as sent (duplicates dropped)… */
export const NotifyPlantRuleSchema = z.object({ plantId: IdSchema, levels });
/** …and as answered (response schemas carry no transforms). */
const NotifyPlantRuleOutSchema = z.object({ plantId: z.number(), levels: z.array(z.enum(EVENT_LEVELS)) });
export type NotifyPlantRule = z.infer<typeof NotifyPlantRuleOutSchema>;

const email = z
  .string()
  .trim()
  .max(NOTIFY_LIMITS.emailMax)
  .refine((s) => isEmail(s), { message: 'validation.invalidFormat' });

/** GET user/notify/enable: the caller's e-mail alarm settings. */
export const NotifySettingsSchema = z.object({
  enabled: z.boolean(),
  /** The verified address alarms go to; null until one is confirmed. */
  email: z.string().nullable(),
  /** Levels e-mailed for every plant the user sees. */
  levels: z.array(z.enum(EVENT_LEVELS)),
  /** Per-plant overrides (empty levels: nothing from that plant). */
  plants: z.array(NotifyPlantRuleOutSchema),
  /** At most this many alarm e-mails an hour (ALARM_EMAIL_MAX_PER_HOUR); more wait and go as one digest. */
  maxPerHour: z.number(),
});
export type NotifySettings = z.infer<typeof NotifySettingsSchema>;

/**
 * POST user/notify. A new address needs the code user/notify/code sent to it (5 wrong, 6 expired); the
 * address already confirmed needs none. Turning alarms on needs a confirmed address.
 */
export const NotifySettingsUpdateSchema = z.object({
  enabled: z.boolean(),
  email: email.nullable().optional(),
  code: z.string().trim().max(12).optional(),
  levels,
  plants: z.array(NotifyPlantRuleSchema).max(NOTIFY_LIMITS.plantsMax).default([]),
});
export type NotifySettingsUpdate = z.input<typeof NotifySettingsUpdateSchema>;

/** GET user/notify/code: with email only, sends a code there; with email and code, checks it (5 wrong, 6 expired). */
export const NotifyCodeQuerySchema = z.object({ email, code: z.string().trim().max(12).optional() });

export const NotifyCodeResultSchema = z.object({
  /** sent: a code went out; verified: the code given is right. */
  status: z.enum(['sent', 'verified']),
  /** Seconds before another code may be requested. */
  resendAfter: z.number(),
});
export type NotifyCodeResult = z.infer<typeof NotifyCodeResultSchema>;

// ---- SMS (msg/send) ----

export const SMS_LIMITS = {
  recipientsMax: 50,
  contentMax: 500,
  pageSizeMax: 100,
} as const;

/** International format: an optional +, then 6 to 15 digits (E.164). */
export const SMS_PHONE = /^\+?[0-9]{6,15}$/;

export const SmsSendSchema = z.object({
  phones: z
    .array(
      z
        .string()
        .trim()
        .refine((p) => SMS_PHONE.test(p), { message: 'validation.phone' }),
    )
    .min(1)
    .max(SMS_LIMITS.recipientsMax)
    .transform((p) => [...new Set(p)]),
  content: z.string().trim().min(1).max(SMS_LIMITS.contentMax),
});
export type SmsSend = z.input<typeof SmsSendSchema>;

export const SMS_STATUSES = ['sent', 'failed', 'logged'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

export const SmsRecordSchema = z.object({
  id: z.number(),
  phone: z.string(),
  content: z.string(),
  account: z.string(),
  provider: z.string(),
  status: z.enum(SMS_STATUSES),
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type SmsRecord = z.infer<typeof SmsRecordSchema>;

export const SmsSendResultSchema = z.object({ records: z.array(SmsRecordSchema) });
export type SmsSendResult = z.infer<typeof SmsSendResultSchema>;

export const SmsListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(SMS_LIMITS.pageSizeMax).default(20),
  status: z.enum(SMS_STATUSES).optional(),
  phone: z.string().trim().max(16).optional(),
});
export type SmsListQuery = z.infer<typeof SmsListQuerySchema>;

export const SmsPageSchema = z.object({ infos: z.array(SmsRecordSchema), total: z.number() });
export type SmsPage = z.infer<typeof SmsPageSchema>;
