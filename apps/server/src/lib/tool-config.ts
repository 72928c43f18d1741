import { serverRunningOn } from '../admin-accounts.js';
import { type Config, ConfigError, loadConfig } from '../config.js';

/** Ends a command-line tool with one line on stderr. */
export function failTool(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/**
 * The server's own settings for a command-line tool (npm run admin, backup, restore): a bad setting ends it
 * with exit code 2; so does a server using the embedded database in DATA_DIR (one user at a time), with 1.
 */
export function toolConfig(): Config {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) failTool(error.message, 2);
    throw error;
  }
  if (!config.databaseUrl) {
    const pid = serverRunningOn(config.dataDir);
    if (pid !== undefined)
      failTool(
        `The server (process ${pid}) is using the database in DATA_DIR ${config.dataDir}: stop it first (the embedded database has one user at a time).`,
      );
  }
  return config;
}
