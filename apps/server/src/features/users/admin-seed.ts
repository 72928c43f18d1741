import type { FastifyBaseLogger } from 'fastify';
import { generatePassword, hashPassword } from '../auth/password.js';
import type { PermissionsRepository } from '../permissions/permissions.repository.js';
import type { UsersRepository } from './users.repository.js';

export interface SeededAdmin {
  account: string;
  /** Present only when this start generated it; shown once, never logged. */
  generatedPassword: string | undefined;
  password: string;
}

/**
 * Creates the platform administrator on first start. With ADMIN_PASSWORD unset, a strong password is
 * generated and returned for the caller to print once; later starts find the administrator and do nothing.
 */
export async function seedPlatformAdmin(
  deps: { users: UsersRepository; permissions: PermissionsRepository; log: FastifyBaseLogger },
  settings: { account: string; password: string | undefined },
): Promise<SeededAdmin | undefined> {
  const roleId = await deps.permissions.builtInRoleId('platform_admin');
  if (roleId === undefined) throw new Error('platform_admin role missing: catalogue not synced');
  if (await deps.users.existsWithRole(roleId)) return undefined;
  const password = settings.password ?? generatePassword();
  await deps.users.create({ account: settings.account, passwordHash: await hashPassword(password), nickname: 'Administrator', roleId });
  deps.log.info({ event: 'admin_seeded', account: settings.account }, 'platform administrator created');
  return { account: settings.account, password, generatedPassword: settings.password ? undefined : password };
}
