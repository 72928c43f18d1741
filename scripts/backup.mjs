// npm run backup -- --out FILE | npm run restore -- FILE [--force]: backups of the database and DATA_DIR
// (apps/server/src/features/backup/backup-cli.ts), compiled like the server and run with plain node.
import { join } from 'node:path';
import { ensureServerBuild, root, runForwarding } from './lib.mjs';

ensureServerBuild();
runForwarding(process.execPath, ['--enable-source-maps', join(root, 'apps/server/dist/backup-cli.js'), ...process.argv.slice(2)]);
