// npm start: builds the console if needed and runs the server (API + console) on PORT (default 8080).
import { ensureWebBuild, runForwarding } from './lib.mjs';

ensureWebBuild();
// The server (and through it the simulator) stops when this process ends, however it ends: it watches
// the pipe on its stdin (apps/server/src/lib/exit-with-parent.ts).
runForwarding(process.execPath, ['--import', 'tsx', '--import', './apps/server/src/lib/exit-with-parent.ts', 'apps/server/src/main.ts'], {
  stdio: ['pipe', 'inherit', 'inherit'],
});
