import { Code } from '@sunward/contracts/codes';
import {
  formatViewDate,
  type NoticeFields,
  NoticePageSchema,
  NoticeRowSchema,
  type NoticeStatusValue,
  NoticeSuggestListSchema,
  NoticeTemplateSchema,
  NoticeViewSchema,
} from '@sunward/contracts/notices';
import { apiRequest } from '../../lib/api-client';

export type NoticeQuery = Record<string, string | number | undefined>;

/** Query keys: everything under ['notices'] is refetched after a change. */
export const noticeKeys = {
  all: ['notices'] as const,
  page: (query: NoticeQuery) => ['notices', 'page', query] as const,
  view: ['notice-view'] as const,
  template: ['notices', 'template'] as const,
  suggest: ['notices', 'suggest'] as const,
};

/** Refusals the notice screens show themselves, beside the field or in the dialog. */
const HANDLED = [Code.VALIDATION, Code.NOT_FOUND, Code.ALREADY, Code.NOTICE_INVALIDATED];

export const fetchNoticePage = (query: NoticeQuery) => apiRequest('/api/v1/ss/notices', { query, schema: NoticePageSchema });

export const createNotice = (fields: NoticeFields) =>
  apiRequest('/api/v1/ss/notices', { method: 'POST', json: fields, schema: NoticeRowSchema, tolerate: HANDLED });

export const updateNotice = (id: number, fields: NoticeFields) =>
  apiRequest(`/api/v1/ss/notices/${id}`, { method: 'POST', json: fields, schema: NoticeRowSchema, tolerate: HANDLED });

export const setNoticeStatus = (id: number, status: NoticeStatusValue) =>
  apiRequest(`/api/v1/ss/notices/${id}/status`, { method: 'POST', json: { status }, schema: NoticeRowSchema, tolerate: HANDLED });

export const fetchNoticeTemplate = () => apiRequest('/api/v1/ss/notices/template', { schema: NoticeTemplateSchema });

export const fetchNoticeSuggestions = () => apiRequest('/api/v1/ss/notices/suggest', { schema: NoticeSuggestListSchema });

/** The browser's time zone, so {time} reads in the user's local time. */
const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Spec 01 §7: the notice in force now (date as YYYY-MM-DD HH:mm:ss, here in UTC) for the console (scope
 * "0"). Non-zero codes are ignored: every code is tolerated and the dialog simply stays closed.
 */
export const fetchNoticeView = () =>
  apiRequest('/api/v1/ss/notices/view', {
    query: { date: formatViewDate(Date.now()), scope: '0', tz: localZone() },
    schema: NoticeViewSchema.nullable(),
    tolerate: Object.values(Code),
  });
