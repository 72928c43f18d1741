import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './db/client.js';
import { createAccountRepository } from './features/account/account.repository.js';
import { createAuthRepository } from './features/auth/auth.repository.js';
import { generatePassword, hashPassword } from './features/auth/password.js';
import { createSecretThrottleRepository } from './features/auth/secret-throttle.repository.js';
import { createPermissionsRepository } from './features/permissions/permissions.repository.js';
import { createUsersRepository } from './features/users/users.repository.js';

/** A refusal of the administrator tool: one line for the operator, exit code 1. */
export class AdminToolError extends Error {}

export interface NewPassword {
  account: string;
  /** The password now in force; `generated` says whether the tool made it (then it is printed once). */
  password: string;
  generated: boolean;
}

/**
 * Sets a new password on an account (the way back in when the first start's password is lost): a given one
 * (ADMIN_PASSWORD) or a generated one; the account's sessions are signed out and its sign-in lock lifted.
 */
export async function resetPassword(db: Database, input: { account: string; password: string | undefined }): Promise<NewPassword> {
  const accounts = createAccountRepository(db);
  const account = input.account.trim().toLowerCase();
  const user = await accounts.findByAccount(account);
  if (!user)
    throw new AdminToolError(`No account "${account}": give an existing one with --account, or create one with: npm run admin -- create`);
  const password = input.password ?? generatePassword();
  const now = new Date();
  await accounts.setPassword(user.id, await hashPassword(password), now);
  await createAuthRepository(db).revokeAllSessionsOfUser(user.id, 'password_reset_by_operator', now);
  await createSecretThrottleRepository(db).clear(`account:${account}`);
  return { account, password, generated: input.password === undefined };
}

/** Creates a further platform administrator (the permission catalogue is synced first on a new database). */
export async function createAdministrator(db: Database, input: { account: string; password: string | undefined }): Promise<NewPassword> {
  const account = input.account.trim().toLowerCase();
  if (account === '' || account.length > 64) throw new AdminToolError('The account must be 1 to 64 characters: give it with --account');
  const permissions = createPermissionsRepository(db);
  await permissions.syncCatalogue();
  if (await createAccountRepository(db).findByAccount(account))
    throw new AdminToolError(
      `The account "${account}" exists already: to set its password, run: npm run admin -- reset-password --account ${account}`,
    );
  const roleId = await permissions.builtInRoleId('platform_admin');
  if (roleId === undefined) throw new Error('platform_admin role missing: catalogue not synced');
  const password = input.password ?? generatePassword();
  await createUsersRepository(db).create({ account, passwordHash: await hashPassword(password), nickname: 'Administrator', roleId });
  return { account, password, generated: input.password === undefined };
}

/** The file a running server keeps in DATA_DIR while it uses the embedded database (one process at a time). */
const PID_FILE = 'server.pid';

/** Marks DATA_DIR as in use by this process; the returned function removes the mark. */
export function markDataDirInUse(dataDir: string): () => void {
  const file = join(dataDir, PID_FILE);
  writeFileSync(file, `${process.pid}\n`);
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
}

/** The process id of a server running on DATA_DIR's embedded database, if one is (a stale mark is ignored). */
export function serverRunningOn(dataDir: string): number | undefined {
  const file = join(dataDir, PID_FILE);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: it runs as another user; ESRCH: it has ended (killed) and left its mark.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}
