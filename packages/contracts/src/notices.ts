import { z } from 'zod';
import { zoneOffsetMs } from './plant-energy.js';

/*
 * Maintenance notices (spec 01 §3 Notice, §4; spec 02 §3 Other, §4, §5; issue 8): platform
 * administrators announce an upgrade, a maintenance or a plain notice; while one is published and its
 * window covers "now", every signed-in user sees it once in the 700 px dialog. Texts exist in Chinese
 * and English; the other eight languages read the English text.
 */

/** Spec 01 §3: type 1 means upgrade, any other value maintenance; Sunward adds 3 for a plain notice. */
export const NoticeType = { UPGRADE: 1, MAINTENANCE: 2, NOTICE: 3 } as const;
export const NOTICE_TYPES = [NoticeType.UPGRADE, NoticeType.MAINTENANCE, NoticeType.NOTICE] as const;
export type NoticeTypeValue = (typeof NOTICE_TYPES)[number];

/**
 * Spec 01 §4: the console opens the notice dialog when the fetched notice has status 0, so 0 is the
 * published ("publishing") state. A new notice starts unpublished (1); invalid (2) is final.
 */
export const NoticeStatus = { PUBLISHING: 0, UNPUBLISHED: 1, INVALID: 2 } as const;
export const NOTICE_STATUSES = [NoticeStatus.PUBLISHING, NoticeStatus.UNPUBLISHED, NoticeStatus.INVALID] as const;
export type NoticeStatusValue = (typeof NOTICE_STATUSES)[number];

/** Status changes a notice allows: publish and withdraw freely, invalidate once and for ever. */
export function noticeStatusChangeAllowed(from: NoticeStatusValue, to: NoticeStatusValue): boolean {
  return from !== NoticeStatus.INVALID && from !== to;
}

/**
 * Scope of influence: who the notice reaches. "0" every user (console and app), "1" console users,
 * "2" app users. The view call names the asking client; the console sends "0" (spec 01 §7).
 */
export const NOTICE_SCOPES = ['0', '1', '2'] as const;
export type NoticeScope = (typeof NOTICE_SCOPES)[number];

/** The notice scopes a client's view call sees: the console ("0" or "1") gets 0 and 1, the app ("2") 0 and 2. */
export function scopesSeenBy(asking: string): NoticeScope[] {
  return asking === '2' ? ['0', '2'] : ['0', '1'];
}

/** Impact on users: 0 services stay available, 1 some functions are unavailable, 2 the platform is unavailable. */
export const NOTICE_IMPACTS = [0, 1, 2] as const;
export type NoticeImpact = (typeof NOTICE_IMPACTS)[number];

/** Placeholders a description may hold; the server fills them for the view call. */
export const NOTICE_PLACEHOLDERS = ['{time}', '{type}', '{suggest}', '{duration}'] as const;

export const NOTICE_LIMITS = {
  descMax: 2000,
  durationMax: 64,
  suggestMax: 300,
  suggestsMax: 10,
  pageSizeMax: 100,
} as const;

/** "YYYY-MM-DD HH:mm:ss", the view call's date (spec 01 §7), read as UTC. */
export const NOTICE_VIEW_DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** The instant of a view date, or undefined when it is not a real date and time. */
export function parseViewDate(text: string): number | undefined {
  const m = NOTICE_VIEW_DATE.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const ms = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0);
  const back = new Date(ms);
  return back.getUTCMonth() === (mo ?? 1) - 1 && back.getUTCDate() === d && (h ?? 0) < 24 && (mi ?? 0) < 60 && (s ?? 0) < 60
    ? ms
    : undefined;
}

/** An instant as the view call's date text, in UTC. */
export function formatViewDate(instant: number): string {
  return new Date(instant).toISOString().slice(0, 19).replace('T', ' ');
}

const instant = z.iso.datetime({ offset: true });
const text = (max: number) => z.string().trim().min(1).max(max);

export const NoticeSuggestSchema = z.object({
  zhSuggest: text(NOTICE_LIMITS.suggestMax),
  enSuggest: text(NOTICE_LIMITS.suggestMax),
});
export type NoticeSuggest = z.infer<typeof NoticeSuggestSchema>;

/**
 * What the form sends to create or update a notice. Spec 02 §5: start before end, effective time not
 * before start; one wording also puts it before the end, which Sunward enforces too.
 */
export const NoticeFieldsSchema = z
  .object({
    type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    scope: z.enum(NOTICE_SCOPES),
    startTime: instant,
    endTime: instant,
    effectiveTime: instant,
    impact: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    zhDesc: text(NOTICE_LIMITS.descMax),
    enDesc: text(NOTICE_LIMITS.descMax),
    zhDuration: text(NOTICE_LIMITS.durationMax),
    enDuration: text(NOTICE_LIMITS.durationMax),
    suggests: z.array(NoticeSuggestSchema).max(NOTICE_LIMITS.suggestsMax),
  })
  .superRefine((v, ctx) => {
    const start = Date.parse(v.startTime);
    const end = Date.parse(v.endTime);
    const effective = Date.parse(v.effectiveTime);
    if (!(start < end)) ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'validation.noticeEndAfterStart' });
    if (effective < start) ctx.addIssue({ code: 'custom', path: ['effectiveTime'], message: 'validation.noticeEffectiveAfterStart' });
    else if (!(effective < end)) ctx.addIssue({ code: 'custom', path: ['effectiveTime'], message: 'validation.noticeEffectiveBeforeEnd' });
  });
