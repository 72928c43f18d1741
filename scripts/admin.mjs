// npm run admin -- reset-password [--account A] | create [--account A]: the administrator tool
// (apps/server/src/admin-cli.ts), compiled like the server and run with plain node.
import { join } from 'node:path';
import { ensureServerBuild, root, runForwarding } from './lib.mjs';

ensureServerBuild();
runForwarding(process.execPath, ['--enable-source-maps', join(root, 'apps/server/dist/admin-cli.js'), ...process.argv.slice(2)]);
