import { isLanguage, type Language } from '@sunward/contracts/languages';
import type { FastifyBaseLogger } from 'fastify';
import { every } from '../../jobs/timers.js';
import type { Mailer } from '../../lib/mailer.js';
import type { AlarmForEmail } from '../messages/alarm-notifier.service.js';
import { alarmText, plantTime } from '../messages/alarm-texts.js';
import type { NewDelivery, NotificationsRepository, StoredNotifySettings } from './notifications.repository.js';

export interface AlarmMailSettings {
  /** How long alarms collect before a pass mails them (one e-mail, a digest when several) (ALARM_EMAIL_BATCH_SECONDS). */
  batchMs: number;
  /** Alarm e-mails per recipient per hour at most (ALARM_EMAIL_MAX_PER_HOUR); later alarms wait and go as one digest. */
  maxPerHour: number;
  /** First retry after this long, doubling each time (EMAIL_RETRY_BASE_SECONDS). */
  retryBaseMs: number;
  /** Attempts before an e-mail is recorded as failed for good. */
  maxAttempts: number;
}

const HOUR_MS = 3_600_000;
const RETRY_MAX_MS = HOUR_MS;
const LEASE_MS = 120_000;
const SEND_BATCH = 50;

/** Delay before attempt `attempts + 1`: base, 2×base, 4×base… capped at an hour. Pure, for the unit test. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(RETRY_MAX_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

/** Whether a user's settings want e-mails of this level from this plant (a plant rule overrides the default levels). */
export function wantsAlarm(settings: Pick<StoredNotifySettings, 'levels' | 'plants'>, plantId: number, level: string): boolean {
  const rule = settings.plants.find((p) => p.plantId === plantId);
  return (rule ? rule.levels : settings.levels).some((l) => l === level);
}

/** One e-mail for the alarms waiting for a user: the alarm itself when alone, a digest when several. */
export function composeAlarmMail(
  language: Language,
  to: string,
  userId: number,
  items: readonly { title: string; content: string; createdAt: Date }[],
): NewDelivery {
  const footer = alarmText(language, 'footer');
  const [first] = items;
  if (items.length === 1 && first) return { userId, to, kind: 'alarm', subject: first.title, text: `${first.content}\n\n-- \n${footer}\n` };
  const lines = items.map((i) => `• ${plantTime(i.createdAt, 'UTC')}  ${i.title}\n  ${i.content.replace(/\n/g, '\n  ')}`);
  return {
    userId,
    to,
    kind: 'digest',
    subject: alarmText(language, 'digestSubject', { count: items.length }),
    text: `${alarmText(language, 'digestIntro')}\n\n${lines.join('\n\n')}\n\n-- \n${footer}\n`,
  };
}

/**
 * E-mail exception notification: alarms for users who opted in wait a few seconds, then go as one e-mail
 * per recipient (a digest when several arrived), never more than the hourly cap (the rest waits for the
 * next free slot, again as one digest). Every e-mail is a delivery row: pending, sent, or failed after
 * retries with backoff. Verification codes go through the same way out, outside the cap.
 */
export function createAlarmMailService(deps: {
  repository: NotificationsRepository;
  mailer: Mailer;
  settings: AlarmMailSettings;
  log: FastifyBaseLogger;
}) {
  const { repository, mailer, settings, log } = deps;
  let pass: Promise<void> = Promise.resolve();
  let stopTimer: (() => void) | undefined;

  async function pack(now: Date): Promise<void> {
    for (const r of await repository.waitingRecipients()) {
      if ((await repository.alarmMailsSince(r.userId, new Date(now.getTime() - HOUR_MS))) >= settings.maxPerHour) continue;
      const language: Language = isLanguage(r.language) ? r.language : 'en';
      await repository.packWaiting(r.userId, (items) => composeAlarmMail(language, r.email, r.userId, items));
    }
  }

  async function sendDue(now: Date): Promise<void> {
    for (;;) {
      const due = await repository.claimDue(now, LEASE_MS, SEND_BATCH);
      for (const d of due) {
        try {
          await mailer.send({
            to: d.to,
            subject: d.subject,
            text: d.text,
            ...(d.attachmentPath ? { attachments: [{ filename: d.attachmentName ?? 'report', path: d.attachmentPath }] } : {}),
          });
          await repository.markSent(d.id, new Date());
        } catch (error) {
          const attempts = d.attempts + 1;
          const retryAt = attempts < settings.maxAttempts ? new Date(Date.now() + retryDelayMs(attempts, settings.retryBaseMs)) : undefined;
          log.warn(
            { event: 'email_failed', delivery: d.id, attempts, retry: retryAt?.toISOString() ?? null, err: error },
            'e-mail not sent',
          );
          await repository.markFailed(d.id, error instanceof Error ? error.message : String(error), retryAt);
        }
      }
      if (due.length < SEND_BATCH) return;
    }
  }

  /** One pass: pack waiting alarms into e-mails, then send what is due. Passes never overlap. */
  function run(): Promise<void> {
    pass = pass
      .then(async () => {
        const now = new Date();
        await pack(now);
        await sendDue(now);
      })
      .catch((error: unknown) => log.error({ err: error }, 'e-mail pass failed'));
    return pass;
  }

  return {
    /** Keeps the alarms each recipient's settings ask for; the next pass mails them. */
    async queue(alarms: readonly AlarmForEmail[]): Promise<void> {
      if (alarms.length === 0) return;
      const wanted = new Map((await repository.enabledFor([...new Set(alarms.map((a) => a.userId))])).map((s) => [s.userId, s]));
      const items = alarms.filter((a) => {
        const s = wanted.get(a.userId);
        return s !== undefined && wantsAlarm(s, a.plantId, a.level);
      });
      await repository.queueItems(items.map((a) => ({ userId: a.userId, title: a.title, content: a.content })));
    },

    /** An e-mail outside the alarm flow (a verification code): recorded, then sent at once, retried like any other. */
    async sendNow(delivery: NewDelivery): Promise<number> {
      const id = await repository.addDelivery(delivery);
      await run();
      return id;
    },

    run,

    start() {
      stopTimer = every(settings.batchMs, () => void run());
    },

    async close(): Promise<void> {
      stopTimer?.();
      await pass;
    },
  };
}

export type AlarmMailService = ReturnType<typeof createAlarmMailService>;
