import { Code } from '@sunward/contracts/codes';
import type { SmsListQuery, SmsPage, SmsRecord, SmsSendResult, SmsStatus } from '@sunward/contracts/notifications';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { NewSms, SmsRepository } from './sms.repository.js';
import type { SmsProvider } from './sms-provider.js';

export interface SmsLimits {
  /** Messages one sender may send per hour (SMS_MAX_PER_SENDER_PER_HOUR). */
  perSenderPerHour: number;
  /** Messages one phone number may receive per hour (SMS_MAX_PER_PHONE_PER_HOUR). */
  perPhonePerHour: number;
}

const HOUR_MS = 3_600_000;

type Stored = Awaited<ReturnType<SmsRepository['insert']>>[number];

function present(row: Stored): SmsRecord {
  return {
    id: row.id,
    phone: row.phone,
    content: row.content,
    account: row.account,
    provider: row.provider,
    status: row.status as SmsStatus,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * SMS sending and record (msg/send): one message per recipient through the provider adapter, each
 * recorded with its outcome. Limits are checked for the whole request before anything is sent, so a
 * refused request (429) sends nothing.
 */
export function createSmsService(deps: { repository: SmsRepository; provider: SmsProvider; limits: SmsLimits; log: FastifyBaseLogger }) {
  const { repository, provider, limits, log } = deps;
  return {
    async send(auth: AuthContext, body: { phones: string[]; content: string }): Promise<SmsSendResult> {
      const since = new Date(Date.now() - HOUR_MS);
      if ((await repository.sentBy(auth.userId, since)) + body.phones.length > limits.perSenderPerHour)
        throw new ApiError(Code.RATE_LIMITED, {}, { limit: 'sender', perHour: limits.perSenderPerHour });
      const perPhone = await repository.sentTo(body.phones, since);
      const busy = body.phones.filter((p) => (perPhone.get(p) ?? 0) >= limits.perPhonePerHour);
      if (busy.length > 0) throw new ApiError(Code.RATE_LIMITED, {}, { limit: 'phone', phones: busy, perHour: limits.perPhonePerHour });
      const rows: NewSms[] = [];
      for (const phone of body.phones) {
        const base = { userId: auth.userId, account: auth.account, phone, content: body.content, provider: provider.name };
        try {
          const outcome = await provider.send(phone, body.content);
          rows.push({ ...base, status: outcome.status, providerId: outcome.providerId, error: null });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          log.warn({ event: 'sms_failed', provider: provider.name, err: error }, 'SMS not sent');
          rows.push({ ...base, status: 'failed', providerId: null, error: message.slice(0, 500) });
        }
      }
      return { records: (await repository.insert(rows)).map(present) };
    },

    async page(query: SmsListQuery): Promise<SmsPage> {
      const { rows, total } = await repository.page(query);
      return { infos: rows.map(present), total };
    },
  };
}

export type SmsService = ReturnType<typeof createSmsService>;
