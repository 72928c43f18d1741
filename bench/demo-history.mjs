// The demo fleet's first start with its history (issue 16.9): `npm start` (node scripts/start.mjs) on a fresh
// DATA_DIR and a free port; prints when /api/health first answers, the simulator's `demo history:` lines,
// the plant list's latency (signed in as the administrator, one call every 5 s) while the history fills and
// after it, and at the end the time for the whole history and the DATA_DIR's size.
//   node bench/demo-history.mjs [--days 60] [--keep]
// SIMULATOR_INTERVAL and other settings pass through from the environment. Builds count when stale (the
// line says so): run `npm run build` first for the first-answer figure.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { days: { type: 'string', default: '60' }, keep: { type: 'boolean', default: false } } });
const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'sunward-demo-history-'));
const password = 'Bench-History-1';

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const base = `http://127.0.0.1:${port}`;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const started = performance.now();
const seconds = () => (performance.now() - started) / 1000;
const say = (line) => console.log(`[${seconds().toFixed(1).padStart(7)} s] ${line}`);

say(`DATA_DIR ${dataDir}, port ${port}, history ${args.days} days, load average ${load()}`);
const child = spawn(process.execPath, ['scripts/start.mjs'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: password,
    SIMULATOR: 'on',
    SIMULATOR_HISTORY_DAYS: args.days,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let live;
let done;
let pending = '';
child.stdout.on('data', (chunk) => {
  pending += chunk.toString();
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    if (/Building the console|Compiling the server/.test(line)) say(`(a build: ${line.trim()})`);
    if (!line.startsWith('demo history:')) continue;
    say(line);
    if (line.includes('every plant reports live')) live = seconds();
    if (line.includes('demo history: done')) done = seconds();
  }
});
child.stderr.on('data', (chunk) => process.stderr.write(chunk));
const exited = new Promise((resolve) => child.once('exit', resolve));

let firstAnswer;
while (firstAnswer === undefined) {
  if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
  const ok = await fetch(`${base}/api/health`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) firstAnswer = seconds();
  else await new Promise((r) => setTimeout(r, 100));
}
say(`/api/health answered 200 (first answer), load average ${load()}`);

let token;
let signedInAt = 0;
async function signIn() {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', username: process.env.ADMIN_ACCOUNT ?? 'admin', password }),
  });
  const body = await response.json();
  if (body.code !== 0) throw new Error(`sign-in failed: ${JSON.stringify(body)}`);
  token = body.data.access_token;
  signedInAt = performance.now();
}

const during = [];
const after = [];
const percentile = (list, p) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};
const summary = (list) =>
  list.length === 0
    ? 'no calls'
    : `${list.length} calls, p50 ${percentile(list, 50).toFixed(0)} ms, p95 ${percentile(list, 95).toFixed(0)} ms, max ${Math.max(...list).toFixed(0)} ms`;
let lastLine = 0;
while (after.length < 12) {
  if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
  // Access tokens live 15 minutes by default: sign in again every 10.
  if (!token || performance.now() - signedInAt > 600_000) await signIn();
  const t0 = performance.now();
  const response = await fetch(`${base}/api/v1/plants?page=1&size=20`, { headers: { authorization: `Bearer ${token}` } });
  const body = await response.json();
  const ms = performance.now() - t0;
  if (body.code !== 0) throw new Error(`plant list: ${JSON.stringify(body)}`);
  (done === undefined ? during : after).push(ms);
  if (done === undefined && performance.now() - lastLine > 60_000) {
    lastLine = performance.now();
    say(`plant list while the history fills: ${summary(during)}; load average ${load()}`);
  }
  await new Promise((r) => setTimeout(r, 5000));
}
const du = (path) => execFileSync('du', ['-sm', path]).toString().split('\t')[0];
const sizes = `${du(dataDir)} MB (database ${du(join(dataDir, 'pg'))} MB, of it WAL ${du(join(dataDir, 'pg', 'pg_wal'))} MB)`;
child.kill('SIGTERM');
await exited;
console.log('');
console.log(`first answer (/api/health 200): ${firstAnswer.toFixed(1)} s after npm start`);
if (live !== undefined) console.log(`every plant reporting live: ${live.toFixed(0)} s`);
console.log(`history of ${args.days} days complete: ${done?.toFixed(0)} s (${((done ?? 0) / 60).toFixed(1)} min)`);
console.log(`plant list while the history filled: ${summary(during)}`);
console.log(`plant list afterwards: ${summary(after)}`);
console.log(`DATA_DIR after: ${sizes}`);
console.log(`load average at the end: ${load()}`);
if (!args.keep) rmSync(dataDir, { recursive: true, force: true });