export type NoticeFields = z.infer<typeof NoticeFieldsSchema>;

export const NoticeStatusBodySchema = z.object({
  status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
});

export const NoticeListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(NOTICE_LIMITS.pageSizeMax).default(20),
  status: z.coerce
    .number()
    .pipe(z.union([z.literal(0), z.literal(1), z.literal(2)]))
    .optional(),
  type: z.coerce
    .number()
    .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)]))
    .optional(),
});
export type NoticeListQuery = z.infer<typeof NoticeListQuerySchema>;

/** A notice as the management screen sees it. */
export const NoticeRowSchema = z.object({
  id: z.number(),
  type: z.number(),
  scope: z.string(),
  status: z.number(),
  startTime: z.string(),
  endTime: z.string(),
  effectiveTime: z.string(),
  impact: z.number(),
  zhDesc: z.string(),
  enDesc: z.string(),
  zhDuration: z.string(),
  enDuration: z.string(),
  suggests: z.array(z.object({ zhSuggest: z.string(), enSuggest: z.string() })),
  creator: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  publishedAt: z.string().nullable(),
});
export type NoticeRow = z.infer<typeof NoticeRowSchema>;

export const NoticePageSchema = z.object({ infos: z.array(NoticeRowSchema), total: z.number() });
export type NoticePage = z.infer<typeof NoticePageSchema>;

export const NoticeViewQuerySchema = z.object({
  /** Now, as YYYY-MM-DD HH:mm:ss in UTC; absent: the server's clock. */
  date: z.string().regex(NOTICE_VIEW_DATE).optional(),
  scope: z.string().max(8).default('0'),
  /** IANA time zone the {time} placeholder is written in; absent or unknown: UTC. */
  tz: z.string().max(64).optional(),
  lan: z.string().max(10).optional(),
});

/** The notice in force, in the caller's language (Chinese, else English), placeholders filled. */
export const NoticeViewSchema = z.object({
  id: z.number(),
  type: z.number(),
  status: z.number(),
  scope: z.string(),
  impact: z.number(),
  startTime: z.string(),
  endTime: z.string(),
  effectiveTime: z.string(),
  /** The description with {time}, {type}, {suggest} and {duration} filled. */
  content: z.string(),
  duration: z.string(),
  suggests: z.array(z.string()),
  /** "zh" or "en": the language the texts are in. */
  lan: z.enum(['zh', 'en']),
});
export type NoticeView = z.infer<typeof NoticeViewSchema>;

/** The default descriptions the form starts from (GET ss/notices/template). */
export const NoticeTemplateSchema = z.object({
  zhDesc: z.string(),
  enDesc: z.string(),
  zhDuration: z.string(),
  enDuration: z.string(),
  placeholders: z.array(z.string()),
});
export type NoticeTemplate = z.infer<typeof NoticeTemplateSchema>;

export const NoticeSuggestListSchema = z.array(z.object({ zhSuggest: z.string(), enSuggest: z.string() }));

/** The {type} word in each of the two notice languages. */
export const NOTICE_TYPE_WORDS: Record<'zh' | 'en', Record<'upgrade' | 'maintenance' | 'notice', string>> = {
  zh: { upgrade: '升级', maintenance: '维护', notice: '通知' },
  en: { upgrade: 'upgrade', maintenance: 'maintenance', notice: 'notice' },
};

/** Spec 01 §3: 1 is an upgrade, 3 a plain notice (Sunward), anything else a maintenance. */
export function noticeTypeWord(type: number, lan: 'zh' | 'en'): string {
  const words = NOTICE_TYPE_WORDS[lan];
  return type === NoticeType.UPGRADE ? words.upgrade : type === NoticeType.NOTICE ? words.notice : words.maintenance;
}

/** "YYYY-MM-DD HH:mm" of an instant in a time zone (UTC when the zone is unknown), with the zone's name. */
export function formatNoticeTime(iso: string, timeZone: string | undefined): string {
  const at = Date.parse(iso);
  let zone = 'UTC';
  let offset = 0;
  if (timeZone) {
    try {
      offset = zoneOffsetMs(at, timeZone);
      zone = timeZone;
    } catch {
      // An unknown zone name: stay in UTC and say so.
    }
  }
  return `${new Date(at + offset).toISOString().slice(0, 16).replace('T', ' ')} (${zone})`;
}

/**
 * A description with its placeholders filled. Every occurrence is replaced; text the administrator
 * wrote around them stays as written. Suggestions join into one sentence list.
 */
export function fillNoticeDescription(
  template: string,
  values: { time: string; type: string; duration: string; suggests: readonly string[] },
  lan: 'zh' | 'en',
): string {
  const suggest = values.suggests.join(lan === 'zh' ? '；' : '; ');
  return template
    .replaceAll('{time}', values.time)
    .replaceAll('{type}', values.type)
    .replaceAll('{duration}', values.duration)
    .replaceAll('{suggest}', suggest);
}
