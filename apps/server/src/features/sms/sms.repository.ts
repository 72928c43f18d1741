import type { SmsListQuery, SmsStatus } from '@sunward/contracts/notifications';
import { and, count, desc, eq, gte, ilike, inArray, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { smsMessages } from '../../db/schema.js';

export interface NewSms {
  userId: number;
  account: string;
  phone: string;
  content: string;
  provider: string;
  status: SmsStatus;
  providerId: string | null;
  error: string | null;
}

/** The SMS send log. */
export function createSmsRepository(db: Database) {
  return {
    async sentBy(userId: number, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(smsMessages)
        .where(and(eq(smsMessages.userId, userId), gte(smsMessages.createdAt, since)));
      return Number(row?.n ?? 0);
    },

    /** Messages per phone number since `since`, for the numbers given. */
    async sentTo(phones: readonly string[], since: Date): Promise<Map<string, number>> {
      const rows = await db
        .select({ phone: smsMessages.phone, n: count() })
        .from(smsMessages)
        .where(and(inArray(smsMessages.phone, [...phones]), gte(smsMessages.createdAt, since)))
        .groupBy(smsMessages.phone);
      return new Map(rows.map((r) => [r.phone, Number(r.n)]));
    },

    async insert(rows: readonly NewSms[]) {
      return db
        .insert(smsMessages)
        .values([...rows])
        .returning();
    },

    async page(query: SmsListQuery) {
      const where: SQL | undefined = and(
        query.status ? eq(smsMessages.status, query.status) : undefined,
        query.phone ? ilike(smsMessages.phone, `%${query.phone.replace(/[%_\\]/g, '\\$&')}%`) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(smsMessages)
          .where(where)
          .orderBy(desc(smsMessages.createdAt), desc(smsMessages.id))
          .limit(query.size)
          .offset((query.page - 1) * query.size),
        db.select({ n: count() }).from(smsMessages).where(where),
      ]);
      return { rows, total: Number(total?.n ?? 0) };
    },
  };
}

export type SmsRepository = ReturnType<typeof createSmsRepository>;
