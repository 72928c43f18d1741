import { parseArgs } from 'node:util';
import { AdminToolError, createAdministrator, type NewPassword, resetPassword } from './admin-accounts.js';
import { openDatabase } from './db/client.js';
import { failTool as fail, toolConfig } from './lib/tool-config.js';

/**
 * npm run admin -- reset-password [--account A]   a new password for A (default ADMIN_ACCOUNT): generated and
 *                                                  printed once, or ADMIN_PASSWORD when set; A's sessions end.
 * npm run admin -- create [--account A]           a further platform administrator, likewise.
 * Uses the server's own settings (DATABASE_URL, or DATA_DIR's embedded database with the server stopped).
 */
const USAGE = 'Usage: npm run admin -- reset-password [--account A] | create [--account A]   (ADMIN_PASSWORD: use this password)';

const { values, positionals } = (() => {
  try {
    return parseArgs({ options: { account: { type: 'string' }, help: { type: 'boolean' } }, allowPositionals: true });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`, 2);
  }
})();
const command = positionals[0];
if (values.help || (command !== 'reset-password' && command !== 'create') || positionals.length > 1) fail(USAGE, values.help ? 0 : 2);

const config = toolConfig();
const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
let result: NewPassword;
try {
  const input = { account: values.account ?? config.adminAccount, password: config.adminPassword };
  result = command === 'create' ? await createAdministrator(database.db, input) : await resetPassword(database.db, input);
} catch (error) {
  await database.close();
  if (error instanceof AdminToolError) fail(error.message);
  throw error;
}
await database.close();
const done = command === 'create' ? 'Platform administrator created' : 'Password set; the account was signed out everywhere';
process.stdout.write(
  [
    '',
    `  ${done}`,
    `    account:  ${result.account}`,
    result.generated ? `    password: ${result.password}   (shown once: store it now)` : '    password: the one set in ADMIN_PASSWORD',
    '',
    '',
  ].join('\n'),
);
