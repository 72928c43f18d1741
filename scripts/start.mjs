// npm start: builds what is missing or stale (the console, the compiled server) and runs the server
// (API + console) on PORT (default 8080) with plain node: no tsx on the production path.
import { ensureServerBuild, ensureWebBuild, exitWithParent, runForwarding, serverEnv, serverMain } from './lib.mjs';

ensureWebBuild();
ensureServerBuild();
// The server (and through it the simulator) stops when this process ends, however it ends: it watches
// the pipe on its stdin (apps/server/src/lib/exit-with-parent.ts).
runForwarding(process.execPath, ['--enable-source-maps', '--import', exitWithParent, serverMain], {
  stdio: ['pipe', 'inherit', 'inherit'],
  env: serverEnv(),
});
