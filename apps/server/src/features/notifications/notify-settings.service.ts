import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { Code, type ResponseCode } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import {
  NOTIFY_LIMITS,
  type NotifyCodeResult,
  type NotifySettings,
  type NotifySettingsUpdateSchema,
} from '@sunward/contracts/notifications';
import type { z } from 'zod';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { lockedError, type SecretThrottle } from '../auth/secret-throttle.js';
import { alarmText } from '../messages/alarm-texts.js';
import type { PlantAccess } from '../plants/plant-access.js';
import type { AlarmMailService } from './alarm-mail.service.js';
import type { NotificationsRepository, StoredNotifySettings } from './notifications.repository.js';

type SettingsUpdate = z.output<typeof NotifySettingsUpdateSchema>;

const DEFAULTS = { enabled: false, email: null, levels: ['fault' as const], plants: [] };

// The code is bound to the user and the address: a code sent for one address confirms no other.
function codeHash(userId: number, email: string, code: string): string {
  return createHash('sha256').update(`${userId}\n${email.toLowerCase()}\n${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

const validation = (language: Language, field: string, key: 'validation.required' | 'validation.invalidValue') =>
  new ApiError(Code.VALIDATION, {}, { errors: [{ field, message: translate(language, key) }] });

/**
 * E-mail alarm settings (user/notify, user/notify/enable, user/notify/code): on or off, a confirmed address,
 * levels for every plant and per-plant overrides. A new address is confirmed with a code sent to it.
 */
export function createNotifySettingsService(deps: {
  repository: NotificationsRepository;
  mail: Pick<AlarmMailService, 'sendNow'>;
  plantAccess: PlantAccess;
  maxPerHour: number;
  /** Counts wrong codes per address and caller with the other verification codes (135 once locked). */
  throttle: SecretThrottle;
  now?: () => Date;
}) {
  const { repository, mail, plantAccess } = deps;
  const now = deps.now ?? (() => new Date());

  /** 5 for a wrong code (or one for another address), 6 when it expired or was guessed at too often; undefined when right. */
  async function judge(userId: number, stored: StoredNotifySettings | undefined, email: string, code: string) {
    if (!stored?.codeHash || !stored.pendingEmail || stored.pendingEmail.toLowerCase() !== email.toLowerCase())
      return Code.VERIFICATION_CODE_WRONG;
    if (!stored.codeExpiresAt || stored.codeExpiresAt <= now() || stored.codeAttempts >= NOTIFY_LIMITS.codeAttemptsMax)
      return Code.VERIFICATION_CODE_EXPIRED;
    if (!sameHash(stored.codeHash, codeHash(userId, email, code))) {
      await repository.saveSettings(userId, { codeAttempts: stored.codeAttempts + 1 });
      return Code.VERIFICATION_CODE_WRONG;
    }
    return undefined;
  }

  /** The code under the secret throttle, per address and caller like every verification code (135 once locked). */
  async function verify(auth: AuthContext, stored: StoredNotifySettings | undefined, email: string, code: string): Promise<void> {
    let refusal = undefined as ResponseCode | undefined;
    const checked = await deps.throttle.check({ kind: 'code', subject: email, ip: auth.ip }, async () => {
      refusal = await judge(auth.userId, stored, email, code);
      return refusal === undefined;
    });
    if (checked.outcome === 'locked') throw lockedError(checked);
    if (refusal !== undefined) throw new ApiError(refusal);
  }

  return {
    async settings(userId: number): Promise<NotifySettings> {
      const stored = await repository.settings(userId);
      return {
        enabled: stored?.enabled ?? DEFAULTS.enabled,
        email: stored?.email ?? DEFAULTS.email,
        levels: stored?.levels ?? DEFAULTS.levels,
        plants: stored?.plants ?? DEFAULTS.plants,
        maxPerHour: deps.maxPerHour,
      };
    },

    /** Sends a code to `email` (at most one a minute, else 429); with `code`, checks it instead (5, 6). */
    async code(auth: AuthContext, language: Language, email: string, code: string | undefined): Promise<NotifyCodeResult> {
      const stored = await repository.settings(auth.userId);
      if (code !== undefined) {
        await verify(auth, stored, email, code);
        return { status: 'verified', resendAfter: 0 };
      }
      const sentAt = stored?.codeSentAt?.getTime();
      const wait = sentAt === undefined ? 0 : Math.ceil((sentAt + NOTIFY_LIMITS.codeResendSeconds * 1000 - now().getTime()) / 1000);
      if (wait > 0) throw new ApiError(Code.RATE_LIMITED, {}, { resendAfter: wait });
      const fresh = String(randomInt(0, 10 ** NOTIFY_LIMITS.codeLength)).padStart(NOTIFY_LIMITS.codeLength, '0');
      await repository.saveSettings(auth.userId, {
        pendingEmail: email,
        codeHash: codeHash(auth.userId, email, fresh),
        codeExpiresAt: new Date(now().getTime() + NOTIFY_LIMITS.codeTtlMinutes * 60_000),
        codeAttempts: 0,
        codeSentAt: now(),
      });
      await mail.sendNow({
        userId: auth.userId,
        to: email,
        kind: 'code',
        subject: alarmText(language, 'codeSubject'),
        text: alarmText(language, 'codeBody', { code: fresh, minutes: NOTIFY_LIMITS.codeTtlMinutes }),
      });
      return { status: 'sent', resendAfter: NOTIFY_LIMITS.codeResendSeconds };
    },

    /**
     * Saves the settings. A new address needs its code (5 wrong, 6 expired); turning alarms on needs an
     * address; a plant rule for a plant the user does not see answers 700 and changes nothing.
     */
    async update(auth: AuthContext, language: Language, body: SettingsUpdate): Promise<NotifySettings> {
      const stored = await repository.settings(auth.userId);
      const plantIds = [...new Set(body.plants.map((p) => p.plantId))];
      const visible = await plantAccess.levels(auth, plantIds);
      if (plantIds.some((id) => !visible.has(id))) throw new ApiError(Code.PLANT_NOT_FOUND);
      let email = stored?.email ?? null;
      let confirmed = false;
      if (body.email === null) email = null;
      else if (body.email !== undefined && body.email.toLowerCase() !== (email ?? '').toLowerCase()) {
        if (!body.code) throw validation(language, 'code', 'validation.required');
        await verify(auth, stored, body.email, body.code);
        email = body.email;
        confirmed = true;
      }
      if (body.enabled && !email) throw validation(language, 'email', 'validation.required');
      await repository.saveSettings(auth.userId, {
        enabled: body.enabled,
        email,
        levels: body.levels,
        // One rule per plant: the last one given wins.
        plants: [...new Map(body.plants.map((p) => [p.plantId, p])).values()],
        ...(confirmed ? { pendingEmail: null, codeHash: null, codeExpiresAt: null, codeAttempts: 0 } : {}),
      });
      return this.settings(auth.userId);
    },
  };
}

export type NotifySettingsService = ReturnType<typeof createNotifySettingsService>;
