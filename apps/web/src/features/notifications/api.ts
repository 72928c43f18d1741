import { Code } from '@sunward/contracts/codes';
import {
  MessagePageSchema,
  MessageStatesResultSchema,
  NotifyCodeResultSchema,
  NotifySettingsSchema,
  type NotifySettingsUpdate,
  type SmsListQuery,
  SmsPageSchema,
  type SmsSend,
  SmsSendResultSchema,
} from '@sunward/contracts/notifications';
import { z } from 'zod';
import { apiRequest, fieldErrors, refusalMessage } from '../../lib/api-client';

export interface MessageQuery {
  page: number;
  size: number;
  type?: number;
  state?: number;
  from?: string;
  to?: string;
}

/** Query keys: the bell's count and every list live under ['messages'], refetched together after a change. */
export const messageKeys = {
  all: ['messages'] as const,
  count: ['messages', 'count'] as const,
  page: (query: MessageQuery) => ['messages', 'page', query] as const,
  notify: ['notify-settings'] as const,
  sms: (query: Partial<SmsListQuery>) => ['sms', query] as const,
};

/** Refusals these screens show themselves, beside the field or in the form, not as a toast. */
const HANDLED = [
  Code.VALIDATION,
  Code.VERIFICATION_CODE_WRONG,
  Code.VERIFICATION_CODE_EXPIRED,
  Code.RATE_LIMITED,
  Code.PLANT_NOT_FOUND,
  Code.NOT_FOUND,
];

export const fetchUnread = () => apiRequest('/api/v1/message/count', { schema: z.number().int() });

export const fetchMessages = (query: MessageQuery) => apiRequest('/api/v1/messages', { query: { ...query }, schema: MessagePageSchema });

export const setMessageState = (id: number, state: 0 | 1) =>
  apiRequest(`/api/v1/message/${id}/state`, { method: 'POST', json: { state }, schema: MessageStatesResultSchema, tolerate: HANDLED });

/** Without ids: every message of the caller (read all). */
export const setMessageStates = (state: 0 | 1, ids?: readonly number[]) =>
  apiRequest('/api/v1/message/update/states', {
    method: 'POST',
    json: ids ? { state, ids } : { state },
    schema: MessageStatesResultSchema,
  });

export const fetchNotifySettings = () => apiRequest('/api/v1/user/notify/enable', { schema: NotifySettingsSchema });

/** Sends a code to the address, or checks one when `code` is given (5 wrong, 6 expired, 429 too soon). */
export const notifyCode = (email: string, code?: string) =>
  apiRequest('/api/v1/user/notify/code', { query: { email, code }, schema: NotifyCodeResultSchema, tolerate: HANDLED });

export const saveNotifySettings = (settings: NotifySettingsUpdate) =>
  apiRequest('/api/v1/user/notify', { method: 'POST', json: settings, schema: NotifySettingsSchema, tolerate: HANDLED });

export const sendSms = (body: SmsSend) =>
  apiRequest('/api/v1/msg/send', { method: 'POST', json: body, schema: SmsSendResultSchema, tolerate: HANDLED });

export const fetchSmsRecords = (query: Partial<SmsListQuery>) =>
  apiRequest('/api/v1/msg/records', { query: { ...query }, schema: SmsPageSchema });

/** Field → message of a code-4 refusal (one reading for every form, in lib/api-client). */
/** The text to show for a refused call: its first field error, else the server's localised message. */
export { fieldErrors, refusalMessage };
