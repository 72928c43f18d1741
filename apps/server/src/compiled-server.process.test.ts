import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';

// The production path as `npm start` runs it: `npm run build`'s server bundle under plain node, with the
// demo fleet's simulator as its child, neither of them through tsx. Catches what only a bundle breaks
// (a file read relative to its module, a dependency left out).
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'sunward-compiled-'));
let child: ChildProcess;
let out = '';

function argsOf(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
}

function childrenOf(pid: number): number[] {
  const text = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).trim();
  return text === '' ? [] : text.split(/\s+/).map(Number);
}

async function until(condition: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end || child?.exitCode != null) throw new Error(`${what} not seen:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--server'], { cwd: ROOT, stdio: 'ignore' });
  const template = inject('pgliteTemplate');
  if (template && existsSync(template)) cpSync(template, join(dataDir, 'pg'), { recursive: true });
  child = spawn(process.execPath, ['--enable-source-maps', join(ROOT, 'apps/server/dist/main.js')], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      MQTT_PORT: '0',
      MQTT_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'Compiled-Server-1',
      SIMULATOR: 'on',
      SIMULATOR_HISTORY_DAYS: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  await until(() => out.includes('Demo fleet:'), 'the banner');
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

it('runs the compiled server and simulator with plain node, and says what it uses', async () => {
  expect(out).toContain('Database:    embedded PGlite in');
  expect(out).toMatch(/Broker: {6}embedded, port \d+/);
  expect(out).toMatch(/Gateways connect to mqtt:\/\/localhost:\d+/);
  expect(out).toMatch(/Demo fleet: {2}on, \d+ simulated gateways/);
  const port = /running at http:\/\/localhost:(\d+)/.exec(out)?.[1];
  const page = await fetch(`http://127.0.0.1:${port}/`);
  expect(page.status).toBe(200);
  const pid = child.pid ?? 0;
  expect(argsOf(pid)).not.toContain('tsx');
  let simulator: number | undefined;
  await until(() => {
    simulator = childrenOf(pid).find((c) => argsOf(c).includes('simulator/dist/main.js'));
    return simulator !== undefined;
  }, 'the simulator child');
  expect(argsOf(simulator ?? 0)).not.toContain('tsx');
});
