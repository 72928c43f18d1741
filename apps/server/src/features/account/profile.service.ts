import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ACCOUNT_LIMITS,
  type AccountInfo,
  DEFAULT_PERSONALIZED,
  type Personalized,
  PersonalizedSchema,
  type ProfileUpdate,
} from '@sunward/contracts/account';
import { Code } from '@sunward/contracts/codes';
import { isLanguage, type Language } from '@sunward/contracts/languages';
import { isEmail, isPhone, isPlainText, type RegistrationPasswordRule } from '@sunward/contracts/validators';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { requireSecret, type SecretThrottle } from '../auth/secret-throttle.js';
import { sniffPicture } from '../plants/plant-files.js';
import type { AccountRepository } from './account.repository.js';
import { assertNewPassword, fieldError } from './account.service.js';
import { normalizeAddress } from './verification-codes.js';

export interface ProfileDeps {
  repository: AccountRepository;
  /** Checks (and uses up) a bind code sent by /anonymous/sendBindCode: 5 wrong, 6 expired, 135 guessed at too often. */
  verifyBindCode: (address: string, code: string, ip: string) => Promise<void>;
  /** Counts a wrong old password with sign-in's (135 once locked). */
  throttle: SecretThrottle;
  passwordRule: RegistrationPasswordRule;
  dataDir: string;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/** Personal settings (/edit): account info, profile with verified e-mail and phone, avatar, password, preferences. */
export function createProfileService(deps: ProfileDeps) {
  const { repository, passwordRule, log } = deps;
  const now = deps.now ?? (() => new Date());
  const avatarDir = join(deps.dataDir, 'uploads', 'avatars');

  /** Users change only their own profile: another id answers 2 whatever the caller's role. */
  function own(auth: AuthContext, userId: number): void {
    if (auth.userId !== userId) throw new ApiError(Code.NO_PERMISSION);
  }

  /** A new e-mail or phone must be free and confirmed with the code sent to it; '' removes it. */
  async function checkedAddress(
    auth: AuthContext,
    field: 'email' | 'phone',
    value: string,
    code: string | undefined,
    current: string | null,
    language: Language,
  ): Promise<string | null | undefined> {
    if (value === '') return current === null ? undefined : null;
    const address = normalizeAddress(value);
    if (address === current) return undefined;
    const valid = field === 'email' ? isEmail(address) : isPhone(address) && /^\+?\d{6,15}$/.test(address);
    if (!valid) throw fieldError(language, field, field === 'email' ? 'account.emailFormat' : 'validation.phone');
    if (await repository.addressTaken(address, auth.userId)) throw fieldError(language, field, 'account.addressTaken');
    if (!code) throw fieldError(language, `${field}Code`, 'account.codeNeeded');
    await deps.verifyBindCode(address, code, auth.ip);
    return address;
  }

  return {
    async accountInfo(auth: AuthContext): Promise<AccountInfo> {
      const row = await repository.accountInfo(auth.userId);
      if (!row) throw new ApiError(Code.TOKEN_INVALID);
      const [facts, recoveryLeft] = await Promise.all([
        repository.sessionFacts(auth.userId, auth.sessionId),
        repository.recoveryCodesLeft(auth.userId),
      ]);
      return {
        id: row.id,
        account: row.account,
        nickname: row.nickname,
        avatar: row.avatar,
        email: row.email,
        phone: row.phone,
        role: row.builtIn ? row.role : row.roleName,
        company:
          row.companyId === null || row.companyName === null
            ? null
            : { id: row.companyId, name: row.companyName, requireTwoFactor: row.requireTwoFactor ?? false },
        createdAt: row.createdAt.toISOString(),
        lastSignInAt: facts.previous?.createdAt.toISOString() ?? null,
        lastSignInIp: facts.previous?.ip ?? null,
        activeSessions: facts.active,
        twoFactor: {
          enabled: row.totpEnabledAt !== null,
          recoveryCodesLeft: recoveryLeft,
          requiredByCompany: row.requireTwoFactor ?? false,
        },
        passwordRule,
      };
    },

    /** POST /api/v1/user/{userId}: nickname, avatar, and e-mail or phone with their codes. */
    async updateProfile(auth: AuthContext, userId: number, body: ProfileUpdate, language: Language): Promise<AccountInfo> {
      own(auth, userId);
      const current = await repository.accountInfo(userId);
      if (!current) throw new ApiError(Code.TOKEN_INVALID);
      const fields: { nickname?: string; avatar?: string | null; email?: string | null; phone?: string | null } = {};
      if (body.nickname !== undefined) {
        if (!isPlainText(body.nickname)) throw fieldError(language, 'nickname', 'validation.specialCharacters');
        fields.nickname = body.nickname;
      }
      if (body.avatar !== undefined) fields.avatar = body.avatar;
      if (body.email !== undefined) {
        const email = await checkedAddress(auth, 'email', body.email, body.emailCode, current.email, language);
        if (email !== undefined) fields.email = email;
      }
      if (body.phone !== undefined) {
        const phone = await checkedAddress(auth, 'phone', body.phone, body.phoneCode, current.phone, language);
        if (phone !== undefined) fields.phone = phone;
      }
      await repository.updateProfile(userId, fields, now());
      return this.accountInfo(auth);
    },

    /** POST /api/v1/user/avatar: JPG or PNG by content, at most 6 MB; becomes the avatar at once. */
    async uploadAvatar(auth: AuthContext, file: Buffer, language: Language): Promise<{ url: string }> {
      const type = sniffPicture(file);
      if (!type) throw fieldError(language, 'file', 'validation.pictureType');
      if (file.length > ACCOUNT_LIMITS.avatarMaxBytes)
        throw fieldError(language, 'file', 'validation.pictureSize', { max: ACCOUNT_LIMITS.avatarMaxBytes / 1024 / 1024 });
      // Random names: avatars load through <img> without a bearer token, so the name is the secret.
      const name = `${randomBytes(16).toString('hex')}.${type}`;
      await mkdir(avatarDir, { recursive: true });
      await writeFile(join(avatarDir, name), file);
      const url = `/api/v1/files/avatars/${name}`;
      await repository.updateProfile(auth.userId, { avatar: url }, now());
      return { url };
    },

    avatarPath(name: string): string {
      return join(avatarDir, name);
    },

    /** POST /api/v1/user/{userId}/pwd: 108 when the old password is wrong; every other session is signed out. */
    async changePassword(
      auth: AuthContext,
      userId: number,
      body: { oldPassword: string; password: string },
      language: Language,
    ): Promise<{ otherSessionsSignedOut: number }> {
      own(auth, userId);
      const secrets = await repository.findSecrets(userId);
      if (!secrets) throw new ApiError(Code.TOKEN_INVALID);
      await requireSecret(
        deps.throttle,
        { kind: 'password', subject: secrets.account, ip: auth.ip },
        () => verifyPassword(body.oldPassword, secrets.passwordHash),
        Code.OLD_PASSWORD_WRONG,
      );
      assertNewPassword(body.password, passwordRule, language);
      const at = now();
      await repository.setPassword(userId, await hashPassword(body.password), at);
      const signedOut = await repository.revokeOtherSessions(userId, auth.sessionId, 'password_changed', at);
      log.info({ event: 'password_changed', userId, otherSessionsSignedOut: signedOut }, 'password changed');
      return { otherSessionsSignedOut: signedOut };
    },

    /** GET /api/v1/user/personalized: stored settings over the defaults (the language is the account's). */
    async personalized(userId: number): Promise<Personalized> {
      const row = await repository.readPreferences(userId);
      if (!row) throw new ApiError(Code.TOKEN_INVALID);
      const stored = PersonalizedSchema.partial().safeParse(row.preferences ?? {});
      const language = isLanguage(row.language) ? row.language : DEFAULT_PERSONALIZED.language;
      return { ...DEFAULT_PERSONALIZED, ...(stored.success ? stored.data : {}), language };
    },

    async updatePersonalized(userId: number, changes: Partial<Personalized>): Promise<Personalized> {
      const next = { ...(await this.personalized(userId)), ...changes };
      const { language, ...rest } = next;
      await repository.writePreferences(userId, rest, language, now());
      return next;
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
