// npm start: builds the console if needed and runs the server (API + console) on PORT (default 8080).
import { ensureWebBuild, runForwarding } from './lib.mjs';

ensureWebBuild();
runForwarding(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts']);
