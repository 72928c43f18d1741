import { parseArgs } from 'node:util';
import { failTool as fail, toolConfig } from '../../lib/tool-config.js';
import { SERVER_VERSION } from '../../version.js';
import { BackupError, createBackup, restoreBackup } from './backup.js';

/**
 * npm run backup -- --out FILE        one .tar.gz of the database and DATA_DIR's files (firmware, keys, uploads)
 * npm run restore -- FILE [--force]   back into the configured database and DATA_DIR (empty ones, unless --force)
 * Uses the server's own settings: DATABASE_URL (pg_dump/pg_restore), or DATA_DIR's embedded database with
 * the server stopped (it has one user at a time).
 */
const USAGE = 'Usage: npm run backup -- --out FILE   |   npm run restore -- FILE [--force]';

const [mode, ...rest] = process.argv.slice(2);
const { values, positionals } = (() => {
  try {
    return parseArgs({
      args: rest,
      options: { out: { type: 'string' }, force: { type: 'boolean', default: false }, help: { type: 'boolean' } },
      allowPositionals: true,
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`, 2);
  }
})();
if (values.help) fail(USAGE, 0);
if (mode === 'backup' ? !values.out || positionals.length > 0 : mode !== 'restore' || positionals.length !== 1) fail(USAGE, 2);

const config = toolConfig();
const target = { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
try {
  if (mode === 'backup') {
    const out = values.out as string;
    const manifest = await createBackup(target, out, SERVER_VERSION);
    process.stdout.write(
      `Backup written to ${out}: ${manifest.database} database (${manifest.schema.latest ?? 'no migrations'}), ${manifest.files} files from DATA_DIR.\n`,
    );
  } else {
    const archive = positionals[0] as string;
    const manifest = await restoreBackup(target, archive, { force: values.force ?? false });
    process.stdout.write(
      `Restored the backup of ${manifest.createdAt} (Sunward ${manifest.serverVersion}, ${manifest.database}, ${manifest.files} files) into ${config.databaseUrl ? 'DATABASE_URL' : `DATA_DIR ${config.dataDir}`}; start the server as usual.\n`,
    );
  }
} catch (error) {
  if (error instanceof BackupError) fail(error.message);
  throw error;
}
