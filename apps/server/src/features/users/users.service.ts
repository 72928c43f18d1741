import type { CurrentUser } from '@sunward/contracts/auth';
import { DEFAULT_THEME_COLOR } from '@sunward/contracts/limits';
import type { AuthRepository } from '../auth/auth.repository.js';
import type { UsersRepository } from './users.repository.js';

type ProfileRow = NonNullable<Awaited<ReturnType<UsersRepository['findProfile']>>>;

/** Spec 01 §3 userInfo: `userid` holds the user, with the company's logo and icon. */
export function presentCurrentUser(row: ProfileRow): CurrentUser {
  return {
    userid: {
      id: row.id,
      account: row.account,
      nickname: row.nickname,
      avatar: row.avatar,
      role: row.roleKey,
      readOnly: row.readOnly,
      language: row.language,
      company:
        row.companyId === null || row.companyName === null
          ? null
          : {
              id: row.companyId,
              name: row.companyName,
              logoUrl: row.logoUrl,
              iconUrl: row.iconUrl,
              themeColor: row.themeColor ?? DEFAULT_THEME_COLOR,
            },
      twoFactorSetupRequired: row.companyRequiresTwoFactor === true && row.totpEnabledAt === null,
    },
  };
}

/** Disables or re-enables an account; disabling ends all its sessions at once. */
export async function setAccountDisabled(
  deps: { users: UsersRepository; auth: AuthRepository },
  userId: number,
  disabled: boolean,
  now = new Date(),
): Promise<void> {
  await deps.users.setDisabled(userId, disabled ? now : null);
  if (disabled) await deps.auth.revokeAllSessionsOfUser(userId, 'account_disabled', now);
}
