// Seconds from `npm start` (node scripts/start.mjs) to the console's first answer (GET / → 200), on a fresh
// DATA_DIR and then again on the same one (a restart). Builds count when they are stale: run it once after
// `npm run build` for the built figure, or on a fresh clone for the first start.
//   node bench/first-answer.mjs [--dir /path/to/checkout]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dirArg = process.argv.indexOf('--dir');
const root = dirArg > 0 ? process.argv[dirArg + 1] : fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'sunward-first-answer-'));

async function once(label) {
  const port = 20000 + Math.floor(Math.random() * 30000);
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), MQTT_PORT: '0', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let built = false;
  child.stdout.on('data', (chunk) => {
    if (/Building the console|Compiling the server/.test(chunk.toString())) built = true;
  });
  child.stderr.resume();
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  console.log(`${label}: first answer after ${seconds.toFixed(1)} s${built ? ' (including a build)' : ''}, load average ${load}`);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

await once('fresh DATA_DIR');
await once('restart, same DATA_DIR');
rmSync(dataDir, { recursive: true, force: true });
