import type { EventLevel } from '@sunward/contracts/events';
import type { NotifyPlantRule } from '@sunward/contracts/notifications';
import { and, count, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { computed, sqlRows } from '../../db/rows.js';
import { alarmEmailItems, emailDeliveries, notifySettings, users } from '../../db/schema.js';

export interface StoredNotifySettings {
  userId: number;
  enabled: boolean;
  email: string | null;
  levels: EventLevel[];
  plants: NotifyPlantRule[];
  pendingEmail: string | null;
  codeHash: string | null;
  codeExpiresAt: Date | null;
  codeAttempts: number;
  codeSentAt: Date | null;
}

export interface NewDelivery {
  userId: number | null;
  to: string;
  kind: 'alarm' | 'digest' | 'code' | 'report';
  subject: string;
  text: string;
  items?: number;
  /** A scheduled report's file (issue 21). */
  attachmentPath?: string | null;
  attachmentName?: string | null;
}

export interface DueDelivery {
  id: number;
  to: string;
  subject: string;
  text: string;
  attempts: number;
  attachmentPath: string | null;
  attachmentName: string | null;
}

/** Alarm e-mail kinds that count against a recipient's hourly cap (codes do not). */
const ALARM_KINDS = ['alarm', 'digest'];

/** SQL of e-mail alarm settings and deliveries (features/notifications). */
export function createNotificationsRepository(db: Database) {
  return {
    async settings(userId: number): Promise<StoredNotifySettings | undefined> {
      const [row] = await db.select().from(notifySettings).where(eq(notifySettings.userId, userId));
      if (!row) return undefined;
      return { ...row, levels: row.levels as EventLevel[], plants: row.plants as NotifyPlantRule[] };
    },

    async saveSettings(userId: number, values: Partial<Omit<StoredNotifySettings, 'userId'>>): Promise<void> {
      const set = { ...values, updatedAt: new Date() };
      await db
        .insert(notifySettings)
        .values({ userId, ...set })
        .onConflictDoUpdate({ target: notifySettings.userId, set });
    },

    /** Settings of the given users who turned e-mail alarms on and have a confirmed address. */
    async enabledFor(userIds: readonly number[]): Promise<StoredNotifySettings[]> {
      if (userIds.length === 0) return [];
      const rows = await db
        .select()
        .from(notifySettings)
        .where(and(inArray(notifySettings.userId, [...userIds]), eq(notifySettings.enabled, true), isNotNull(notifySettings.email)));
      return rows.map((row) => ({ ...row, levels: row.levels as EventLevel[], plants: row.plants as NotifyPlantRule[] }));
    },

    async queueItems(items: readonly { userId: number; title: string; content: string }[]): Promise<void> {
      for (let i = 0; i < items.length; i += 2000) await db.insert(alarmEmailItems).values(items.slice(i, i + 2000));
    },

    /** Users with alarms waiting for an e-mail, with where and in which language it goes. */
    async waitingRecipients(): Promise<{ userId: number; email: string; language: string }[]> {
      const rows = await sqlRows(
        db,
        { user_id: alarmEmailItems.userId, email: computed.text, language: users.language },
        sql`select distinct i.user_id, s.email, u.language
            from alarm_email_items i join notify_settings s on s.user_id = i.user_id join users u on u.id = i.user_id
            where i.delivery_id is null and s.email is not null`,
      );
      return rows.map((r) => ({ userId: r.user_id, email: r.email, language: r.language }));
    },

    /** Alarm e-mails created for the user since `since` (whatever their state): the hourly cap counts these. */
    async alarmMailsSince(userId: number, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(emailDeliveries)
        .where(and(eq(emailDeliveries.userId, userId), inArray(emailDeliveries.kind, ALARM_KINDS), gte(emailDeliveries.createdAt, since)));
      return Number(row?.n ?? 0);
    },

    /**
     * Puts every waiting alarm of the user into one e-mail, built by `compose` from them (oldest first).
     * Rows are locked and skipped by a concurrent pass, so two servers never mail the same alarm twice.
     */
    async packWaiting(
      userId: number,
      compose: (items: { title: string; content: string; createdAt: Date }[]) => NewDelivery,
    ): Promise<number | undefined> {
      return db.transaction(async (tx) => {
        const items = await sqlRows(
          tx,
          { id: alarmEmailItems.id, title: alarmEmailItems.title, content: alarmEmailItems.content, created_at: alarmEmailItems.createdAt },
          sql`select id, title, content, created_at from alarm_email_items
              where user_id = ${userId} and delivery_id is null order by id for update skip locked`,
        );
        if (items.length === 0) return undefined;
        const delivery = compose(items.map((i) => ({ title: i.title, content: i.content, createdAt: i.created_at })));
        const [row] = await tx
          .insert(emailDeliveries)
          .values({ ...delivery, items: items.length })
          .returning({ id: emailDeliveries.id });
        if (!row) throw new Error('delivery not created');
        await tx
          .update(alarmEmailItems)
          .set({ deliveryId: row.id })
          .where(
            inArray(
              alarmEmailItems.id,
              items.map((i) => i.id),
            ),
          );
        return row.id;
      });
    },

    async addDelivery(delivery: NewDelivery): Promise<number> {
      const [row] = await db.insert(emailDeliveries).values(delivery).returning({ id: emailDeliveries.id });
      if (!row) throw new Error('delivery not created');
      return row.id;
    },

    /**
     * Claims pending e-mails that are due: their next attempt moves `leaseMs` ahead, so a pass that dies
     * mid-send leaves them to be retried, and a concurrent pass skips them.
     */
    async claimDue(now: Date, leaseMs: number, limit: number): Promise<DueDelivery[]> {
      const rows = await sqlRows(
        db,
        {
          id: emailDeliveries.id,
          to: emailDeliveries.to,
          subject: emailDeliveries.subject,
          text: emailDeliveries.text,
          attempts: emailDeliveries.attempts,
          attachment_path: emailDeliveries.attachmentPath,
          attachment_name: emailDeliveries.attachmentName,
        },
        sql`update email_deliveries set next_attempt_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz
            where id in (select id from email_deliveries where status = 'pending' and next_attempt_at <= ${now.toISOString()}::timestamptz
                         order by next_attempt_at, id limit ${limit} for update skip locked)
            returning id, "to", subject, text, attempts, attachment_path, attachment_name`,
      );
      return rows.map(({ attachment_path, attachment_name, ...r }) => ({
        ...r,
        attachmentPath: attachment_path,
        attachmentName: attachment_name,
      }));
    },

    async markSent(id: number, at: Date): Promise<void> {
      await db
        .update(emailDeliveries)
        .set({ status: 'sent', sentAt: at, attempts: sql`${emailDeliveries.attempts} + 1`, lastError: null })
        .where(eq(emailDeliveries.id, id));
    },

    /** A failed attempt: retried at `retryAt`, or failed for good when there is none. */
    async markFailed(id: number, error: string, retryAt: Date | undefined): Promise<void> {
      await db
        .update(emailDeliveries)
        .set({
          status: retryAt ? 'pending' : 'failed',
          attempts: sql`${emailDeliveries.attempts} + 1`,
          lastError: error.slice(0, 500),
          ...(retryAt ? { nextAttemptAt: retryAt } : {}),
        })
        .where(eq(emailDeliveries.id, id));
    },

    async userLanguage(userId: number): Promise<string | undefined> {
      const [row] = await db.select({ language: users.language }).from(users).where(eq(users.id, userId));
      return row?.language;
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
